"""A die's ink, light or dark on its body, as a second cue to its type (ink_polarity).

Of two die types of close colour one may print its symbols white and the other black: fourth-hand
seed 13's red dice (white) and coral ones (black); other-hand's white "bone" dice (black print)
and its purple and teal ones (white print), all showing a skull. The symbol descriptor is blind to
which (an embossed symbol has a lit and a shaded side), so a die whose colour drifted to the
other type's in the picture's light was read as that type."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import custom

from .conftest import reads_of

P = custom.PATCH_SQUARE


def _patch(body, ink=None, emboss: bool = False) -> np.ndarray:
    p = np.zeros((P, P, 3), np.uint8)
    p[:] = body
    pts = np.array([[P // 2, 14], [P - 16, P - 16], [16, P - 16]], np.int32)  # a triangle in the middle
    if emboss:  # lit on one side, shaded on the other, the body's colour inside
        cv2.polylines(p, [pts - 1], True, tuple(min(255, c + 70) for c in body), 2)
        cv2.polylines(p, [pts + 1], True, tuple(max(0, c - 70) for c in body), 2)
    elif ink is not None:
        cv2.fillPoly(p, [pts], ink)
    rng = np.random.default_rng(0)
    return np.clip(p.astype(np.int16) + rng.integers(-4, 5, p.shape), 0, 255).astype(np.uint8)


def test_ink_polarity_tells_light_print_from_dark():
    assert custom.ink_polarity(_patch((200, 210, 230), (20, 20, 20)), "square") < -0.9  # black on cream
    assert custom.ink_polarity(_patch((60, 40, 150), (240, 240, 240)), "square") > 0.9   # white on red
    assert custom.ink_polarity(_patch((60, 40, 150), (80, 200, 230)), "square") > 0.9    # yellow on red
    assert custom.ink_polarity(_patch((60, 40, 150)), "square") == 0.0                   # a bare face
    assert abs(custom.ink_polarity(_patch((120, 120, 120), emboss=True), "square")) < 0.5  # embossed


def test_a_class_has_an_ink_only_when_its_examples_agree():
    labels = [("red", "a"), ("red", "b"), ("grey", "a"), ("grey", "b")]
    inks = [1.0, 0.95, 1.0,    1.0, 0.9, -0.2,    -1.0, -1.0, -0.85,    0.1, -0.6, 0.7]
    cls = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert custom._class_inks(labels, inks, cls).tolist() == [1.0, 0.0, -1.0, 0.0]


def _model(cls_ink) -> custom.SetModel:
    mu = np.array([[0.30, 0.20, 4.5], [0.26, 0.20, 4.6]], np.float32)  # red and coral: close colours
    sd = np.full((2, 3), 0.02, np.float32)
    return custom.SetModel("dice", "square", ["coral", "red"], [("coral", "shield"), ("red", "shield")],
                           mu, sd, mu, sd, np.zeros((2, 4), np.float32), np.array([0, 1], np.int32),
                           icon_floor=0.4, cls_ink=cls_ink)


def test_a_die_of_the_other_ink_is_not_taken_for_a_type_of_close_colour():
    icon = np.array([0.75, 0.75], np.float32)         # one symbol on both types
    d2 = np.array([1.4, 8.9], np.float32)              # the picture's light drew a red die near coral
    inks = np.array([-1.0, 1.0], np.float32)           # coral prints black, red white
    assert custom._decide(_model(None), icon, d2, 1.0)["type"] == "coral"
    assert custom._decide(_model(inks), icon, d2, 1.0, ink=1.0)["type"] == "red"      # white print: red
    assert custom._decide(_model(inks), icon, d2, 1.0, ink=-1.0)["type"] == "coral"
    assert custom._decide(_model(inks), icon, d2, 1.0, ink=0.2)["type"] == "coral"    # unclear: colour says
    assert custom._decide(_model(inks), icon, d2, 1.0, ink=None)["type"] == "coral"


@pytest.mark.long
def test_stand_in_dice_of_the_other_ink_read_as_their_type(stand_in):
    # other-hand seed 33, photos: scene 1's teal die with a white skull read as a bone (white) die
    # with a black skull before
    reader, scenes, truth = stand_in("other_hand", 33, "dice", "photos", 2)
    assert reader.model.cls_ink is not None
    types = reader.model.types
    ink = {t: {float(reader.model.cls_ink[c]) for c, (t2, _) in enumerate(reader.model.labels) if t2 == t}
           for t in types}
    assert ink["bone"] == {-1.0} and ink["tide"] == {1.0}, ink
    got = reads_of(reader, scenes, truth, ["001.png"], ("tide", "skull"))
    assert got, "no tide skull in scene 1"
    for name, t, near in got:
        assert near == [("tide", "skull")], (name, t, near)
