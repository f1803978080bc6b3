"""Dice of a type whose colour the table's is close to (peach dice on yellowish ruled paper) are
found along the axis from the table's colour to the type's.

Their colour check passes the whole table, so the colour masks hold no die; their edges of
lightness are weaker than the table's printed marks, so the square search of lightness ranks
them below the marks. Along the table-to-type axis the grey marks vanish and the die is a square
brighter inside than around it."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision import custom



def _model(body_feat: np.ndarray) -> custom.SetModel:
    sd = np.array([[0.08, 0.06, 0.3]], np.float32)
    return custom.SetModel("dice", "square", ["peach"], [("peach", "x")], body_feat[None], sd,
                           body_feat[None], sd, np.zeros((1, 4), np.float32), np.zeros(1, np.int32))


def test_a_die_the_colour_of_ruled_paper_is_found_on_the_table_to_type_axis():
    rng = np.random.default_rng(0)
    paper, die, ink = (150, 205, 185), (150, 185, 215), (95, 105, 100)  # BGR: yellow-green, peach, grey
    img = np.zeros((300, 400, 3), np.float32)
    img[:] = paper
    for y in range(8, 300, 16):  # rows of dark dashes, stronger edges than the die's
        for x in range(int(rng.integers(-30, 0)), 400, 46):
            cv2.rectangle(img, (x, y), (x + 30, y + 4), ink, -1)
    box = cv2.boxPoints(((180.0, 140.0), (40.0, 40.0), 25.0)).round().astype(np.int32)
    cv2.fillPoly(img, [box], die, cv2.LINE_AA)
    img = np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    feat = custom.colour_features(img)
    model = _model(custom.colour_features(np.full((4, 4, 3), die, np.uint8)).reshape(-1, 3).mean(axis=0))
    # the table passes the colour check: the search of lightness cannot tell it from the die
    assert custom._colour_d2(model, np.median(feat.reshape(-1, 3), axis=0))[0] <= custom.SQ_MAX_D2

    def near(found):
        return [f for f in found if math.hypot(*(np.array(cv2.minEnclosingCircle(f[1])[0]) - (180, 140))) < 6]

    assert not near(custom._square_outlines(img, model, feat, 40.0, [(330.0, 250.0)], most=custom.SQ_MOST)[:5])
    found = near(custom._table_type_squares(img, model, feat, 40.0))
    assert found, "the die was not found"
    ang = cv2.minAreaRect(found[0][1])[2] % 90
    assert min(abs(ang - 25), 90 - abs(ang - 25)) <= custom.SQ_STEP, ang


def test_peach_dice_on_yellow_paper_are_read(stand_in):
    # bench/third_hand.py seed 3 (crop examples), scene 001: three peach dice on pale yellow-green
    # ruled paper (the paper is a washed-out peach to the colour model); all three were missed
    reader, scenes, truth = stand_in("third_hand", 3, "dice", "crops", 2)
    dice = reader.read(cv2.imread(str(scenes / "001.png")))["dice"]
    truth = truth["001.png"]
    peach = [t for t in truth if t["type"] == "peach"]
    assert len(peach) == 3
    for t in peach:
        near = [(d["type"], d["face"]) for d in dice if math.hypot(d["x"] - t["x"], d["y"] - t["y"]) < 0.5 * t["w"]]
        assert near == [(t["type"], t["face"])], (t, dice)
    # nothing read twice, nothing read on the paper
    assert len(dice) == len(truth), dice


def test_the_die_itself_is_read_where_the_strongest_square_is_shifted_onto_its_shadow(third_hand_3):
    # seed 3 (crop examples), scene 005: a peach die on pinkish grey marble, about 1.5 sd from
    # peach, its shadow on one side. On the table-to-type axis the strongest square there is
    # shifted towards the shadow (it read as no face, 0.41 like one; the die was missed); the
    # die's own blob on that axis reads it
    reader, scenes, truth = third_hand_3
    dice = reader.read(cv2.imread(str(scenes / "005.png")))["dice"]
    truth = truth["005.png"]
    for t in truth:
        near = [(d["type"], d["face"]) for d in dice if math.hypot(d["x"] - t["x"], d["y"] - t["y"]) < 0.5 * t["w"]]
        assert near == [(t["type"], t["face"])], (t, dice)
    assert len(dice) == len(truth), dice
