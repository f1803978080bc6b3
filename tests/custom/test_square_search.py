"""Dice whose outline leaks into the table on one side are found by a search for squares of
the sure dice's size whose other three sides run along edges.

tests/data/slate-target-lit: the grey embossed dice of bench/other_hand.py seed 1 (crop
examples, shrunk to 100 px, 6 faces x 5) and its scene 009 (JPEG): a lavender-lit grey die with
the target face at (481, 156) on a pale pink table. Its lit upper side is as bright as the table;
every edge outline of it ran across its symbol (icon 0.41: "matches none"), and it was missed."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import dicesets
from vision import custom

SET = Path(__file__).resolve().parents[1] / "data" / "slate-target-lit"


def test_a_die_lit_like_the_table_on_one_side_is_read():
    dicesets._OPEN.clear()
    reader = dicesets.open_set(SET, use_cache=False)
    dice = reader.read(cv2.imread(str(SET / "scene.jpg")))["dice"]
    near = [d for d in dice if math.hypot(d["x"] - 481, d["y"] - 156) < 20]
    assert [(d["type"], d["face"]) for d in near] == [("slate", "target")], dice
    # the other grey dice of the scene are still read, and nothing is read twice
    assert len(dice) == len({(round(d["x"] / 20), round(d["y"] / 20)) for d in dice})


def test_square_search_finds_a_square_with_one_side_missing():
    img = np.full((240, 320, 3), 120, np.uint8)
    box = cv2.boxPoints(((150.0, 110.0), (50.0, 50.0), 30.0))
    cv2.fillPoly(img, [box.round().astype(np.int32)], (170, 170, 170), cv2.LINE_AA)
    # one side lit like the table: the top-left side has no edge
    a, b = box[1], box[2]
    cv2.line(img, tuple(int(v) for v in a), tuple(int(v) for v in b), (120, 120, 120), 9)
    cv2.fillPoly(img, [np.array([(150, 110), a, b], np.int32)], (170, 170, 170))
    sure = cv2.boxPoints(((260.0, 180.0), (50.0, 50.0), 10.0))
    cv2.fillPoly(img, [sure.round().astype(np.int32)], (170, 170, 170), cv2.LINE_AA)
    feat = custom.colour_features(img)
    grey = custom.colour_features(np.full((4, 4, 3), 170, np.uint8)).reshape(-1, 3).mean(axis=0)
    model = custom.SetModel("dice", "square", ["grey"], [("grey", "x")], grey[None], np.full((1, 3), 0.05, np.float32),
                            grey[None], np.full((1, 3), 0.05, np.float32), np.zeros((1, 4), np.float32),
                            np.zeros(1, np.int32))
    found = custom._square_outlines(img, model, feat, 50.0, [(260.0, 180.0)])
    centres = [cv2.minEnclosingCircle(c)[0] for _, c, _, _ in found]
    assert any(math.hypot(x - 150, y - 110) < 5 for x, y in centres), centres
    best = min(found, key=lambda f: math.hypot(*(np.array(cv2.minEnclosingCircle(f[1])[0]) - (150, 110))))
    ang = cv2.minAreaRect(best[1])[2] % 90
    assert min(abs(ang - 30), 90 - abs(ang - 30)) <= custom.SQ_STEP, ang


@pytest.mark.long
def test_a_sure_reading_far_from_the_dice_size_does_not_hold_its_place(tmp_path):
    # bench/other_hand.py seed 3 (crop examples), scene 007: a grey die with the target face (two
    # rings, embossed) on a pale green table as light as its body. The die's own outline is never
    # closed; the inside of its outer ring is, and reads as the hexagon face (the ring is about the
    # hexagon's size), sure, at 0.55 of the other dice's area. Such a reading no longer holds its
    # place against the square search, whose square of the dice's size reads the target
    import glob
    import json

    from bench import other_hand

    if not glob.glob(other_hand.PHOTOS):
        pytest.skip("the scene's table is a real photo of shared/datasets/dice-dev, not beside this clone")
    other_hand.write(tmp_path, 3, "dice", "crops", scenes=8)
    dicesets._OPEN.clear()
    reader = dicesets.open_set(tmp_path / "set", use_cache=False)
    dice = reader.read(cv2.imread(str(tmp_path / "scenes" / "007.png")))["dice"]
    truth = json.loads((tmp_path / "scenes" / "truth.json").read_text())["007.png"]
    assert len(truth) == 5
    for t in truth:
        near = [(d["type"], d["face"]) for d in dice if math.hypot(d["x"] - t["x"], d["y"] - t["y"]) < 0.5 * t["w"]]
        assert near == [(t["type"], t["face"])], (t, dice)
    assert len(dice) == 5, dice
