"""The pip reader keeps a few tests in two forms: one pair at a time (read as the rule) and many
pairs at once (numpy, for speed). These tests hold the two forms to the same answers, so that
changing one alone fails here."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
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
