"""Two die types of close colour (amber and yellow) overlap across the examples' pictures, but under
one light a picture's dice of each type lie together, as far apart as the types' colours: the
picture's dice of the two are told apart by the two groups they fall into (_pair_split)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import custom

from .conftest import read_near


@pytest.mark.long
def test_amber_dice_beside_a_yellow_one_are_read_as_amber(stand_in):
    # bench/fourth_hand.py seed 12, dice taught from whole photos, scene 21: two amber dice of
    # chroma a 0.10 (amber's examples 0.14, yellow's 0.06) in a light a little lighter than the
    # examples' were read as yellow, beside a yellow die of 0.03
    reader, scenes, truth = stand_in("fourth_hand", 12, "dice", "photos", 22)
    got = reader.read(cv2.imread(str(scenes / "021.png")))["dice"]
    # every die of the scene (the yellow one and two violet ones too) read as it is
    assert [read_near(got, t) for t in truth["021.png"]] == [[(t["type"], t["face"])] for t in truth["021.png"]]


def _model() -> custom.SetModel:
    # the colours (chroma a, chroma b, log lightness) learned from fourth-hand seed 12's photos
    types = ["amber", "yellow", "violet"]
    labels = [(t, f) for t in types for f in ("blank", "moon3")]
    mu = np.array([[0.145, 0.364, 4.903], [0.057, 0.335, 5.050], [0.124, -0.150, 5.026]], np.float32)
    sd = np.array([[0.04, 0.025, 0.22], [0.042, 0.025, 0.22], [0.03, 0.03, 0.2]], np.float32)
    return custom.SetModel("dice", "square", types, labels, mu, sd, mu, sd,
                           np.zeros((0, 8), np.float32), np.zeros(0, np.int32), icon_floor=0.3, margin_min=0.005)


def _die(model, face, a, b=0.355, lightness=5.16):
    icons = np.array([0.85 if f == face else 0.3 for _, f in model.labels], np.float32)
    e = {"_icons": icons, "_col": np.array([a, b, lightness], np.float32), "_energy": 1.0, "_ink": None}
    custom._set_decision(e, custom._redecide(model, e), model)
    return e


def test_a_picture_s_dice_of_two_close_types_are_split_into_the_two():
    m = _model()
    # as they are, the two amber dice are nearer yellow (and so read)
    dice = [_die(m, "moon3", 0.034, 0.325, 5.25), _die(m, "blank", 0.09), _die(m, "moon3", 0.095)]
    assert [e["type"] for e in dice] == ["yellow", "yellow", "yellow"]
    custom._pair_split(dice, m)
    assert [(e["type"], e["face"]) for e in dice] == [("yellow", "moon3"), ("amber", "blank"), ("amber", "moon3")]


def test_dice_of_one_type_are_not_split():
    m = _model()
    # one group (all read as yellow): whatever light it is in, nothing in it tells two types apart
    dice = [_die(m, "moon3", 0.085), _die(m, "blank", 0.09), _die(m, "moon3", 0.095)]
    assert {e["type"] for e in dice} == {"yellow"}
    custom._pair_split(dice, m)
    assert {e["type"] for e in dice} == {"yellow"}
    # two groups half as far apart as amber and yellow (a yellow die and two a little beyond it):
    # not the two types under one light, and the first is not made amber
    dice = [_die(m, "moon3", 0.057), _die(m, "blank", -0.01), _die(m, "moon3", -0.012)]
    assert {e["type"] for e in dice} == {"yellow"}
    custom._pair_split(dice, m)
    assert {e["type"] for e in dice} == {"yellow"}


def test_types_apart_in_lightness_only_are_not_split():
    # white and grey differ in lightness, which light and shadow move as much: two dice read as grey
    # (or white ones in dim light) and one darker (a grey one, or a white one in a shadow) stay grey
    types = ["white", "grey"]
    labels = [(t, f) for t in types for f in ("blank", "moon3")]
    mu = np.array([[0.0, 0.0, 5.3], [0.0, 0.0, 4.8]], np.float32)
    sd = np.array([[0.03, 0.03, 0.2], [0.03, 0.03, 0.2]], np.float32)
    m = custom.SetModel("dice", "square", types, labels, mu, sd, mu, sd,
                        np.zeros((0, 8), np.float32), np.zeros(0, np.int32))
    dice = [_die(m, "moon3", 0.0, 0.0, 5.0), _die(m, "blank", 0.0, 0.0, 5.02), _die(m, "moon3", 0.0, 0.0, 4.5)]
    assert {e["type"] for e in dice} == {"grey"}
    custom._pair_split(dice, m)
    assert {e["type"] for e in dice} == {"grey"}
