"""Whole-photo examples: what is learned is the token framed as in a close-up (compared with the
patch cut at its true place), not the whole photo when a busy table hides it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import custom, render

UNSHIFTED = 13  # index of the plain patch among an example's shifted and scaled copies (_augment)
CHECKERBOARD = 6  # the example whose token lies small on a busy table (its pieces take other colours)
SUN_BY_A_DISC = 4  # the example whose token touches a bigger disc of its colour (see below)


def _truth_outline(t: dict) -> np.ndarray:
    """The true token outline: the ellipse of its rendered size (upright: rotation does not matter)."""
    pts = cv2.ellipse2Poly((int(round(t["x"])), int(round(t["y"]))),
                           (int(round(t["w"] / 2)), int(round(t["h"] / 2))), 0, 0, 360, 5)
    return pts.reshape(-1, 1, 2).astype(np.int32)


@pytest.fixture(scope="module")
def learned():
    """The held-out token set taught from 5 whole table photos per face (the bench's seed 2026)."""
    rng = np.random.default_rng(2026)
    spec = render.ALT_TOKENS
    examples, truths = [], []
    for typ, (_, faces) in spec["types"].items():
        for face in faces:
            for _ in range(5):
                img, truth = render.render_scene(rng, set_spec=spec, style="glyph", items=[(typ, face)], hard=True)
                examples.append(custom.Example(typ, face, img))
                truths.append(truth[0])
    model, _ = custom.learn(examples, "tokens")
    return model, examples, truths


def test_photo_examples_learn_the_token_framed_as_in_a_close_up(learned):
    model, examples, truths = learned
    assert model.info["examples"] == len(examples)
    # the sun on a lilac table beside a bigger disc of its colour, joined to it by a line (example
    # 4), is not found again in the photo since the colour model is no longer widened by table
    # pixels: it is ignored with a warning (it looks unlike the other suns), not learned wrong
    ignored = [k for k in range(len(examples)) if not np.any(model.desc_src == k)]
    assert ignored == [SUN_BY_A_DISC], ignored
    sims = []
    for k, (e, t) in enumerate(zip(examples, truths, strict=True)):
        if k in ignored:
            sims.append(1.0)
            continue
        want = custom.canonical_patch(e.image, _truth_outline(t), model.shape)
        q = np.stack([custom.descriptor(p, model.shape) for p in custom._rotations(want, model.shape)])
        row = np.flatnonzero(model.desc_src == k)[UNSHIFTED]
        sims.append(float((q @ model.desc[row]).max()))
    # a token lost on a busy table (example 6, the tree on a white busy table) was learned as the
    # whole photo: 0.46 once; found by its colour: 0.99, now 0.59 (its shadow is taken in, the
    # colour model being learned from the token and not the table). All: at least 0.58
    assert sims[CHECKERBOARD] > 0.55, sims[CHECKERBOARD]
    assert min(sims) > 0.5, [f"{k}: {s:.2f}" for k, s in enumerate(sims) if s <= 0.5]
    # most are framed as the true cut (median 0.93; 0.92 before)
    assert np.median(sims) > 0.9, np.median(sims)


def test_colour_support_sums_each_pictures_best_likeness():
    """The type's colour is the candidate colour with the most support: over the pictures, the best
    of (colour likeness x shape quality) among each picture's candidates."""
    grey = np.zeros(3, np.float32)
    near = custom.CONSENSUS_SCALE * np.array([1, 0, 0], np.float32)   # one scale away: likeness e^-0.5
    far = custom.CONSENSUS_SCALE * np.array([0, 0, 3], np.float32)    # three scales away: e^-4.5
    allc = [(0, (None, grey, 1.0)), (0, (None, near, 0.5)), (3, (None, near, 1.0)), (3, (None, far, 1.0))]
    sup = custom._colour_support(allc)
    e = np.exp
    want = [1.0 + e(-0.5),                                  # grey: itself in 0, near in 3
            max(e(-0.5), 0.5) + 1.0,                        # near: grey in 0, itself in 3
            max(e(-0.5), 0.5) + 1.0,
            max(e(-4.5), 0.5 * e(-0.5 * 10)) + 1.0]         # far: grey in 0, itself in 3
    np.testing.assert_allclose(sup, want, rtol=1e-5)


def test_photo_examples_learn_the_token_colour_not_the_table(learned):
    """The detector's view of a close-up may be the table around the token (the first colour
    guess is still wide); the colour-blind outline that agreed with the other pictures is taken
    then. Before, a third of the pictures gave table pixels: the pixel colour model was about
    twice as wide as from tight crops (0.055, 0.06, 0.35 capped; now 0.041, 0.049, 0.28) and it
    matched the blue checked cloth of the bench's scene 55 (seed 2026), whose two tokens were missed."""
    model, _, _ = learned
    assert np.all(model.pix_sd[0] < [0.048, 0.054, 0.32]), model.pix_sd
    rng = np.random.default_rng(2026 + 1000)
    for _ in range(56):
        img, truth = render.render_scene(rng, set_spec=render.ALT_TOKENS, style="glyph")
    got = sorted(e["face"] for e in custom.read(img, model) if e["face"] is not None)
    assert got == sorted(t["face"] for t in truth) == ["crown", "sun"], got
