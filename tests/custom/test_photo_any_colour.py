"""A whole-photo example whose die is under a colour cast of its own (not of its type's learned
colour) is found by its symbol among the photo's colour-blind candidates.

The five pictures (tests/data/slate-moon-photos) are whole 640x480 photos drawn by
bench/other_hand.py (seed 1, dice, photo examples): one grey embossed die with a moon each. In
03.jpg the die is green under the cast, off-centre on a flat lavender cloth that is closer to the
other pictures' grey than the die is; it was learned as a bare square of cloth."""

from pathlib import Path

from companion import dicesets
from vision import custom

SET = Path(__file__).resolve().parents[1] / "data" / "slate-moon-photos"


def test_a_die_of_another_colour_than_its_type_in_a_whole_photo_is_learned(monkeypatch):
    seen = {}
    loo = custom._leave_one_out

    def record(model, patches, src, ex_cls):
        seen["patches"] = list(patches)
        return loo(model, patches, src, ex_cls)

    monkeypatch.setattr(custom, "_leave_one_out", record)
    dicesets._OPEN.clear()
    reader = dicesets.open_set(SET, use_cache=False)
    energies = [custom.icon_energy(p, reader.model.shape) for p in seen["patches"]]
    assert len(energies) == 5
    mid = sorted(energies)[2]
    # the bare cloth had 0.027 against the others' median 0.084; the die 0.131
    assert energies[3] >= 0.6 * mid, [round(e, 3) for e in energies]
