"""Marks of the table are not dice: a bare square of a table of a die's colour is not a die with a
blank face (it has no edges on three sides). Stand-in set: bench/fourth_hand.py seed 8, drawn and
read before the rule was made."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision import custom


def _extra(got: list[dict], truth: list[dict]) -> list[dict]:
    side = max(max(t["w"], t["h"]) for t in truth)
    return [r for r in got if not any(math.hypot(r["x"] - t["x"], r["y"] - t["y"]) < 0.6 * side for t in truth)]


def test_a_square_beside_a_die_has_one_strong_side_a_die_has_four():
    img = np.full((300, 300), 120, np.uint8)
    cv2.rectangle(img, (100, 100), (160, 160), 60, -1)  # a die, darker than the table
    g = cv2.GaussianBlur(img.astype(np.float32), (0, 0), 1.0)
    gx, gy = cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1)
    die = np.array([[[100, 100]], [[160, 100]], [[160, 160]], [[100, 160]]], np.int32)
    beside = die + [0, 60]  # the square just below it: its top side is the die's bottom edge
    on_die = custom._side_edges(gx, gy, die)
    next_to = custom._side_edges(gx, gy, beside)
    assert min(on_die) > 0.8 * max(on_die)
    assert next_to[0] > 0.8 * on_die[0] and next_to[2] < 0.1 * on_die[2]


@pytest.mark.long
def test_bare_squares_of_an_orange_table_beside_dice_are_not_orange_blank_dice(stand_in):
    # scene 26: twelve dice on an orange table, two of them orange blanks. Four squares of the
    # table, each beside a die (its edge their one strong side), read 0.58-0.66 like the orange
    # blank (its examples are like each other from 0.68 up)
    reader, scenes, truth = stand_in("fourth_hand", 8, "dice", "crops", 27)
    truth = truth["026.png"]
    got = reader.read(cv2.imread(str(scenes / "026.png")))["dice"]
    assert not _extra(got, truth), _extra(got, truth)
    assert sorted((r["type"], r["face"]) for r in got) == sorted((t["type"], t["face"]) for t in truth)
