"""The batched descriptor (filters on the patches as channels, blur and pooling as matrix products)
gives the numbers of the plain one-patch-at-a-time recipe, and a batch's order does not matter."""

import math

import cv2
import numpy as np
import pytest

from vision import custom, render


def _plain(patch: np.ndarray, shape: str) -> np.ndarray:
    """The recipe as it reads, one OpenCV call per channel (what descriptors() replaced)."""
    g = cv2.GaussianBlur(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), custom.PRE_BLUR)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    gm = np.sqrt(gx * gx + gy * gy)
    hp = g - cv2.GaussianBlur(g, (0, 0), patch.shape[0] / custom.HP_DIV[shape])
    idx = np.flatnonzero(custom._inner_mask(shape))
    orient = shape == "square"
    chans = [(gm, custom.GM_W if orient else 1.0), (np.abs(hp), 1.0)]
    if orient:
        ang2 = 2.0 * np.arctan2(gy, gx)
        for k in range(4):
            t = 2.0 * math.pi * k / 4
            w_k = np.maximum(0.0, np.cos(ang2) * math.cos(t) + np.sin(ang2) * math.sin(t)) ** 2
            chans.append((gm * w_k.astype(np.float32), custom.ORIENT_W))
    parts = []
    for ch, wgt in chans:
        c = cv2.resize(cv2.GaussianBlur(ch, (0, 0), custom.CH_BLUR), (custom.DSIDE, custom.DSIDE),
                       interpolation=cv2.INTER_AREA).ravel()[idx]
        c = c - c.mean()
        parts.append(wgt * c / (np.linalg.norm(c) + 1e-6))
    v = np.concatenate(parts)
    return v / (np.linalg.norm(v) + 1e-6)


def _patches(shape: str) -> list[np.ndarray]:
    side = custom._patch_side(shape)
    rng = np.random.default_rng(7)
    out = []
    for face in ("sun", "key", "wave"):
        icon = cv2.resize(render.icon_mask(face, "glyph"), (side // 2, side // 2), interpolation=cv2.INTER_AREA)
        p = np.full((side, side, 3), rng.integers(30, 200, 3), np.float32)
        o = side // 4
        p[o:o + side // 2, o:o + side // 2] += (icon[..., None] / 255.0) * 120
        p += rng.normal(0, 6, p.shape)  # texture, so that every channel has something in it
        out.append(np.clip(p, 0, 255).astype(np.uint8))
    return out


@pytest.mark.parametrize("shape", ["square", "round"])
def test_the_batched_descriptor_gives_the_plain_recipes_numbers(shape):
    pats = _patches(shape)
    rots = custom._rotations(pats[0], shape) + pats[1:]
    got = custom.descriptors(rots, shape)
    want = np.stack([_plain(p, shape) for p in rots])
    assert got.shape == want.shape
    assert float(np.abs(got - want).max()) < 1e-5


def test_a_batch_gives_each_patch_its_own_descriptor():
    pats = _patches("square")
    together = custom.descriptors(pats, "square")
    reversed_ = custom.descriptors(pats[::-1], "square")[::-1]
    alone = np.stack([custom.descriptor(p, "square") for p in pats])
    assert np.allclose(together, alone, atol=1e-6) and np.allclose(reversed_, alone, atol=1e-6)
    assert float(together[0] @ together[1]) < 0.95  # different faces are different vectors
