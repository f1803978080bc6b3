"""``companion read`` through the real CLI (a subprocess): the JSON contract and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from dev_sample import ROOT, SAMPLE, match, yolo_labels
from synth_pips import Die, Scene, render


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", "read", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    img, _ = render(Scene(dice=[Die(200, 240, 60, 4, colour="white"), Die(420, 240, 60, 6, colour="red")]), 1)
    p = tmp_path_factory.mktemp("img") / "good.png"
    cv2.imwrite(str(p), img)
    return p


def test_json_lines_follow_the_contract():
    images = [SAMPLE / "five_43.jpg", SAMPLE / "valid_72.jpg"]
    res = run("--json", *map(str, images))
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    lines = res.stdout.strip().split("\n")
    assert len(lines) == 2
    for image, line in zip(images, lines, strict=True):
        obj = json.loads(line)
        assert obj["image"] == str(image)
        assert isinstance(obj["ms"], float) and obj["ms"] > 0
        assert obj["tokens"] == []
        pairs, extra = match(yolo_labels(image), obj["dice"], tol=25)
        assert all(v == got for v, got in pairs) and not extra
        for d in obj["dice"]:
            assert d["set"] == "standard-d6" and d["type"] == "d6" and d["face"] == str(d["value"])


def test_human_output_and_overlay(tmp_path, good):
    out = tmp_path / "ov.png"
    res = run("--overlay", str(out), str(good))
    assert res.returncode == 0, res.stderr
    assert "2 dice" in res.stdout and "[4 6]" in res.stdout and "total 10" in res.stdout
    ov = cv2.imread(str(out))
    assert ov is not None and ov.shape == (480, 640, 3)
    assert (ov != cv2.imread(str(good))).any()


def test_several_overlays_get_the_image_stem(tmp_path, good):
    other = tmp_path / "other.png"
    other.write_bytes(good.read_bytes())
    res = run("--json", "--overlay", str(tmp_path / "ov.png"), str(good), str(other))
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "ov-good.png").exists() and (tmp_path / "ov-other.png").exists()


def _bad_files(d: Path) -> dict[str, Path]:
    files = {}
    files["corrupt"] = d / "corrupt.jpg"
    files["corrupt"].write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg" + bytes(range(256)) * 4)
    files["empty"] = d / "empty.png"
    files["empty"].write_bytes(b"")
    ok, buf = cv2.imencode(".jpg", np.full((480, 640, 3), 128, np.uint8))
    files["truncated"] = d / "truncated.jpg"
    files["truncated"].write_bytes(buf.tobytes()[: len(buf) // 2])
    files["huge"] = d / "huge.png"
    cv2.imwrite(str(files["huge"]), np.zeros((8000, 8000), np.uint8))
    files["missing"] = d / "does-not-exist.jpg"
    files["folder"] = d / "a-folder.png"
    files["folder"].mkdir()
    return files


def test_bad_files_give_one_clean_line_each_and_the_good_file_is_still_read(tmp_path, good):
    bad = _bad_files(tmp_path)
    res = run("--json", str(bad["corrupt"]), str(good), *[str(p) for k, p in bad.items() if k != "corrupt"])
    assert res.returncode == 1
    assert "Traceback" not in res.stderr and "Traceback" not in res.stdout
    err = [line for line in res.stderr.strip().split("\n") if line]
    assert len(err) == len(bad), err
    order = [bad["corrupt"]] + [p for k, p in bad.items() if k != "corrupt"]
    for path, line in zip(order, err, strict=True):
        assert line.startswith("companion read: ") and str(path) in line, line
    text = "\n".join(err)
    assert "no such file" in text and "empty" in text and "truncated" in text
    assert "8000x8000" in text and "folder" in text and "not an image" in text
    out = [json.loads(x) for x in res.stdout.strip().split("\n")]
    assert [o["image"] for o in out] == [str(good)]
    assert sorted(d["value"] for d in out[0]["dice"]) == [4, 6]


@pytest.mark.parametrize("kind", ["grey", "16bit", "alpha"])
def test_converted_images_are_read_with_a_note_and_a_nonzero_exit(tmp_path, kind):
    img, _ = render(Scene(dice=[Die(200, 240, 60, 3, colour="white"), Die(420, 240, 60, 5, colour="white")]), 2)
    path = tmp_path / f"{kind}.png"
    if kind == "grey":
        cv2.imwrite(str(path), cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    elif kind == "16bit":
        cv2.imwrite(str(path), img.astype(np.uint16) * 257)
    else:
        bgra = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
        bgra[:40, :40, 3] = 0
        cv2.imwrite(str(path), bgra)
    res = run("--json", str(path))
    assert res.returncode == 3, (res.returncode, res.stderr)
    assert "Traceback" not in res.stderr
    (line,) = res.stderr.strip().split("\n")
    assert line.startswith(f"companion read: note: {path}")
    obj = json.loads(res.stdout)
    assert sorted(d["value"] for d in obj["dice"]) == [3, 5]


def test_unknown_dice_set_is_a_clean_usage_error(good):
    res = run("--dice-set", "no-such-set-anywhere", str(good))
    assert res.returncode == 2
    assert "Traceback" not in res.stderr
    lines = [x for x in res.stderr.strip().split("\n") if x]
    assert len(lines) == 1 and "no-such-set-anywhere" in lines[0]
