"""The pip reader keeps a few tests in two forms: one pair at a time (read as the rule) and many
pairs at once (numpy, for speed). These tests hold the two forms to the same answers, so that
changing one alone fails here."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest
from synth_pips import random_scene, render

from vision import pips as P


def _pips_of(img: np.ndarray) -> list:
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    return P._all_pips(gray)[0]


def _pairs_near(pips: list, reach: float = 8.0):
    return [(i, j) for i, j in itertools.combinations(range(len(pips)), 2)
            if P._dist(pips[i], pips[j]) < reach * max(pips[i].a, pips[j].a)]


def test_similar_pairs_answers_as_similar(sample_images):
    """_similar_pairs (all pairs at once) == _similar (tol 1) on every near pair of pips of
    dev photos and of crowded synthetic trays (colours, translucent dice, a low camera)."""
    images = [cv2.imread(str(p)) for p in sample_images[:6]]
    images += [render(random_scene(s, n=25, size=(22.0, 40.0), background="grey", translucent=0.3), s)[0]
               for s in range(2)]
    images += [render(random_scene(s, tilt=0.75), s)[0] for s in range(2)]
    checked = differ = 0
    for img in images:
        pips = _pips_of(img)
        pairs = _pairs_near(pips)
        if not pairs:
            continue
        ii = np.array([i for i, _j in pairs])
        jj = np.array([j for _i, j in pairs])
        d = np.array([P._dist(pips[i], pips[j]) for i, j in pairs])
        batch = P._similar_pairs(pips)(ii, jj, d).tolist()
        single = [P._similar(pips[i], pips[j]) for i, j in pairs]
        checked += len(pairs)
        differ += sum(a != b for a, b in zip(batch, single, strict=True))
    assert checked > 500 and differ == 0, (checked, differ)


@pytest.mark.parametrize("shape, density", [((120, 160), 0.3), ((480, 640), 0.05), ((700, 1400), 0.5)])
def test_mask_blobs_are_opencvs_components(shape, density):
    """_mask_blobs gives the stats and centroids of cv2.connectedComponentsWithStats (less the
    background's row) and each blob's pixels in raster order, whether its pixels are grouped by
    one 32-bit key (the first and last masks here: label and position take 25 and 32 bits) or by
    a stable argsort of the labels (the second: 12,485 blobs in 307,200 pixels, 33 bits)."""
    from vision.pips import _mask_blobs

    rng = np.random.default_rng(1)
    mask = (rng.random(shape) < density).astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    st, ce, (xs, ys, first) = _mask_blobs(mask)
    assert np.array_equal(st, stats[1:])
    assert np.allclose(ce, cents[1:])
    for k in (0, n // 2, n - 2):
        y, x = np.nonzero(labels == k + 1)  # (raster order)
        a = st[k, 4]
        assert np.array_equal(xs[first[k]:first[k] + a], x) and np.array_equal(ys[first[k]:first[k] + a], y)
