"""A bare die-shaped patch is reported as "seen, not read" only when it stands out from the table."""

from __future__ import annotations

import cv2
import numpy as np

from vision import custom


def _granite(rng: np.random.Generator, h: int = 240, w: int = 320) -> np.ndarray:
    """A grey table flecked with dark and light grains, as fourth-hand seed 3's granite."""
    img = np.full((h, w, 3), 128, np.float32) + rng.normal(0, 6, (h, w, 1))
    grains = rng.random((h, w))
    img[grains < 0.08] = 40
    img[grains > 0.95] = 215
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    return np.clip(img, 0, 255).astype(np.uint8)


def _square(cx: int, cy: int, side: int, angle: float = 20.0) -> np.ndarray:
    box = cv2.boxPoints(((cx, cy), (side, side), angle))
    return box.round().astype(np.int32).reshape(-1, 1, 2)


def test_a_patch_of_the_table_does_not_stand_out():
    rng = np.random.default_rng(3)
    img = _granite(rng)
    for cx, cy in ((80, 80), (200, 120), (160, 170)):
        assert not custom._stands_out(img, _square(cx, cy, 50))


def test_a_bare_die_stands_out():
    rng = np.random.default_rng(4)
    img = _granite(rng)
    # an ivory die and a grey die a little lighter than the table, both without a symbol
    for colour, (cx, cy) in (((225, 235, 238), (80, 80)), ((165, 165, 165), (220, 150))):
        cnt = _square(cx, cy, 50)
        cv2.drawContours(img, [cnt], -1, colour, -1)
        noisy = img.astype(np.float32) + rng.normal(0, 4, img.shape)
        assert custom._stands_out(np.clip(noisy, 0, 255).astype(np.uint8), cnt)


def test_too_small_to_judge_counts_as_standing_out():
    img = np.full((40, 40, 3), 128, np.uint8)
    assert custom._stands_out(img, _square(20, 20, 4))
