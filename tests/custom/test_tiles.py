"""A square of a checkered cloth is not a die: vision.custom._tile."""

from __future__ import annotations

import cv2
import numpy as np

from vision import custom
from vision.custom import _body_colour, _centroid, _tile, _untiled, colour_features

SIDE = 30


def _checkered(h: int = 300, w: int = 400) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w]
    return np.where(((xx // SIDE) + (yy // SIDE)) % 2 == 0, 170, 60).astype(np.uint8)


def _square(x: int, y: int, side: int = SIDE) -> np.ndarray:
    return np.array([[[x, y]], [[x + side, y]], [[x + side, y + side]], [[x, y + side]]], np.int32)


def _die(gray: np.ndarray, x: int, y: int) -> None:
    cv2.rectangle(gray, (x, y), (x + SIDE, y + SIDE), 200, -1)
    cv2.line(gray, (x + 8, y + 8), (x + SIDE - 8, y + SIDE - 8), 40, 3)   # its symbol: a cross
    cv2.line(gray, (x + SIDE - 8, y + 8), (x + 8, y + SIDE - 8), 40, 3)


def test_a_square_of_the_cloth_is_a_tile():
    gray = _checkered()
    assert _tile(gray, _square(180, 120), [])


def test_a_die_on_the_cloth_is_not():
    gray = _checkered()
    _die(gray, 195, 135)  # half a square off the cloth's grid
    assert not _tile(gray, _square(195, 135), [])


def test_two_dice_alike_side_by_side_are_not_tiles():
    # on a plain table, a die's twin beside it is its only copy: a tile has copies all around
    gray = np.full((300, 400), 110, np.uint8)
    _die(gray, 150, 130)
    _die(gray, 200, 130)
    assert not _tile(gray, _square(150, 130), [])
    # the twin read as a die is not a copy either, whatever else lies around
    gray = _checkered()
    _die(gray, 195, 135)
    _die(gray, 255, 135)
    assert not _tile(gray, _square(195, 135), [(255 + SIDE / 2, 135 + SIDE / 2)])


def test_a_plain_patch_is_not_judged():
    gray = np.full((300, 400), 110, np.uint8)
    assert not _tile(gray, _square(180, 120), [])


def test_a_token_the_grey_of_a_dotted_cloth_is_told_by_its_colour():
    # a red token on a purple cloth dotted grey: in grey it is about the cloth's grey, and the
    # patch around it is the dots, which repeat; in colour it is one of a kind
    img = np.zeros((300, 400, 3), np.uint8)
    img[:] = (130, 50, 110)  # purple (BGR)
    for y in range(10, 300, 24):
        for x in range(10, 400, 24):
            cv2.circle(img, (x, y), 4, (150, 150, 150), -1)
    cv2.circle(img, (200, 150), 15, (40, 40, 170), -1)  # the token
    cv2.circle(img, (200, 150), 4, (235, 235, 235), -1)  # its small symbol
    outline = cv2.ellipse2Poly((200, 150), (15, 15), 0, 0, 360, 10).reshape(-1, 1, 2)
    assert _tile(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), outline, [])
    assert not _tile(img, outline, [])
    # a square of a checkered cloth is a tile in colour too
    cloth = cv2.cvtColor(_checkered(), cv2.COLOR_GRAY2BGR)
    cloth[_checkered() > 100] = (60, 160, 90)
    assert _tile(cloth, _square(180, 120), [])


def test_light_squares_of_a_gingham_are_tiles_two_squares_apart():
    # a gingham's light squares repeat every second square; outlined a little inside a square
    # (its edges blurred), they are 2.9 outline sides apart: beyond the reach at which dice are
    # read, within the reach at which examples are learned
    yy, xx = np.mgrid[0:400, 0:500]
    gray = (60 + 50 * ((xx // SIDE) % 2) + 50 * ((yy // SIDE) % 2)).astype(np.uint8)
    light = _square(7 * SIDE + 4, 5 * SIDE + 4, SIDE - 9)  # x and y squares odd: the light ones
    assert not _tile(gray, light, [])
    assert _tile(gray, light, [], example=True)


def test_a_die_taught_on_a_checkered_cloth_stays_among_its_pictures_candidates():
    # one die on a cloth whose squares are its size and about its colour: the squares are
    # dropped from the candidates for the die (dozens of them crowded it out, or were taken for it)
    gray = _checkered(360, 480)
    _die(gray, 195, 135)
    img = cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
    img += np.random.default_rng(1).integers(0, 6, img.shape, dtype=np.uint8)  # a cloth's weave
    outlines = [_square(x, y) for y in range(0, 360, SIDE) for x in range(0, 480, SIDE)
                if (x // SIDE + y // SIDE) % 2 == 0]
    outlines.append(_square(195, 135))
    feat = colour_features(img)

    def candidate(c):
        (cx, cy), r = cv2.minEnclosingCircle(c)
        return c, _body_colour(img, c, feat), 0.9, (cx, cy, r)

    kept = [_centroid(c) for c, *_ in _untiled(img, [candidate(c) for c in outlines])]
    assert (210, 150) in kept  # the die's centre
    # the rest are the two squares the die lies on (their patches hold part of it)
    assert sorted(kept) == [(195, 135), (210, 150), (225, 165)]


def _faint_die_on_a_slope(x: int, y: int) -> np.ndarray:
    # a table lit from one side (its grey rises 0.7 a pixel across the picture) and an embossed die
    # barely lighter than it, its symbol a ring barely darker (other-hand dice-photos-42 scene 23)
    gray = np.tile(10 + 0.7 * np.arange(400, dtype=np.float32), (300, 1))
    gray[y:y + SIDE, x:x + SIDE] += 5
    ring = np.zeros(gray.shape, np.uint8)
    cv2.circle(ring, (x + SIDE // 2, y + SIDE // 2), 8, 1, 2)
    gray[ring > 0] -= 5
    return gray.astype(np.uint8)


def test_a_faint_die_where_the_light_falls_off_is_not_a_tile(monkeypatch):
    # its patch is mostly the slope of the light, which goes on a die's width along it: the slope
    # is no pattern of the table (TILE_FLAT leaves it out)
    gray = _faint_die_on_a_slope(150, 135)
    assert not _tile(gray, _square(150, 135), [])
    monkeypatch.setattr(custom, "TILE_FLAT", 0.0)
    assert _tile(gray, _square(150, 135), [])
