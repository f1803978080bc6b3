"""A bare die-shaped patch is reported as "seen, not read" only when it stands out from the table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import custom

from .conftest import reads_of


def _granite(rng: np.random.Generator, h: int = 240, w: int = 320) -> np.ndarray:
    """A grey table flecked with dark and light grains, as fourth-hand seed 3's granite."""
    img = np.full((h, w, 3), 128, np.float32) + rng.normal(0, 6, (h, w, 1))
    grains = rng.random((h, w))
    img[grains < 0.08] = 40
    img[grains > 0.95] = 215
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    return np.clip(img, 0, 255).astype(np.uint8)


def _square(cx: int, cy: int, side: int, angle: float = 20.0) -> np.ndarray:
    box = cv2.boxPoints(((cx, cy), (side, side), angle))
    return box.round().astype(np.int32).reshape(-1, 1, 2)


def test_a_patch_of_the_table_does_not_stand_out():
    rng = np.random.default_rng(3)
    img = _granite(rng)
    for cx, cy in ((80, 80), (200, 120), (160, 170)):
        assert not custom._stands_out(img, _square(cx, cy, 50))


def test_a_bare_die_stands_out():
    rng = np.random.default_rng(4)
    img = _granite(rng)
    # an ivory die and a grey die a little lighter than the table, both without a symbol
    for colour, (cx, cy) in (((225, 235, 238), (80, 80)), ((165, 165, 165), (220, 150))):
        cnt = _square(cx, cy, 50)
        cv2.drawContours(img, [cnt], -1, colour, -1)
        noisy = img.astype(np.float32) + rng.normal(0, 4, img.shape)
        assert custom._stands_out(np.clip(noisy, 0, 255).astype(np.uint8), cnt)


def test_too_small_to_judge_counts_as_standing_out():
    img = np.full((40, 40, 3), 128, np.uint8)
    assert custom._stands_out(img, _square(20, 20, 4))


def _cloth(rng: np.random.Generator, colour=(20, 120, 240), h: int = 300, w: int = 400) -> np.ndarray:
    """A grainy cloth of one colour (BGR), as fourth-hand seed 5's orange felt."""
    img = np.array(colour, np.float32)[None, None] * (1 + rng.normal(0, 0.12, (h, w, 1)))
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.8), 0, 255).astype(np.uint8)


def _die(img: np.ndarray, cnt: np.ndarray, colour) -> None:
    """A die seen from above: its top a little lighter than its body, a shaded rim and a shadow."""
    cv2.drawContours(img, [cnt + 4], -1, (0, 0, 0), -1)  # the shadow, down and right
    cv2.drawContours(img, [cnt], -1, tuple(int(c * 0.7) for c in colour), -1)
    c = cnt.reshape(-1, 2).mean(axis=0)
    top = (c + 0.85 * (cnt - c)).round().astype(np.int32)
    cv2.drawContours(img, [top], -1, tuple(min(255, int(c * 1.1)) for c in colour), -1)


def test_a_step_along_a_side_counts_and_the_grain_of_a_cloth_does_not():
    rng = np.random.default_rng(5)
    img = _cloth(rng)
    _die(img, _square(280, 150, 60), (20, 120, 240))
    gx, gy = custom._gradients(img)
    table, die = _square(100, 150, 60), _square(280, 150, 60)
    # the grain's steps up and down average out along a side; the die's rim does not
    assert custom._side_edges(gx, gy, table, steps=True)[2] < 0.06 * custom._side_edges(gx, gy, die, steps=True)[2]
    # (the strongest gradient near each point of a side finds the grain: about 2.5 times as much)
    assert custom._side_edges(gx, gy, table)[2] > 2 * custom._side_edges(gx, gy, table, steps=True)[2]


def _blank_model() -> custom.SetModel:
    mu = np.array([[0.3, 0.1, 4.5], [0.4, 0.3, 4.6]], np.float32)
    sd = np.full((2, 3), 0.05, np.float32)
    return custom.SetModel("dice", "square", ["blue", "orange"],
                           [("blue", "star"), ("orange", "blank"), ("orange", "star")],
                           mu, sd, mu, sd, np.zeros((3, 4), np.float32), np.array([0, 1, 2], np.int32),
                           cls_energy=np.array([1.0, 0.05, 1.1], np.float32))


def test_a_bare_face_read_on_a_table_of_its_colour_is_unread_and_a_bare_die_is_kept():
    rng = np.random.default_rng(6)
    img = _cloth(rng)
    for cnt, colour in ((_square(90, 80, 60), (200, 90, 30)), (_square(300, 210, 60), (20, 120, 240))):
        _die(img, cnt, colour)  # a blue die with a star (read for sure), an orange die with no symbol
    sure = {"face": "star", "type": "blue", "_cnt": _square(90, 80, 60)}
    table = {"face": "blank", "type": "orange", "_cnt": _square(150, 220, 60), "confidence": 0.8}
    bare_die = {"face": "blank", "type": "orange", "_cnt": _square(300, 210, 60), "confidence": 0.8}
    custom._bare_unshown(img, _blank_model(), [sure, table, bare_die])
    assert table["face"] is None and table["_blank"]
    assert bare_die["face"] == "blank" and sure["face"] == "star"


def test_with_no_sure_die_to_measure_by_a_bare_face_is_left_as_read():
    img = _cloth(np.random.default_rng(7))
    table = {"face": "blank", "type": "orange", "_cnt": _square(150, 220, 60)}
    custom._bare_unshown(img, _blank_model(), [table])
    assert table["face"] == "blank"


def test_blank_classes_are_the_faces_with_little_symbol_for_their_type():
    # orange: a blank among faces with symbols; a type of faint (embossed) faces has no blank
    m = _blank_model()
    m.types, m.labels = ["blue", "orange", "slate"], m.labels + [("slate", "gem"), ("slate", "moon")]
    m.cls_energy = np.array([1.0, 0.05, 1.1, 0.2, 0.25], np.float32)
    assert custom._blank_classes(m) == {("orange", "blank")}


def test_a_face_blank_on_the_other_types_is_blank_on_one_taught_with_its_sides_in_view():
    # fourth-hand seed 11: the coral blanks' examples show the dice's sides (0.68 of the coral median
    # face's symbol energy), the red and lime blanks none (0.05-0.2 of theirs). A coral die with its
    # blank up was doubted for showing little symbol, as if a faint face of another kind
    m = _blank_model()
    m.types = ["coral", "lime", "red"]
    m.labels = [(t, f) for t in m.types for f in ("blank", "bolt", "cup", "moon")]
    m.cls_energy = np.array([0.18, 0.18, 0.43, 0.26, 0.03, 0.2, 0.46, 0.27, 0.05, 0.37, 0.85, 0.48], np.float32)
    assert custom._blank_classes(m) == {("coral", "blank"), ("lime", "blank"), ("red", "blank")}
    # ... but not when it shows more than the type's median face (a symbol of its own there), nor
    # when the face is blank on only one of the other two types (a coral bolt printed faint)
    m.cls_energy = np.array([0.5, 0.18, 0.43, 0.26, 0.03, 0.2, 0.46, 0.27, 0.05, 0.37, 0.85, 0.48], np.float32)
    assert custom._blank_classes(m) == {("lime", "blank"), ("red", "blank")}
    m.labels = [(t, f) for t in m.types for f in ("bolt", "blank", "cup", "moon")]
    m.cls_energy = np.array([0.1, 0.5, 0.43, 0.26, 0.2, 0.03, 0.46, 0.27, 0.37, 0.05, 0.85, 0.48], np.float32)
    assert ("lime", "bolt") not in custom._blank_classes(m) and ("coral", "bolt") in custom._blank_classes(m)


def _reading(typ: str, face: str | None, x: float, y: float, score: float) -> dict:
    return {"type": typ, "face": face, "x": x, "y": y, "_area": 60.0 ** 2, "_score": score}


def test_a_blank_beside_a_better_reading_is_a_dies_side_face():
    m = _blank_model()
    star = _reading("blue", "star", 100, 100, 0.9)
    side = _reading("orange", "blank", 140, 120, 0.5)      # 0.75 of a side from the star: its side face
    apart = _reading("orange", "blank", 100, 170, 0.5)     # 1.17 of a side off: a die of its own
    twin = _reading("orange", "blank", 103, 185, 0.45)     # another, weaker reading of that die
    other = _reading("orange", None, 150, 90, 0.0)         # unread: not judged
    kept = custom._blank_sides_dropped(m, 1.0, [star, side, apart, twin, other])
    assert kept == [star, apart, other]
    # a blank better than the reading beside it (a side face's symbol read weakly) stays
    weak_side = _reading("blue", "star", 100, 100, 0.3)
    assert custom._blank_sides_dropped(m, 1.0, [weak_side, side]) == [weak_side, side]
    # the working picture's scale: the same places in a picture read at half size
    half = [dict(e, _area=30.0 ** 2) for e in (star, side)]
    assert custom._blank_sides_dropped(m, 2.0, half) == [half[0]]


def test_a_face_printed_faint_on_one_type_is_bare_only_on_that_type():
    # third-hand seed 36: its orange dice show every symbol faint (a quarter of the median class's
    # symbol), its black dice the same symbols at three times the median. A black die's arrow, found
    # by the square search, must not be judged as a bare face (it was unread: no strong third side)
    m = _blank_model()
    m.types = ["orange", "crimson", "black"]
    m.labels = [(t, f) for t in m.types for f in ("arrow", "tree", "duo")]
    m.cls_energy = np.array([0.25, 0.28, 0.26, 0.9, 1.0, 1.1, 2.9, 3.5, 4.4], np.float32)
    bare = custom._bare_faces(m)
    assert {("orange", "arrow"), ("orange", "tree"), ("orange", "duo")} <= bare
    assert not any(t == "black" for t, _ in bare), bare
    assert ("crimson", "duo") not in bare


def test_a_smooth_die_is_read_as_a_taught_blank_and_a_faint_symbol_abstains():
    m = _blank_model()
    d2 = np.array([30.0, 0.5], np.float32)   # an orange die
    # a die smoother than the blank's examples (less than BLANK_RATIO of their energy): the blank
    got = custom._decide(m, np.array([0.1, 0.45, 0.2], np.float32), d2, energy=0.01)
    assert (got["type"], got["face"]) == ("orange", "blank"), got
    # ... a patch as faint, most like a face with a symbol: no symbol can be seen on it
    got = custom._decide(m, np.array([0.1, 0.2, 0.45], np.float32), d2, energy=0.01)
    assert got["face"] is None and got["reason"] == "no symbol can be seen on it", got


@pytest.mark.long
def test_a_black_die_found_by_its_symbol_is_not_judged_as_a_bare_face(stand_in):
    # third-hand seed 36, photo examples, scene 19: a black die with an arrow on a dark cloth, found
    # only by the square search around its symbol (0.71 like the arrow, 0.26 ahead). The arrow was a
    # bare face for every type, as the orange dice print it faint, and the black die was unread
    reader, scenes, truth = stand_in("third_hand", 36, "dice", "photos", 20)
    got = reads_of(reader, scenes, truth, ["019.png"], ("black", "arrow"))
    assert got
    for name, t, near in got:
        assert near == [("black", "arrow")], (name, t, near)
