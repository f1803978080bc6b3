"""Types judged again in the picture's own light.

Other-hand dice seed 1 (photo examples): orange "tide" dice in a dim scene (log brightness 4.10,
their examples 4.72 +- 0.23) were read as red "grove" dice (4.46 +- 0.47, a wider spread), though
their chroma was plainly tide's; every die of the scene was about 0.44 darker than its type's
examples. The sure readings' median shift is now taken out before types are decided again
(that seed's photo scenes 97.0 -> 98.5 %)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision import custom

from .conftest import third_hand


def _model():
    types = ["tide", "grove", "slate"]
    labels = [("tide", "eye"), ("grove", "eye"), ("slate", "moon")]
    die_mu = np.array([[0.238, 0.304, 4.724], [0.391, 0.191, 4.458], [0.003, -0.016, 4.851]], np.float32)
    die_sd = np.array([[0.094, 0.052, 0.231], [0.119, 0.068, 0.466], [0.051, 0.055, 0.267]], np.float32)
    m = custom.SetModel("dice", "square", types, labels, die_mu, die_sd, die_mu, die_sd,
                        np.zeros((3, 4), np.float32), np.arange(3, dtype=np.int32))
    m.icon_floor = 0.5
    return m


def _reading(model, col, icons):
    e = {"_col": np.array(col, np.float32), "_icons": np.array(icons, np.float32), "_energy": 1.0}
    custom._set_decision(e, custom._decide(model, e["_icons"], custom._colour_d2(model, e["_col"]), 1.0), model)
    return e


def test_a_dim_scene_does_not_turn_orange_dice_red():
    model = _model()
    greys = [_reading(model, [0.0, -0.02, 4.85 - 0.45 + d], [0.3, 0.3, 0.9]) for d in (-0.02, 0.0, 0.03)]
    orange = _reading(model, [0.224, 0.291, 4.103], [0.9, 0.9, 0.3])
    assert [g["type"] for g in greys] == ["slate"] * 3
    assert orange["type"] == "grove"  # in the examples' light its darkness is grove's
    custom._relight(greys + [orange], model)
    assert (orange["type"], orange["face"]) == ("tide", "eye")
    assert [g["type"] for g in greys] == ["slate"] * 3


def test_a_die_lit_unlike_the_others_keeps_its_own_light():
    model = _model()
    greys = [_reading(model, [0.0, -0.02, 4.85 - 0.45 + d], [0.3, 0.3, 0.9]) for d in (-0.02, 0.0, 0.03)]
    spot = _reading(model, [0.3, 0.25, 4.724 + 0.2], [0.9, 0.9, 0.3])  # 0.65 brighter than the others' shift
    before = (spot["type"], spot["face"])
    custom._relight(greys + [spot], model)
    assert (spot["type"], spot["face"]) == before


def test_too_few_sure_readings_do_not_tell_the_light():
    model = _model()
    grey = _reading(model, [0.0, -0.02, 4.40], [0.3, 0.3, 0.9])
    orange = _reading(model, [0.224, 0.291, 4.103], [0.9, 0.9, 0.3])
    custom._relight([grey, orange], model)
    assert orange["type"] == "grove"


def test_a_colour_cast_seen_on_the_sure_dice_settles_a_die_between_two_close_hues():
    # third-hand dice seed 5 (crop examples): peach dice under a warm cast sat between peach and
    # orange ("unsure between"); the sure dice of other types show the same cast in their chroma
    model = _model()
    tide = model.die_mu[0]
    towards = model.die_mu[1] - tide
    towards[2] = 0.0  # a cast moves the chroma
    # the cast that puts a tide die as far from tide as from grove
    lo, hi = 0.0, 2.0
    for _ in range(40):
        mid = (lo + hi) / 2
        d2 = custom._colour_d2(model, tide + mid * towards)
        lo, hi = (mid, hi) if d2[0] < d2[1] else (lo, mid)
    cast = lo * towards
    die = _reading(model, tide + cast, [0.9, 0.9, 0.3])
    assert die["face"] is None and die["reason"].startswith("unsure between"), die
    greys = [_reading(model, model.die_mu[2] + cast + [0.0, d, 0.0], [0.3, 0.3, 0.9]) for d in (-0.01, 0.0, 0.01)]
    assert [(g["type"], g["face"]) for g in greys] == [("slate", "moon")] * 3
    custom._relight(greys + [die], model)
    assert (die["type"], die["face"]) == ("tide", "eye"), die
    assert [(g["type"], g["face"]) for g in greys] == [("slate", "moon")] * 3


def test_a_die_the_light_would_make_a_type_it_is_still_far_from_keeps_its_type():
    # other-hand seed 39 (photo examples), scene 021: a teal "tide" die in a spot of glare, washed
    # pale, 4.4 from tide as it is; with the sure dice's light taken out it was 22 from tide and
    # 18 from purple "grove", and was read as a grove die of its face
    model = _model()
    light = np.array([-0.5, 0.23, 0.0], np.float32)
    judges = []
    for d in (-0.01, 0.0, 0.01):
        g = _reading(model, model.die_mu[2] + light + [0.0, d, 0.0], [0.3, 0.3, 0.9])
        g.update(type="slate", face="moon")  # sure, as read in a picture of that light
        judges.append(g)
    die = _reading(model, [0.30, 0.33, 4.6], [0.9, 0.9, 0.3])
    assert (die["type"], die["face"]) == ("tide", "eye"), die
    relit = custom._colour_d2(model, die["_col"] - light)
    assert relit[1] < relit[0] and relit[1] > custom.RELIGHT_NEW_D2, relit  # nearer grove, but far from it
    custom._relight([die], model, judges=judges)
    assert (die["type"], die["face"]) == ("tide", "eye"), die
    # in a light that puts it near grove's colour it is read as grove
    near = _reading(model, model.die_mu[1] + light + [0.0, 0.0, 0.1], [0.9, 0.9, 0.3])
    custom._relight([near], model, judges=judges)
    assert near["type"] == "grove", near


def test_an_abstention_for_another_reason_stays_one():
    model = _model()
    greys = [_reading(model, [0.0, -0.02, 4.85 + d], [0.3, 0.3, 0.9]) for d in (-0.02, 0.0, 0.03)]
    faint = _reading(model, model.die_mu[0], [0.4, 0.2, 0.1])  # its symbol is like no face
    assert faint["face"] is None and "matches none" in faint["reason"]
    custom._relight(greys + [faint], model)
    assert faint["face"] is None


@pytest.mark.long
def test_a_search_reading_is_judged_in_the_pictures_light_before_it_must_be_plain(tmp_path):
    # bench/other_hand.py seed 1 (photo examples), scene 026: nine dice on a checked purple cloth.
    # The bone die with the skull at (171, 132) is found only by the square search, whose readings
    # count when plainly their face and type: in the scene's light it is 0.104 ahead of the tide
    # skull, as it is read it was 0.054 (the skulls of three types are alike, the colours told
    # it), so it was dropped
    import glob

    from bench import other_hand

    if not glob.glob(other_hand.PHOTOS):
        pytest.skip("the scene's table is a real photo of shared/datasets/dice-dev, not beside this clone")
    reader, scenes, truth = third_hand(tmp_path, 1, "dice", "photos", 27, hand="other_hand")
    assert sum(t["face"] == "skull" and t["type"] == "bone" for t in truth["026.png"]) == 2
    dice = reader.read(cv2.imread(str(scenes / "026.png")))["dice"]
    near = [(d["type"], d["face"]) for d in dice if math.hypot(d["x"] - 171, d["y"] - 132) < 20]
    assert near == [("bone", "skull")], dice



def _cast_model(faces: tuple[str, ...]):
    """Magenta, mint and violet dice with the colours learned for third-hand dice seed 25 (crop
    examples), every type with each of ``faces``."""
    types = ["magenta", "mint", "violet"]
    labels = [(t, f) for f in faces for t in types]
    die_mu = np.array([[0.43, -0.06, 4.76], [-0.11, 0.0, 5.19], [0.18, -0.31, 4.73]], np.float32)
    die_sd = np.array([[0.07, 0.08, 0.34], [0.09, 0.07, 0.29], [0.04, 0.06, 0.31]], np.float32)
    model = custom.SetModel("dice", "square", types, labels, die_mu, die_sd, die_mu, die_sd,
                            np.zeros((len(labels), 4), np.float32), np.arange(len(labels), dtype=np.int32))
    model.icon_floor = 0.5
    return model


def test_a_cast_that_turns_most_dice_into_another_type_is_told_by_the_others():
    # third-hand dice seed 25 (crop examples), scene 037: under a warm cast six violet dice looked
    # magenta (chroma 0.26, -0.18; magenta 0.43, -0.06; violet 0.18, -0.31) and were read so,
    # for sure; three mint dice showed the cast (0.04, 0.08 off their type). As the median shift
    # of the sure dice, the light was the violet dice's shift to magenta, and they stayed magenta.
    # The cast that explains all of them (each as any type of its face) is the mint dice's
    model = _cast_model(("w3", "dots5"))
    w3, dots5 = [0.9, 0.9, 0.9, 0.3, 0.3, 0.3], [0.3, 0.3, 0.3, 0.9, 0.9, 0.9]
    violets = [_reading(model, [0.26, -0.18 + d, 4.82], w3) for d in (-0.01, 0.0, 0.0, 0.01, 0.0, 0.01)]
    mints = [_reading(model, [-0.07, 0.08, 5.3 + d], dots5) for d in (0.0, 0.03, 0.05)]
    assert [v["type"] for v in violets] == ["magenta"] * 6
    assert [m["type"] for m in mints] == ["mint"] * 3
    custom._relight(violets + mints, model)
    assert [(v["type"], v["face"]) for v in violets] == [("violet", "w3")] * 6
    assert [(m["type"], m["face"]) for m in mints] == [("mint", "dots5")] * 3


def test_a_cast_is_not_swapped_when_the_median_explains_the_dice():
    # the same readings without the mint dice: magenta or violet under a cast, both explain them
    # alike; the median (no other type) stands
    model = _cast_model(("w3",))
    dice = [_reading(model, [0.26, -0.18 + d, 4.82], [0.9, 0.9, 0.9]) for d in (-0.01, 0.0, 0.01)]
    custom._relight(dice, model)
    assert [d["type"] for d in dice] == ["magenta"] * 3


def test_a_cast_that_only_one_die_tells_is_not_the_pictures():
    # fourth-hand dice seed 23 (crop examples), scene 009: seven green dice, and one reading off
    # green (a die's side with its shadow, read as a green blank). Green's shift to violet made that
    # one a purple blank (9 -> 3 from its types) and the others violet (0.1 -> 0.2): the cast won on
    # that one die's gain, and seven green dice were read as violet ones
    types = ["green", "purple", "tan", "violet"]
    labels = [(t, f) for f in ("blank", "flag", "heart3") for t in types]
    die_mu = np.array([[-0.36, 0.11, 4.54], [0.21, -0.21, 4.69], [0.08, 0.14, 5.04], [0.13, -0.15, 4.98]], np.float32)
    die_sd = np.array([[0.04, 0.03, 0.22], [0.03, 0.04, 0.22], [0.04, 0.04, 0.22], [0.02, 0.04, 0.22]], np.float32)
    model = custom.SetModel("dice", "square", types, labels, die_mu, die_sd, die_mu, die_sd,
                            np.zeros((len(labels), 4), np.float32), np.arange(len(labels), dtype=np.int32))
    model.icon_floor = 0.5
    flag = [0.1] * 4 + [0.62] * 4 + [0.3] * 4
    greens = [_reading(model, [-0.345 - d, 0.134, 4.64 + d], flag) for d in (-0.01, -0.005, 0.0, 0.0, 0.005, 0.01, 0.01)]
    side = _reading(model, [-0.234, 0.101, 4.031], [0.6] * 4 + [0.2] * 8)
    assert [(e["type"], e["face"]) for e in greens + [side]] == [("green", "flag")] * 7 + [("green", "blank")]
    custom._relight(greens + [side], model)
    assert [(e["type"], e["face"]) for e in greens] == [("green", "flag")] * 7


def _peach_model():
    """Lime, magenta, peach and violet dice with the colours learned for third-hand dice seed 28
    (photo examples), every type with the pentagon and the drop."""
    types = ["lime", "magenta", "peach", "violet"]
    labels = [(t, f) for f in ("pent", "drop") for t in types]
    die_mu = np.array([[-0.14, 0.31, 4.81], [0.42, -0.06, 4.83], [0.07, 0.10, 5.23], [0.20, -0.27, 4.66]], np.float32)
    die_sd = np.array([[0.10, 0.03, 0.34], [0.06, 0.07, 0.34], [0.09, 0.08, 0.32], [0.06, 0.08, 0.35]], np.float32)
    model = custom.SetModel("dice", "square", types, labels, die_mu, die_sd, die_mu, die_sd,
                            np.zeros((len(labels), 4), np.float32), np.arange(len(labels), dtype=np.int32))
    model.icon_floor = 0.5
    return model


def test_a_plain_face_of_a_plain_type_counts_though_its_face_is_on_every_type(monkeypatch):
    # third-hand dice seed 28 (photo examples), scene 036: a peach die on a pink table in dim pink
    # light, found only by the whole-picture searches. Its pentagon was 0.88-0.91 like the pentagon
    # of each type; in the picture's light its colour was 0.4-1.0 from peach and 6 or more from the
    # others, so it led the lime pentagon by only 0.09-0.1 and did not count (0.1 ahead of the next
    # class was asked). Ahead of every other face by far, it counts 0.05 ahead of its face on
    # another type; a smudge as little like a face as 0.67 still needs the whole 0.1.
    # (The others were 6 away as washed-out looks of their colours; since DESAT_EXPLAINED a colour
    # this near peach is not taken for another type washed out, and this die leads by 0.44. The
    # rule is tested here on the distances as they were.)
    monkeypatch.setattr(custom, "DESAT_EXPLAINED", 0.0)
    model = _peach_model()
    pent = [0.91, 0.90, 0.89, 0.90, 0.45, 0.45, 0.45, 0.45]
    col = [0.095, 0.091, 5.034]  # its colour in the picture's light
    die = _reading(model, col, pent)
    assert (die["type"], die["face"]) == ("peach", "pent")
    assert 0.05 <= die["_margin"] < 0.1 and die["_fmargin"] >= 0.1
    assert custom._plain(die)
    smudge = _reading(model, col, [0.69, 0.68, 0.67, 0.68, 0.3, 0.3, 0.3, 0.3])
    assert smudge["_margin"] < 0.1 and not custom._plain(smudge)
    # two faces alike: the pentagon barely ahead of the drop is no plain face, whatever the colour
    unsure = _reading(model, col, [0.91, 0.90, 0.89, 0.90, 0.85, 0.85, 0.84, 0.85])
    assert unsure["_fmargin"] < 0.1 and not custom._plain(unsure)
