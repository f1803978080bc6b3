"""Two things of dice taught from whole photos, on a stand-in set drawn and read before the change
(bench/fourth_hand.py seed 13: coral, jade, red and violet dice, glossy, seen much from one side
near the picture's edges):

- a die photographed on a table of its own colour was outlined with the whole table, and that
  table was learned as the face; such a photo is now looked for again with the model of the
  others (_recover, which now also reads the photo as the reader would: _read_search);
- a die seen from one side matched its face's examples poorly (0.27 like three stars it plainly
  shows): its patch, and the examples', are now of its top face alone (_top_face)."""

from __future__ import annotations

import cv2
import pytest

from .conftest import read_near


@pytest.mark.long
def test_photos_on_a_table_of_the_dice_colour_are_learned_from_the_die(stand_in):
    reader, _, _ = stand_in("fourth_hand", 13, "dice", "photos", 28)
    # six photos (jade shields, a jade star2, violet minishields, a violet moonring) were outlined
    # whole; all but one are found again and learned, none is learned as a whole picture
    again = reader.model.info.get("found_again", [])
    for name in ("jade/shield/03", "jade/star2/03", "violet/minishield/01", "violet/minishield/02",
                 "violet/moonring/04"):
        assert f"examples/{name}.png" in again, (name, again)
    lost = [w for w in reader.warnings if "found in the picture" in w]
    assert len(lost) <= 1, lost  # (jade/shield/02: the reader finds no die in it either)


@pytest.mark.long
def test_dice_seen_from_one_side_are_read_from_their_top_face(stand_in):
    reader, scenes, truth = stand_in("fourth_hand", 13, "dice", "photos", 28)
    # scene 10: a jade die with three stars near the left edge (abstained: 0.27 like its face; now
    # 0.7 or more). (Scene 27's jade shield near the bottom edge, 0.35 like its face before, is 0.47
    # now and still abstained: the examples, better framed, are more like each other and so ask more)
    for name in ("010.png",):
        got = reader.read(cv2.imread(str(scenes / name)))["dice"]
        for t in truth[name]:
            assert read_near(got, t) == [(t["type"], t["face"])], (name, t, read_near(got, t))
