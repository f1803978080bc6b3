"""bench/fourth_hand.py seed 7, dice taught from whole photos: grey and slate dice (close colours),
cyan and yellow ones, photographed on tables of their own colour and on cloths printed with big
letters. Two of the photos' dice were not found (a cyan die on a cyan cloth, a grey die on grey
granite): what was learned for each was a bare patch of the table, and the two patches, like each
other, vouched for each other as shields of another type."""

from __future__ import annotations

import math

import cv2
import pytest


@pytest.mark.long
def test_two_misframed_examples_of_one_face_do_not_vouch_for_each_other(stand_in):
    reader, _, _ = stand_in("fourth_hand", 7, "dice", "photos", 27)
    ignored = {w.split(":")[0] for w in reader.warnings if "looks unlike" in w}
    again = set(reader.model.info.get("found_again", []))
    # 0.19 and 0.18 like the other shields of their types, 0.55 like each other: learned as shields
    # before (the grey patch read as a grey shield where a slate die lay on a grey table); then
    # ignored; now, outlined whole (each die on a table of its own colour), looked for again with
    # the model of the other photos and learned from the die
    for name in ("examples/cyan/shield/03.png", "examples/grey/shield/03.png"):
        assert name in again and name not in ignored, (name, again, ignored)


@pytest.mark.long
def test_letters_of_a_printed_cloth_are_not_read_as_dice_beside_the_dice(stand_in):
    # scene 6: three dice on a cloth printed with big white letters. Three letters were read as grey
    # dice 0.60-0.63 like a face (the set's examples are like each other from 0.58 up), a quarter of
    # a die's size: with them the median size of the sure readings was half a die's, and the final
    # size check kept three more letters
    reader, scenes, truth = stand_in("fourth_hand", 7, "dice", "photos", 27)
    truth = truth["006.png"]
    got = reader.read(cv2.imread(str(scenes / "006.png")))["dice"]
    side = max(max(t["w"], t["h"]) for t in truth)
    extra = [r for r in got if not any(math.hypot(r["x"] - t["x"], r["y"] - t["y"]) < 0.6 * side for t in truth)]
    assert not extra, extra
    assert len(got) == len(truth) == 3, got


@pytest.mark.long
def test_a_die_read_weakly_from_an_outline_with_its_side_is_read_again_from_squares(stand_in):
    # scene 26: a yellow and a cyan die showing "3", each outlined with a side: read 0.50 like a
    # minishield (the examples are like each other from 0.58 up); from squares of the sure dice's
    # size about their middles, 0.68 and 0.61 like the 3
    reader, scenes, truth = stand_in("fourth_hand", 7, "dice", "photos", 27)
    threes = [t for t in truth["026.png"] if t["face"] == "sign3"]
    assert {t["type"] for t in threes} >= {"yellow", "cyan"}
    got = reader.read(cv2.imread(str(scenes / "026.png")))["dice"]
    for t in threes:
        near = [r for r in got if math.hypot(r["x"] - t["x"], r["y"] - t["y"]) < 0.5 * max(t["w"], t["h"])]
        assert [(r["type"], r["face"]) for r in near] == [(t["type"], "sign3")], (t, near)
