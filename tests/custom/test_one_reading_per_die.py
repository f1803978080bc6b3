"""One die, one reading: outlines of one die may fall into two places of the detector (fourth-hand
dice-photos-22 scene 18: a grey die read twice, from outlines 66 and 71 pixels wide about one centre,
and so reported as two dice)."""

from __future__ import annotations

import numpy as np

from vision import custom


def _reading(x: float, y: float, side: float, face: str | None, score: float) -> dict:
    h = side / 2
    cnt = np.array([[[x - h, y - h]], [[x + h, y - h]], [[x + h, y + h]], [[x - h, y + h]]], np.float32)
    return {"x": x, "y": y, "_cnt": cnt, "_area": side * side, "_score": score,
            "type": "grey", "face": face}


def test_two_sure_readings_of_one_die_are_one():
    a = _reading(1078, 139, 71, "leaf", 0.84)
    b = _reading(1078, 140, 66, "leaf", 0.85)
    out = custom._one_reading_per_die([a, b], 1.0)
    assert out == [b]


def test_dice_side_by_side_are_both_kept():
    a = _reading(100, 100, 60, "leaf", 0.9)
    b = _reading(162, 104, 60, "star", 0.7)  # touching: centres a side apart
    c = _reading(100, 163, 60, None, 0.1)    # unsure, beside the first
    assert custom._one_reading_per_die([a, b, c], 1.0) == [a, b, c]


def test_an_unsure_reading_inside_a_sure_die_is_dropped():
    a = _reading(100, 100, 60, "leaf", 0.9)
    b = _reading(110, 95, 50, None, 0.2)
    assert custom._one_reading_per_die([a, b], 1.0) == [a]


def test_scale_is_the_working_pictures():
    # readings' x, y are in the input picture's pixels; outlines and areas in the working picture's
    a = _reading(100, 100, 60, "leaf", 0.9)
    b = _reading(105, 100, 60, "leaf", 0.8)
    a2, b2 = dict(a, x=200.0, y=200.0), dict(b, x=210.0, y=200.0)
    assert custom._one_reading_per_die([a2, b2], 2.0) == [a2]
