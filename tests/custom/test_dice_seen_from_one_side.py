"""A die seen much from one side is outlined with its sides: the sure dice's outlines are larger
than a top face, so an unsure die is read again (_refit) from squares of their side and also of
0.9 of it (REFIT_SIDES). Stand-in set: bench/fourth_hand.py seed 9, dice taught from whole
photos, drawn and read before the change."""

from __future__ import annotations

import cv2
import pytest

from .conftest import read_near, reads_of


@pytest.mark.long
def test_a_die_seen_from_one_side_is_read_from_a_square_of_its_top(stand_in):
    # scene 8: an amber heart with two of its sides showing read at best 0.67 like the heart from
    # squares of the sure dice's side (its top in one corner of them), too little ahead of the
    # outlined heart, and was missed; a square 0.9 of that side on its top reads 0.72 like the heart
    reader, scenes, truth = stand_in("fourth_hand", 9, "dice", "photos", 27)
    got = reader.read(cv2.imread(str(scenes / "008.png")))["dice"]
    assert len(truth["008.png"]) == 8
    for t in truth["008.png"]:
        near = read_near(got, t)
        assert near == [(t["type"], t["face"])], (t, near)
    assert len(got) == 8


@pytest.mark.long
def test_a_square_off_the_outlines_middle_climbs_onto_the_top_face(stand_in):
    # fourth-hand seed 20, crop examples, scene 24: a green die with a crown, a side with a symbol
    # showing below it (30 % of its outline), its top face parted from the side by no line. Read
    # 0.33 like the crown from its outline, 0.64 from the best square moved about its middle, it was
    # missed; squares moved again about the best, while that betters it, read it 0.81 like the crown
    reader, scenes, truth = stand_in("fourth_hand", 20, "dice", "crops", 25)
    got = reads_of(reader, scenes, truth, ["024.png"], ("green", "crown"))
    assert len(got) == 2
    for name, t, near in got:
        assert near == [("green", "crown")], (name, t, near)


@pytest.mark.long
def test_the_climb_does_not_wander_onto_a_side_face(stand_in):
    # fourth-hand seed 2, crop examples, scene 10: a blue die with a key on top and a small clover
    # on its side; squares climbing from its outline's middle without a bound reached the side
    # and read it as a die of its own (a blue clover beside the key)
    reader, scenes, truth = stand_in("fourth_hand", 2, "dice", "crops", 11)
    got = reader.read(cv2.imread(str(scenes / "010.png")))["dice"]
    for t in truth["010.png"]:
        assert read_near(got, t) == [(t["type"], t["face"])], (t, got)
    assert len(got) == len(truth["010.png"]), got


@pytest.mark.long
@pytest.mark.parametrize(("seed", "scenes", "names"), [(23, 40, ("037.png", "039.png")), (15, 27, ("007.png", "026.png"))])
def test_a_blank_die_seen_from_one_side_or_plainer_than_its_examples_is_read_as_its_blank(stand_in, seed, scenes, names):
    # fourth-hand seed 23, photo examples: two tan dice with their blank up, seen from one side (a
    # heart on the side in view). The outline with the side read as no face; squares of the top read
    # 0.57-0.59 like the tan blank, less than a face with a symbol must be (REFIT_MIN_ICON), and the
    # dice were missed. Seed 15, photo examples: grey and slate dice with their blank up, smoother
    # than the blank's examples (under BLANK_PRE of the faintest face's symbol energy), were not
    # matched at all: two were reported as seen, not read, one was missed
    reader, scenes_dir, truth = stand_in("fourth_hand", seed, "dice", "photos", scenes)
    blanks = 0
    for name in names:
        got = reader.read(cv2.imread(str(scenes_dir / name)))["dice"]
        for t in truth[name]:
            assert read_near(got, t) == [(t["type"], t["face"])], (name, t, got)
            blanks += t["face"] == "blank"
        assert len(got) == len(truth[name]), (name, got)
    assert blanks >= 2


@pytest.mark.long
def test_a_slate_die_on_a_dotted_cloth_is_among_the_places_read_again(stand_in):
    # other-hand seed 34, photo examples, scene 26: a slate skull on a slate cloth dotted green, its
    # outline off its top (0.38 like a face); four patches of the dots read 0.53-0.66 like faces,
    # and with four places read again (REFIT_MOST) the die, sixth, was missed. A square on its top
    # reads 0.88 like the skull
    reader, scenes, truth = stand_in("other_hand", 34, "dice", "photos", 27)
    seen = reads_of(reader, scenes, truth, ("026.png",), ("slate", "skull"))
    assert [near for _, _, near in seen] == [[("slate", "skull")]]
    got = reader.read(cv2.imread(str(scenes / "026.png")))["dice"]
    assert len(got) == len(truth["026.png"])
