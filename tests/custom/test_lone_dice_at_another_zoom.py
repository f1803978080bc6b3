"""A set taught from whole photos gives the dice's size in the picture, which the reader uses to
search for dice of the table's colour when nothing is read for sure. But the camera may sit
nearer or further than where the set was taught: the search tries a few plausible sizes
(SQ_GUESS) as well as the taught one."""

from __future__ import annotations

import glob
import math

import cv2
import pytest


@pytest.mark.long
def test_lone_dice_smaller_than_in_the_taught_photos_are_read(stand_in):
    # other-hand seed 35, photo examples, scene 28: two grey "slate" dice on a pale table of about
    # their colour, 35 pixels wide where the taught photos showed dice 57 wide. Squares of the
    # taught size read them 0.47 like a face at best, and both were missed
    from bench import other_hand

    if not glob.glob(other_hand.PHOTOS):
        pytest.skip("the scene's table is a real photo of shared/datasets/dice-dev, not beside this clone")
    reader, scenes, truth = stand_in("other_hand", 35, "dice", "photos", 29)
    assert [(t["type"], t["face"]) for t in truth["028.png"]] == [("slate", "target")] * 2
    got = reader.read(cv2.imread(str(scenes / "028.png")))["dice"]
    for t in truth["028.png"]:
        assert t["w"] < 45, t
        near = [(d["type"], d["face"]) for d in got if math.hypot(d["x"] - t["x"], d["y"] - t["y"]) < 0.5 * t["w"]]
        assert near == [("slate", "target")], (t, got)
    assert len(got) == 2, got
