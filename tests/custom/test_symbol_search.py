"""Dice of the table's very colour (black dice on black marble) show nothing of themselves but their
symbol: neither the colour masks nor the square searches find them. They are looked for at
symbols of a die's size, and count only when plainly their face (a dashed tablecloth's dashes
read a little like a key), not on a table patterned with symbol-sized marks."""

from __future__ import annotations

import math

import cv2
import pytest


@pytest.fixture(scope="module")
def drawn(third_hand_3):
    return third_hand_3


def _read(drawn, scene: str):
    reader, scenes, truth = drawn
    return reader.read(cv2.imread(str(scenes / scene)))["dice"], truth[scene]


@pytest.mark.parametrize("scene,n_black", [("009.png", 3), ("014.png", 2)])
def test_black_dice_on_a_black_table_are_read_by_their_symbol(drawn, scene, n_black):
    # scene 009: three black dice on near-black marble (two were missed), 014: two on a black
    # table (both were missed)
    dice, truth = _read(drawn, scene)
    assert sum(t["type"] == "black" for t in truth) == n_black
    for t in truth:
        near = [(d["type"], d["face"]) for d in dice if math.hypot(d["x"] - t["x"], d["y"] - t["y"]) < 0.5 * t["w"]]
        assert near == [(t["type"], t["face"])], (t, dice)
    assert len(dice) == len(truth), dice


def test_the_dashes_of_a_tablecloth_are_not_read_as_dice(drawn):
    # scene 019: four dice on a cloth of grey dashes, the colour of no type but close to peach; five
    # dashes read as a peach key, 0.60-0.62 alike (the dice read by their symbol were 0.70 or
    # more), and must not count: 51 dashes of a symbol's size are the table's pattern
    dice, truth = _read(drawn, "019.png")
    for t in truth:
        near = [(d["type"], d["face"]) for d in dice if math.hypot(d["x"] - t["x"], d["y"] - t["y"]) < 0.5 * t["w"]]
        assert near == [(t["type"], t["face"])], (t, dice)
    assert len(dice) == len(truth), dice


def test_black_dice_are_read_by_their_symbol_where_nothing_else_is_read(drawn):
    # scene 004: two black dice on a dark marble, and nothing else: no sure reading gives the dice'
    # size, so the searches ran at none (both were missed). The set was taught from crops, which
    # tell no size: a few plausible sizes are searched
    dice, truth = _read(drawn, "004.png")
    assert [t["type"] for t in truth] == ["black", "black"]
    for t in truth:
        near = [(d["type"], d["face"]) for d in dice if math.hypot(d["x"] - t["x"], d["y"] - t["y"]) < 0.5 * t["w"]]
        assert near == [(t["type"], t["face"])], (t, dice)
    assert len(dice) == len(truth), dice
