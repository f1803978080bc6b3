"""A square the search laid on a die the colour of the table that does not count (read a little
ahead of the next face, from a square taking in the die's side) is an unsure reading of its place:
_refit reads it again (SQ_SEEN); one read as a bare face is not (a square of a cloth of the dice's
colour). A square _refit reads next to a sure die, nearer its middle than dice can lie
(REFIT_APART), is that die's side, not a die."""

from __future__ import annotations

import cv2
import pytest

from vision import custom

from .conftest import read_near


@pytest.mark.long
@pytest.mark.parametrize("seen", [True, False])
def test_a_slate_die_the_square_search_read_unsure_is_read_again(stand_in, monkeypatch, seen):
    # bench/other_hand.py seed 37, dice taught from crops, scene 9: a slate die (embossed target)
    # on a grey-green cloth, outlined by no colour or edge; the square search read it 0.09 ahead
    # of the next face (less than SQ_MIN_MARGIN) from a square taking in its side. Read again, it
    # is a target 0.86 like its face. (Without SQ_SEEN it is missed: the test shows it fails then.)
    monkeypatch.setattr(custom, "SQ_SEEN", seen)
    reader, scenes, truth = stand_in("other_hand", 37, "dice", "crops", 10)
    got = reader.read(cv2.imread(str(scenes / "009.png")))["dice"]
    slate = [t for t in truth["009.png"] if (t["type"], t["face"], round(t["y"])) == ("slate", "target", 388)]
    assert len(slate) == 1
    assert (read_near(got, slate[0]) == [("slate", "target")]) == seen


@pytest.mark.long
def test_a_die_s_side_next_to_it_is_not_read_as_a_die(stand_in):
    # bench/fourth_hand.py seed 2, dice taught from crops, scene 19: an indigo die seen a little from
    # one side; a square on its side (0.77 of a side from its middle) read 0.65 like a miniclover.
    # Kept out twice: nearer the die than REFIT_APART, and, found only by the square search, less
    # like its face than the examples are like each other
    reader, scenes, truth = stand_in("fourth_hand", 2, "dice", "crops", 20)
    got = reader.read(cv2.imread(str(scenes / "019.png")))["dice"]
    die = [t for t in truth["019.png"] if t["type"] == "indigo"]
    assert len(die) == 1
    # the die is read, and nothing else within a side of its middle
    assert read_near(got, die[0]) == [("indigo", die[0]["face"])]
    assert read_near(got, die[0], reach=1.0) == [("indigo", die[0]["face"])]


@pytest.mark.long
def test_squares_of_a_cloth_of_the_dice_colour_read_as_bare_are_not_read_again(stand_in):
    # bench/fourth_hand.py seed 8, dice taught from whole photos, scene 14: jade dice on a teal cloth.
    # The square search read two squares of the cloth (beside a die, in its shadow) as jade blanks,
    # too faintly to count; read again, they were blanks 0.58 like their face. Only squares read as
    # a face with a symbol are read again
    reader, scenes, truth = stand_in("fourth_hand", 8, "dice", "photos", 15)
    got = reader.read(cv2.imread(str(scenes / "014.png")))["dice"]
    assert [read_near(got, t) for t in truth["014.png"]] == [[(t["type"], t["face"])] for t in truth["014.png"]]
    # nothing else is read for sure (one patch of the cloth is reported as seen, not read)
    assert len([d for d in got if d["face"] is not None]) == len(truth["014.png"])
