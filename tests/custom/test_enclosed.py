"""Outlines closed by edges alone (dice the colour of the table): vision.custom._enclosed."""

from __future__ import annotations

import cv2
import numpy as np

from vision.custom import SetModel, _enclosed, _filled_outlines, colour_features, edge_map


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


def _one_colour_model(bgr) -> SetModel:
    col = colour_features(np.full((4, 4, 3), bgr, np.uint8)).reshape(-1, 3)[0]
    sd = np.array([0.03, 0.03, 0.2], np.float32)
    return SetModel("dice", "square", ["x"], [("x", "f")], col[None], sd[None], col[None], sd[None],
                    np.zeros((0, 1), np.float32), np.zeros(0, np.int32))


def test_a_die_cut_in_pieces_by_its_symbol_is_found_whole():
    """A die the colour of the table whose symbol's edges run into its outline (splitting its face
    into pieces smaller than a die) and a line that touches it: the filled outline finds it."""
    body = (150, 90, 60)
    img = np.full((240, 320, 3), body, np.uint8)
    cv2.rectangle(img, (100, 80), (160, 140), (60, 35, 25), 2)     # the die's outline
    cv2.line(img, (100, 110), (160, 110), (60, 35, 25), 2)         # the symbol, edge to edge
    cv2.line(img, (130, 80), (130, 140), (60, 35, 25), 2)
    cv2.line(img, (160, 140), (319, 239), (60, 35, 25), 2)         # a line on the table touching it
    model = _one_colour_model(body)
    feat = colour_features(cv2.GaussianBlur(img, (0, 0), 1.2))
    cuts = [edge_map(img, 90)]
    med = 60.0 * 60.0
    pieces = [c for c in _enclosed(cuts[0], 0.5 * med, False) if not c["touching"]]
    assert not any(0.6 * med <= c["area"] <= 1.6 * med for c in pieces)  # every piece is small
    found = _filled_outlines(img, model, feat, cuts, med, 100.0, False)
    centres = [cv2.minEnclosingCircle(f[1])[0] for f in found]
    assert any(abs(x - 130) < 6 and abs(y - 110) < 6 for x, y in centres), centres


def test_a_die_outline_open_on_one_side_is_closed_by_its_hull():
    """One side of the die lit like the table leaves no edge there: the hull of the other three
    sides (and the symbol) is the die."""
    body = (150, 90, 60)
    img = np.full((240, 320, 3), body, np.uint8)
    dark = (60, 35, 25)
    cv2.line(img, (100, 80), (100, 140), dark, 2)   # left, bottom and right sides; no top
    cv2.line(img, (100, 140), (160, 140), dark, 2)
    cv2.line(img, (160, 140), (160, 80), dark, 2)
    cv2.circle(img, (130, 110), 12, dark, -1)        # the symbol
    model = _one_colour_model(body)
    feat = colour_features(cv2.GaussianBlur(img, (0, 0), 1.2))
    cuts = [edge_map(img, 90)]
    found = _filled_outlines(img, model, feat, cuts, 60.0 * 60.0, 100.0, False)
    hits = [f for f in found if abs(cv2.minEnclosingCircle(f[1])[0][0] - 130) < 6
            and abs(cv2.minEnclosingCircle(f[1])[0][1] - 110) < 6]
    assert hits and all(0.8 * 3600 <= cv2.contourArea(f[1]) <= 1.3 * 3600 for f in hits), \
        [(cv2.minEnclosingCircle(f[1]), cv2.contourArea(f[1])) for f in found]


def test_a_small_die_bitten_deep_by_its_symbol_still_gives_the_hull():
    # a die about 32 px across whose embossed symbol meets its outline: the region its edges
    # leave is a C less than the smallest die area, while its hull is a whole die face
    cut = np.zeros((120, 120), np.uint8)
    cv2.rectangle(cut, (44, 44), (76, 76), 255, 2)
    cv2.rectangle(cut, (52, 50), (77, 70), 255, -1)   # the symbol, run into the right side
    min_area = 700.0
    notched = [c for c in _enclosed(cut, 10, False) if not c["touching"] and c["solidity"] < 0.82]
    assert notched and max(c["area"] for c in notched) < 0.7 * min_area, _areas(notched)
    comps = [c for c in _enclosed(cut, min_area, False, bitten=True) if not c["touching"]]
    assert any(c["solidity"] > 0.95 and min_area <= c["area"] <= 34 ** 2 for c in comps), _areas(comps)
