"""Set folders: what loads, and the sentences that say what is wrong."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from companion import dicesets
from companion.dicesets import SetError, load_set_folder, open_set


def _img(path, colour=(40, 120, 200), size=60):
    path.parent.mkdir(parents=True, exist_ok=True)
    img = np.full((size + 40, size + 40, 3), 30, np.uint8)
    cv2.rectangle(img, (20, 20), (20 + size, 20 + size), colour, -1)
    cv2.circle(img, (50, 50), 12, (0, 0, 0), -1)
    cv2.imwrite(str(path), img)


def _tiny_set(root, faces=("a", "b"), n=3):
    for f in faces:
        for i in range(n):
            _img(root / "examples" / "red" / f / f"{i}.png")
    return root


def test_builtin_sets_resolve_and_are_marked_provisional():
    for name in ("castle-dice", "augustus-tokens"):
        info, _ = load_set_folder(name)
        assert info.provisional and info.name == name
    info, _ = load_set_folder("castle-dice")
    assert ("wood", "cow") in info.files and ("gold", "barbarian") in info.files
    assert info.label("face", "cow", "el") == "Αγελάδα"
    assert info.meaning("wood2") == {"resource": "wood", "amount": 2} and info.value("wood2") == 2
    tok, _ = load_set_folder("augustus-tokens")
    assert tok.kind == "tokens"
    assert {f for _, f in tok.files} == {"swords", "shield", "chariot", "catapult", "standard", "dagger", "joker"}


def test_shipped_pictures_stay_small():
    total = sum(p.stat().st_size for p in dicesets.BUILTIN_DIR.rglob("*.png"))
    assert total < 3_000_000


def test_unknown_name(tmp_path):
    with pytest.raises(SetError, match="neither a built-in set"):
        load_set_folder(str(tmp_path / "nope"))


def test_no_examples_folder(tmp_path):
    with pytest.raises(SetError, match="no examples/ folder"):
        load_set_folder(tmp_path)


def test_empty_type_folder_is_named(tmp_path):
    _tiny_set(tmp_path)
    (tmp_path / "examples" / "blue").mkdir()
    with pytest.raises(SetError, match="'blue' has no face folders"):
        load_set_folder(tmp_path)


def test_empty_face_folder_is_named(tmp_path):
    _tiny_set(tmp_path)
    (tmp_path / "examples" / "red" / "c").mkdir()
    with pytest.raises(SetError, match="red/c' has no pictures"):
        load_set_folder(tmp_path)


def test_face_listed_in_toml_but_missing(tmp_path):
    _tiny_set(tmp_path)
    (tmp_path / "set.toml").write_text('kind = "dice"\n[types.red]\nfaces = ["a", "b", "skull"]\n')
    with pytest.raises(SetError, match="red/skull"):
        load_set_folder(tmp_path)


def test_bad_toml_names_the_file(tmp_path):
    _tiny_set(tmp_path)
    (tmp_path / "set.toml").write_text("kind = = 3\n")
    with pytest.raises(SetError, match="set.toml: not valid TOML"):
        load_set_folder(tmp_path)


def test_picture_outside_a_face_folder(tmp_path):
    _tiny_set(tmp_path)
    _img(tmp_path / "examples" / "red" / "stray.png")
    with pytest.raises(SetError, match="inside a face folder"):
        load_set_folder(tmp_path)


def test_unreadable_picture_is_named(tmp_path):
    _tiny_set(tmp_path)
    (tmp_path / "examples" / "red" / "a" / "9.png").write_bytes(b"not a png")
    info, _ = load_set_folder(tmp_path)
    with pytest.raises(SetError, match=r"9\.png: cannot be read"):
        dicesets.load_examples(info)


def test_few_examples_and_mixed_sizes_warn(tmp_path):
    _tiny_set(tmp_path, n=2)
    info, warnings = load_set_folder(tmp_path)
    assert any("red/a has only 2" in w for w in warnings)
    _img(tmp_path / "examples" / "red" / "a" / "big.png", size=900)
    info, _ = load_set_folder(tmp_path)
    _, w2 = dicesets.load_examples(info)
    assert any("big.png" in w for w in w2)


def test_picture_without_a_die_warns(tmp_path):
    _tiny_set(tmp_path, n=3)
    blank = np.full((120, 120, 3), (200, 60, 160), np.uint8)  # no red die at all
    cv2.imwrite(str(tmp_path / "examples" / "red" / "a" / "empty.png"), blank)
    reader = open_set(tmp_path)
    assert any("empty.png" in w and "no red die" in w for w in reader.warnings)


def test_folder_names_alone_are_enough_and_cache_follows_changes(tmp_path):
    _tiny_set(tmp_path)
    r1 = open_set(tmp_path)
    assert r1.kind == "dice" and r1.info.types == ["red"] and r1.learn_seconds > 0
    r2 = open_set(tmp_path, use_cache=True)
    assert r2 is r1
    dicesets._OPEN.clear()
    r3 = open_set(tmp_path)
    assert r3.learn_seconds == 0.0  # from the disk cache
    shutil.rmtree(tmp_path / "examples" / "red" / "b")
    _tiny_set(tmp_path, faces=("c",))
    r4 = open_set(tmp_path)
    assert {f for _, f in r4.model.labels} == {"a", "c"}
