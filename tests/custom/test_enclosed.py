"""Outlines closed by edges alone (dice the colour of the table): vision.custom._enclosed."""

from __future__ import annotations

import cv2
import numpy as np

from vision.custom import _enclosed


def _areas(comps) -> list[float]:
    return sorted(c["area"] for c in comps)


def test_a_die_inside_a_disc_is_a_region_of_its_own():
    cut = np.zeros((200, 200), np.uint8)
    cv2.circle(cut, (100, 100), 80, 255, 3)           # a disc on the table
    cv2.rectangle(cut, (70, 70), (130, 130), 255, 3)  # a die lying on it
    areas = _areas(_enclosed(cut, 500, False))
    assert any(0.85 * 60 * 60 <= a <= 1.1 * 60 * 60 for a in areas), areas
    assert any(a > 0.9 * np.pi * 80 ** 2 for a in areas), areas  # the disc, its hole filled


def test_a_symbol_touching_the_outline_gives_the_hull():
    cut = np.zeros((200, 200), np.uint8)
    cv2.rectangle(cut, (70, 70), (130, 130), 255, 3)
    cv2.circle(cut, (90, 100), 18, 255, 3)            # the symbol's edge meets the die's outline
    comps = [c for c in _enclosed(cut, 500, False) if not c["touching"]]
    notched = [c for c in comps if c["solidity"] < 0.82]
    hulls = [c for c in comps if c["solidity"] > 0.95 and 0.85 * 60 * 60 <= c["area"] <= 1.1 * 60 * 60]
    assert notched and hulls, [(c["area"], c["solidity"]) for c in comps]
