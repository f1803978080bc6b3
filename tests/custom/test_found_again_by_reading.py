"""A whole-photo example whose first outline is a shape of the table is looked for again (_relocate):
among the outlines of the die's colour, then among any colour's; and then among the reader's own
readings of the photo (a die on a table of its own colour, outlined by its edges). Its symbol is
learned from that reading, its colour is not. Stand-in sets: bench/fourth_hand.py seeds 23 and 3,
dice taught from whole photos, drawn and read before the change."""

from __future__ import annotations

import pytest

from .conftest import reads_of


@pytest.mark.long
def test_a_purple_die_on_purple_felt_is_learned_from_the_readers_outline(stand_in):
    # examples/purple/heart2/03.png: a purple die on purple felt. No outline of its colour or of any
    # colour matched the other purple heart2 examples (0.26); the reader's reading of the photo did
    # (0.85). Before, the example was ignored as unlike the others, and a violet heart3 of scene 10
    # was missed
    reader, scenes, truth = stand_in("fourth_hand", 23, "dice", "photos", 11)
    assert not [w for w in reader.warnings if "purple/heart2/03.png" in w], reader.warnings
    seen = reads_of(reader, scenes, truth, ("010.png",), ("violet", "heart3"))
    assert [near for _, _, near in seen] == [[("violet", "heart3")]]


@pytest.mark.long
def test_a_crimson_star_learned_from_the_readers_outline_reads_as_a_star(stand_in):
    # examples/crimson/star/03.png: its first outline matched the other crimson stars 0.48, the
    # reader's 0.50. Before, one of the two crimson stars of scene 5 was read as the outlined star
    reader, scenes, truth = stand_in("fourth_hand", 3, "dice", "photos", 6)
    seen = reads_of(reader, scenes, truth, ("005.png",), ("crimson", "star"))
    assert [near for _, _, near in seen] == [[("crimson", "star")]] * 2
