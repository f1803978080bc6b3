#!/usr/bin/env python3
"""A fourth, independent renderer of synthetic custom dice and bag tokens.

Written without reading vision/ or the other hands: it only shares the output
contract (folder layout, set.toml, truth.json) with them.  Its pictures are
ray-marched rather than drawn as flat squares:

* dice are true rounded cubes (signed-distance ray marching, 3x3 supersampled
  on silhouette pixels), seen through a pinhole camera (30-52 degree field of
  view) tilted 0-25 degrees, so side faces show (with the neighbouring faces'
  icons on them), rounded corners of varying radius, a slight 3-D wobble,
  matte / satin / glossy plastic (glossy: a soft-edged softbox glint that can
  cover part of a top face when the lamp's mirror point falls on the die),
  solid, marbled or pearl bodies;
* tokens are thick cardboard discs with a printed face (per-symbol or shared
  background colour, rays / dots / rings / halftone pattern, thin or thick rim)
  and a visible cut edge;
* icons are this hand's own vocabulary: polygon silhouettes (house, crown,
  fish, leaf, hammer, key, anchor, bell, castle, ...), line drawings, counts of
  1-3 copies, 2-3 shape combos, small-vs-large and outline-vs-filled pairs,
  blank faces and (rarely) a Hershey glyph; icon ink is white, black, gold, a
  contrasting colour or an engraved darker shade of the body;
* tables are synthesised in table coordinates and warped by the camera
  homography: woven cloth, cork, slate, granite, planked wood with knots, a
  printed playmat with shapes and text strokes, a dice tray with walls and
  cast shadows, plain paper, or a table the colour of a die;
* light is a point lamp (warm, neutral or cool) with soft cast and contact
  shadows, then exposure gradients, vignette, window patches, defocus or motion
  blur, barrel distortion, sensor noise and JPEG round trips.

Command line::

    python fourth_hand.py OUT --seed S --kind dice|tokens --examples crops|photos --scenes 40

writes OUT/set/set.toml, OUT/set/examples/<type>/<face>/01..05.png,
OUT/scenes/NNN.png and OUT/scenes/truth.json where each truth entry gives
x, y = the centre of the object's top face and w, h = the bounding box of the
whole object silhouette, in pixels.  Crop examples are rendered as a window of
a full-size camera (so their perspective matches somewhere in a real picture),
then rotated and cropped; photo examples are whole pictures with one object.
Everything comes from numpy.random.default_rng(seed) (same seed, same files);
only numpy and cv2 are used.  A set takes roughly 20-50 s on one core.
"""

from __future__ import annotations

import argparse
import json
import math
import os

import cv2
import numpy as np

SIZES = ((800, 600), (1024, 768), (960, 720), (1280, 720))
TEX = 256  # texture resolution of one face
SHIFT = 4
ONE = float(1 << SHIFT)


# ----------------------------------------------------------------------------- icon geometry
def circ(cx, cy, r, n=56, a0=0.0, a1=2 * math.pi):
    full = abs(a1 - a0 - 2 * math.pi) < 1e-9
    t = np.linspace(a0, a1, n, endpoint=not full)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], 1)


def ell(cx, cy, rx, ry, n=56, a0=0.0, a1=2 * math.pi):
    full = abs(a1 - a0 - 2 * math.pi) < 1e-9
    t = np.linspace(a0, a1, n, endpoint=not full)
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], 1)


def iround(x):
    return math.floor(float(x) + 0.5)


def rect(x0, y0, x1, y1):
    return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], float)


def rot(pts, ang):
    c, s = math.cos(ang), math.sin(ang)
    return np.asarray(pts, float).reshape(-1, 2) @ np.array([[c, s], [-s, c]])


def fit(pts, ext=0.92):
    p = np.asarray(pts, float)
    lo, hi = p.min(0), p.max(0)
    return (p - (lo + hi) / 2) * (2 * ext / (hi - lo).max())


def chaikin(pts, it=3):
    p = np.asarray(pts, float)
    for _ in range(it):
        q = np.roll(p, -1, 0)
        p = np.stack([0.75 * p + 0.25 * q, 0.25 * p + 0.75 * q], 1).reshape(-1, 2)
    return p


class Pen:
    """Draws into a uint8 mask; icon coordinates span [-1, 1] around (cx, cy), y down."""

    def __init__(self, mask, cx, cy, half):
        self.m, self.cx, self.cy, self.half = mask, cx, cy, half

    def _p(self, pts):
        p = np.asarray(pts, float).reshape(-1, 2)
        q = np.stack([self.cx + p[:, 0] * self.half, self.cy + p[:, 1] * self.half], 1)
        return np.round(q * ONE).astype(np.int32)

    def poly(self, pts, val=255):
        cv2.fillPoly(self.m, [self._p(pts)], int(val), cv2.LINE_AA, SHIFT)

    def line(self, pts, width, val=255, closed=False):
        th = max(1, iround(width * self.half))
        cv2.polylines(self.m, [self._p(pts)], closed, int(val), th, cv2.LINE_AA, SHIFT)


def _star(n=5, ro=0.95, ri=0.4):
    a = -math.pi / 2 + np.arange(2 * n) * math.pi / n
    r = np.where(np.arange(2 * n) % 2 == 0, ro, ri)
    return fit(np.stack([r * np.cos(a), r * np.sin(a)], 1), 0.95)


def sh_star(p):
    p.poly(_star())


def sh_moon(p):
    p.poly(circ(-0.06, 0.04, 0.9))
    p.poly(circ(0.36, -0.24, 0.74), 0)


def sh_sun(p):
    p.poly(circ(0, 0, 0.44))
    for k in range(8):
        a = k * math.pi / 4
        p.poly([(0.57 * math.cos(a - 0.2), 0.57 * math.sin(a - 0.2)), (0.97 * math.cos(a), 0.97 * math.sin(a)),
                (0.57 * math.cos(a + 0.2), 0.57 * math.sin(a + 0.2))])


def sh_heart(p):
    t = np.linspace(0, 2 * math.pi, 90, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    p.poly(fit(np.stack([x, y], 1), 0.93))


def sh_drop(p):
    t = np.linspace(0, 2 * math.pi, 90, endpoint=False)
    x = np.sin(t) * (1 - np.cos(t)) * 0.5
    y = -np.cos(t)
    p.poly(fit(np.stack([x, y], 1), 0.93))


def sh_bolt(p):
    p.poly(fit([(0.25, -1.0), (-0.55, 0.12), (-0.05, 0.12), (-0.3, 1.0), (0.6, -0.18), (0.08, -0.18),
                (0.45, -1.0)], 0.95))


def sh_tri(p):
    p.poly([(0, -0.92), (0.95, 0.72), (-0.95, 0.72)])


def sh_hex(p):
    p.poly(circ(0, 0, 0.93, n=6, a0=math.pi / 6, a1=math.pi / 6 + 2 * math.pi))


def sh_ring(p):
    p.poly(circ(0, 0, 0.9))
    p.poly(circ(0, 0, 0.5), 0)


def sh_plus(p):
    p.poly(rect(-0.3, -0.92, 0.3, 0.92))
    p.poly(rect(-0.92, -0.3, 0.92, 0.3))


def sh_house(p):
    p.poly([(-0.78, 0.9), (0.78, 0.9), (0.78, -0.08), (0, -0.9), (-0.78, -0.08)])
    p.poly(rect(0.36, -0.78, 0.62, -0.3))
    p.poly(rect(-0.2, 0.32, 0.2, 0.9), 0)


def sh_crown(p):
    p.poly([(-0.86, 0.5), (-0.86, -0.42), (-0.43, 0.04), (0, -0.72), (0.43, 0.04), (0.86, -0.42), (0.86, 0.5)])
    p.poly(rect(-0.86, 0.6, 0.86, 0.86))
    for x, y in ((-0.86, -0.56), (0, -0.84), (0.86, -0.56)):
        p.poly(circ(x, y, 0.12))


def sh_fish(p):
    p.poly(ell(-0.16, 0, 0.64, 0.42))
    p.poly([(0.3, 0), (0.94, -0.5), (0.78, 0), (0.94, 0.5)])
    p.poly(circ(-0.5, -0.08, 0.09), 0)


def sh_leaf(p):
    t = np.linspace(0, 1, 30)
    up = np.stack([-0.8 + 1.6 * t, -0.5 * np.sin(np.pi * t)], 1)
    lo = np.stack([0.8 - 1.6 * t, 0.5 * np.sin(np.pi * t)], 1)
    a = -0.7
    p.poly(rot(np.vstack([up, lo]) * 1.1, a))
    p.line(rot([(-0.7, 0), (0.75, 0)], a), 0.08, 0)
    p.line(rot([(-0.85, 0), (-1.15, 0.02)], a), 0.12)


def sh_hammer(p):
    a = -0.55
    p.poly(rot([(-0.75, -0.88), (0.5, -0.88), (0.8, -0.64), (0.5, -0.4), (-0.75, -0.4)], a))
    p.poly(rot(rect(-0.14, -0.45, 0.14, 0.95), a))


def sh_key(p):
    a = -0.6
    pts = [circ(-0.52, 0, 0.38), rect(-0.2, -0.09, 0.92, 0.09), rect(0.52, 0.05, 0.66, 0.38), rect(0.76, 0.05, 0.9, 0.3)]
    for q in pts:
        p.poly(rot(q, a))
    p.poly(rot(circ(-0.52, 0, 0.18), a), 0)


def sh_anchor(p):
    w = 0.13
    p.line(circ(0, -0.74, 0.16), w, closed=True)
    p.line([(0, -0.57), (0, 0.86)], w)
    p.line([(-0.42, -0.33), (0.42, -0.33)], w)
    p.line(circ(0, 0.18, 0.68, n=30, a0=0.12 * math.pi, a1=0.88 * math.pi), w)
    p.poly([(0.52, 0.2), (0.86, 0.58), (0.5, 0.62)])
    p.poly([(-0.52, 0.2), (-0.86, 0.58), (-0.5, 0.62)])


def sh_tree(p):
    p.poly([(0, -0.95), (0.55, -0.2), (-0.55, -0.2)])
    p.poly([(0, -0.55), (0.8, 0.42), (-0.8, 0.42)])
    p.poly(rect(-0.14, 0.4, 0.14, 0.92))


def sh_shield(p):
    t = np.linspace(0, 1, 20)[:, None]
    a, c, b = np.array([0.78, 0.0]), np.array([0.72, 0.72]), np.array([0.0, 0.95])
    right = (1 - t) ** 2 * a + 2 * (1 - t) * t * c + t ** 2 * b
    left = right[::-1] * [-1, 1]
    p.poly(np.vstack([[(-0.78, -0.88), (0.78, -0.88)], right, left]))
    p.line([(0, -0.7), (0, 0.65)], 0.1, 0)


def sh_bell(p):
    p.poly(ell(0, -0.2, 0.5, 0.55, a0=math.pi, a1=2 * math.pi))
    p.poly([(-0.5, -0.22), (0.5, -0.22), (0.72, 0.5), (-0.72, 0.5)])
    p.poly(rect(-0.86, 0.46, 0.86, 0.64))
    p.poly(circ(0, 0.78, 0.16))
    p.poly(circ(0, -0.82, 0.11))


def sh_gem(p):
    p.poly([(-0.92, -0.3), (-0.52, -0.75), (0.52, -0.75), (0.92, -0.3), (0, 0.92)])
    for seg in ([(-0.92, -0.3), (0.92, -0.3)], [(-0.3, -0.75), (-0.42, -0.3), (0, 0.92)],
                [(0.3, -0.75), (0.42, -0.3), (0, 0.92)]):
        p.line(seg, 0.06, 0)


def sh_mountain(p):
    p.poly([(-0.95, 0.75), (-0.3, -0.5), (0.02, 0.02), (0.36, -0.82), (0.95, 0.75)])
    p.line([(0.14, -0.5), (0.3, -0.38), (0.44, -0.52), (0.58, -0.42)], 0.08, 0)


def sh_cup(p):
    bowl = ell(0, -0.5, 0.72, 0.6, n=30, a0=0.0, a1=math.pi)
    p.poly(np.vstack([[(0.72, -0.9)], bowl, [(-0.72, -0.9)]]))
    p.poly(rect(-0.1, -0.05, 0.1, 0.7))
    p.poly(ell(0, 0.76, 0.52, 0.15))


def sh_eye(p):
    w = 0.1
    p.line(ell(0, 0.32, 0.95, 0.85, n=30, a0=1.25 * math.pi, a1=1.75 * math.pi), w)
    p.line(ell(0, -0.32, 0.95, 0.85, n=30, a0=0.25 * math.pi, a1=0.75 * math.pi), w)
    p.poly(circ(0, 0, 0.3))


def sh_sword(p):
    a = math.pi / 4
    for q in ([(-0.1, 0.35), (-0.1, -0.75), (0, -1.0), (0.1, -0.75), (0.1, 0.35)], rect(-0.42, 0.32, 0.42, 0.45),
              rect(-0.07, 0.45, 0.07, 0.82), circ(0, 0.9, 0.12)):
        p.poly(rot(np.asarray(q) * 0.98, a))


def sh_flame(p):
    base = [(0, -0.95), (0.22, -0.5), (0.55, -0.18), (0.62, 0.3), (0.42, 0.75), (0, 0.92), (-0.42, 0.75), (-0.62, 0.3),
            (-0.48, -0.12), (-0.28, 0.05), (-0.22, -0.42)]
    p.poly(fit(chaikin(base), 0.94))
    p.poly(fit(chaikin([(0, 0.0), (0.22, 0.35), (0.15, 0.7), (-0.15, 0.7), (-0.22, 0.35)]), 0.3) + [0, 0.5], 0)


def sh_spiral(p):
    t = np.linspace(0, 2.6 * 2 * math.pi, 160)
    r = 0.08 + 0.82 * t / t[-1]
    p.line(np.stack([r * np.cos(t), r * np.sin(t)], 1), 0.12)


def sh_castle(p):
    p.poly([(-0.7, 0.92), (-0.7, -0.5), (-0.86, -0.5), (-0.86, -0.92), (-0.5, -0.92), (-0.5, -0.7), (-0.17, -0.7),
            (-0.17, -0.92), (0.17, -0.92), (0.17, -0.7), (0.5, -0.7), (0.5, -0.92), (0.86, -0.92), (0.86, -0.5),
            (0.7, -0.5), (0.7, 0.92)])
    p.poly(np.vstack([[(-0.22, 0.92)], circ(0, 0.35, 0.22, n=20, a0=math.pi, a1=2 * math.pi), [(0.22, 0.92)]]), 0)


def sh_wheel(p):
    p.line(circ(0, 0, 0.8), 0.14, closed=True)
    for k in range(6):
        a = k * math.pi / 3
        p.line([(0, 0), (0.8 * math.cos(a), 0.8 * math.sin(a))], 0.09)
    p.poly(circ(0, 0, 0.2))


def sh_flag(p):
    p.poly(rect(-0.72, -0.92, -0.58, 0.95))
    t = np.linspace(0, 1, 24)
    top = np.stack([-0.58 + 1.45 * t, -0.86 + 0.12 * np.sin(2 * math.pi * t)], 1)
    bot = np.stack([0.87 - 1.45 * t, 0.02 + 0.12 * np.sin(2 * math.pi * (1 - t))], 1)
    p.poly(np.vstack([top, bot]))


def sh_mushroom(p):
    p.poly(np.vstack([ell(0, 0.05, 0.95, 0.85, n=40, a0=math.pi, a1=2 * math.pi), [(0.95, 0.1), (-0.95, 0.1)]]))
    p.poly([(-0.26, 0.05), (0.26, 0.05), (0.32, 0.9), (-0.32, 0.9)])
    p.poly(circ(-0.38, -0.38, 0.14), 0)
    p.poly(circ(0.3, -0.5, 0.11), 0)


def sh_clover(p):
    for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6):
        p.poly(circ(0.36 * math.cos(a), -0.1 + 0.36 * math.sin(a), 0.36))
    p.line([(0, 0.1), (0.12, 0.55), (0.3, 0.92)], 0.12)


def sh_paw(p):
    p.poly(ell(0, 0.38, 0.46, 0.4))
    for x, y, r in ((-0.72, -0.08, 0.2), (-0.3, -0.55, 0.22), (0.3, -0.55, 0.22), (0.72, -0.08, 0.2)):
        p.poly(circ(x, y, r))


def sh_bone(p):
    a = -0.6
    p.poly(rot(rect(-0.62, -0.14, 0.62, 0.14), a))
    for x in (-0.7, 0.7):
        for y in (-0.17, 0.17):
            p.poly(rot(circ(x, y, 0.2), a))


SHAPES = {
    'star': sh_star, 'moon': sh_moon, 'sun': sh_sun, 'heart': sh_heart, 'drop': sh_drop, 'bolt': sh_bolt,
    'tri': sh_tri, 'hex': sh_hex, 'ring': sh_ring, 'plus': sh_plus, 'house': sh_house, 'crown': sh_crown,
    'fish': sh_fish, 'leaf': sh_leaf, 'hammer': sh_hammer, 'key': sh_key, 'anchor': sh_anchor, 'tree': sh_tree,
    'shield': sh_shield, 'bell': sh_bell, 'gem': sh_gem, 'peak': sh_mountain, 'cup': sh_cup, 'eye': sh_eye,
    'sword': sh_sword, 'flame': sh_flame, 'spiral': sh_spiral, 'castle': sh_castle, 'wheel': sh_wheel,
    'flag': sh_flag, 'shroom': sh_mushroom, 'clover': sh_clover, 'paw': sh_paw, 'bone': sh_bone,
}
SOLID = ['star', 'moon', 'heart', 'drop', 'bolt', 'tri', 'hex', 'house', 'crown', 'fish', 'tree', 'shield', 'bell',
         'castle', 'flame', 'cup', 'shroom', 'clover', 'flag']
SMALL = ['star', 'moon', 'heart', 'drop', 'tri', 'hex', 'ring', 'plus', 'bolt', 'sun']
LAYOUT = {1: [(0, 0, 0.5)], 2: [(-0.25, -0.25, 0.235), (0.25, 0.25, 0.235)],
          3: [(0, -0.27, 0.215), (-0.27, 0.2, 0.215), (0.27, 0.2, 0.215)]}
COMBO = {2: [(-0.26, 0, 0.23), (0.26, 0, 0.23)], 3: LAYOUT[3]}
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX)


def face_mask(spec, size, ext):
    """uint8 mask of one face's ink: `ext` is the icon's extent as a fraction of `size`."""
    m = np.zeros((size, size), np.uint8)
    kind = spec['kind']
    if kind == 'blank':
        return m
    span = ext * size * spec.get('scale', 1.0)
    if kind == 'glyph':
        font, txt = FONTS[spec['font']], spec['glyph']
        th = max(2, int(span * 0.1))
        (tw, tht), _ = cv2.getTextSize(txt, font, 1.0, th)
        sc = span * 0.95 / max(tw, tht)
        th = max(2, iround(span * 0.1))
        (tw, tht), _ = cv2.getTextSize(txt, font, sc, th)
        org = (iround(size / 2 - tw / 2), iround(size / 2 + tht / 2))
        cv2.putText(m, txt, org, font, sc, 255, th, cv2.LINE_AA)
        return m
    if kind == 'shape':
        n = spec.get('n', 1)
        items = list(zip([spec['shape']] * n, LAYOUT[n], strict=False))
    else:
        items = list(zip(spec['shapes'], COMBO[len(spec['shapes'])], strict=False))
    for name, (dx, dy, hh) in items:
        tmp = np.zeros_like(m)
        half = hh * span
        SHAPES[name](Pen(tmp, size / 2 + dx * span, size / 2 + dy * span, half))
        if spec.get('hollow'):
            k = max(3, iround(half * 0.3)) | 1
            er = cv2.erode(tmp, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
            tmp = cv2.subtract(tmp, er)
        m = np.maximum(m, tmp)
    return m


def make_faces(rng, n):
    """Face specs: hard-but-fair pairs (count / size / outline), blank, combos, singles."""
    specs, used = [], set()

    def take(pool):
        opts = [s for s in pool if s not in used]
        s = opts[int(rng.integers(len(opts)))]
        used.add(s)
        return s

    pairs = list(rng.permutation(['count', 'size', 'hollow']))[:int(rng.integers(1, 3))]
    for pk in pairs:
        if pk == 'count':
            s = take(SMALL)
            k = int(rng.integers(1, 3))
            for c in (k, k + 1):
                specs.append({'id': s if c == 1 else f'{s}{c}', 'kind': 'shape', 'shape': s, 'n': c})
        elif pk == 'size':
            s = take(SOLID)
            specs.append({'id': s, 'kind': 'shape', 'shape': s})
            specs.append({'id': f'mini{s}', 'kind': 'shape', 'shape': s, 'scale': 0.6})
        else:
            s = take(SOLID)
            specs.append({'id': s, 'kind': 'shape', 'shape': s})
            specs.append({'id': f'o{s}', 'kind': 'shape', 'shape': s, 'hollow': True})
    extra = []
    if rng.random() < 0.45:
        extra.append({'id': 'blank', 'kind': 'blank'})
    if rng.random() < 0.5:
        k = 2 if rng.random() < 0.7 else 3
        parts = [take(SMALL) for _ in range(k)]
        fid = ''.join(parts) if k == 2 else ''.join(q[:3] for q in parts)
        extra.append({'id': fid, 'kind': 'combo', 'shapes': parts})
    if rng.random() < 0.22:
        g = str(rng.choice(list('XAKQ7E3')))
        extra.append({'id': f'sign{g.lower()}', 'kind': 'glyph', 'glyph': g, 'font': int(rng.integers(len(FONTS)))})
    rng.shuffle(extra)
    specs += extra
    while len(specs) < n:
        s = take(list(SHAPES))
        specs.append({'id': s, 'kind': 'shape', 'shape': s, 'hollow': bool(s in SOLID and rng.random() < 0.15)})
        if specs[-1]['hollow']:
            specs[-1]['id'] = f'o{s}'
    specs = specs[:n]
    ids = [s['id'] for s in specs]
    assert len(set(ids)) == len(ids), ids
    order = rng.permutation(len(specs))
    return [specs[i] for i in order]


# ----------------------------------------------------------------------------- colours
PALETTE = {
    'red': (205, 35, 38), 'crimson': (158, 18, 52), 'orange': (236, 118, 24), 'amber': (236, 166, 28),
    'yellow': (240, 208, 45), 'lime': (150, 198, 45), 'green': (40, 148, 62), 'jade': (28, 138, 112),
    'teal': (18, 118, 130), 'cyan': (40, 182, 208), 'sky': (98, 162, 226), 'blue': (36, 84, 192),
    'navy': (28, 42, 112), 'indigo': (72, 52, 160), 'purple': (116, 44, 150), 'violet': (160, 96, 208),
    'pink': (236, 128, 172), 'rose': (212, 78, 112), 'brown': (118, 70, 36), 'tan': (204, 164, 112),
    'cream': (236, 222, 178), 'white': (238, 238, 234), 'grey': (128, 130, 134), 'slate': (78, 94, 116),
    'black': (34, 34, 38), 'maroon': (112, 22, 32), 'olive': (112, 118, 36), 'mint': (140, 214, 170),
    'coral': (240, 112, 92), 'ivory': (246, 240, 222),
}
CLOSE_PAIRS = [('blue', 'navy'), ('blue', 'indigo'), ('red', 'crimson'), ('green', 'jade'), ('orange', 'amber'),
               ('purple', 'violet'), ('pink', 'rose'), ('sky', 'cyan'), ('cream', 'tan'), ('grey', 'slate'),
               ('teal', 'jade'), ('red', 'coral'), ('lime', 'green'), ('yellow', 'amber')]
INKS = {'white': (246, 246, 244), 'black': (22, 22, 24), 'gold': (222, 172, 58), 'red': (200, 30, 30),
        'yellow': (250, 214, 40), 'blue': (30, 70, 190), 'green': (30, 130, 60), 'cream': (240, 228, 196)}


def rgbf(c):
    return np.array(c, np.float32) / 255.0


def lum(c):
    c = np.asarray(c, float)
    return float(0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2])


def pick_ink(mode, body, rng_ink=None):
    """Ink colour (0-1 floats) for a body colour, keeping contrast."""
    b = rgbf(body)
    if mode == 'engraved':
        return b * 0.5 if lum(b) > 0.22 else np.minimum(b * 1.9 + 0.12, 1)
    ink = rgbf(INKS[rng_ink if mode == 'contrast' else mode])
    if abs(lum(ink) - lum(b)) < 0.28 or np.abs(ink - b).sum() < 0.5:
        ink = rgbf(INKS['black'] if lum(b) > 0.5 else INKS['white'])
    return ink


# ----------------------------------------------------------------------------- noise / tables
def vnoise(rng, h, w, cell, ax=1.0):
    """Smooth value noise with features about `cell` px (stretched `ax` times along x), roughly N(0, 1)."""
    gh = max(2, iround(h / max(cell, 1e-3)) + 2)
    gw = max(2, iround(w / max(cell * ax, 1e-3)) + 2)
    g = rng.standard_normal((gh, gw)).astype(np.float32)
    out = cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
    return out / max(float(out.std()), 1e-3)


def fine(rng, h, w, sigma=0.7):
    n = rng.standard_normal((h, w), dtype=np.float32)
    if sigma > 0:
        n = cv2.GaussianBlur(n, (0, 0), sigma)
    return n / max(float(n.std()), 1e-3)


def tint(base, v):
    return np.clip(v[..., None] * np.asarray(base, np.float32)[None, None], 0, 1.2)


def tex_cloth(rng, h, w, s, col=None):
    base = rgbf(col) if col is not None else rgbf([(40, 110, 62), (30, 48, 96), (112, 30, 42), (132, 128, 118),
                                                  (196, 180, 150), (60, 60, 64), (150, 96, 60)][int(rng.integers(7))])
    p = rng.uniform(2.3, 4.6)
    xs = np.arange(w, dtype=np.float32)[None, :] / p
    ys = np.arange(h, dtype=np.float32)[:, None] / p
    i, j = np.floor(xs).astype(np.int32), np.floor(ys).astype(np.int32)
    fx, fy = xs - i, ys - j
    if rng.random() < 0.5:
        over = ((i + j) % 2) == 0
    else:
        over = ((i - j) % 3) == 0
    prof = np.where(over, np.sin(np.pi * fy), np.sin(np.pi * fx)) ** 0.7
    cv_ = rng.normal(0, 0.05, i.shape[1] + 1).astype(np.float32)[i]
    rv_ = rng.normal(0, 0.05, j.shape[0] + 1).astype(np.float32)[j]
    thread = np.where(over, rv_, cv_)
    v = 0.78 + 0.26 * prof + thread + 0.05 * vnoise(rng, h, w, s * 1.5) + 0.03 * fine(rng, h, w, 0.5)
    return tint(base, v)


def tex_felt(rng, h, w, s, col):
    v = 1 + 0.05 * fine(rng, h, w, 0.8) + 0.03 * vnoise(rng, h, w, 6) + 0.04 * vnoise(rng, h, w, s * 2)
    return tint(rgbf(col), v)


def tex_cork(rng, h, w, s, col=None):
    base = rgbf([(190, 140, 88), (170, 122, 76), (204, 160, 110)][int(rng.integers(3))])
    v = 1 + 0.10 * vnoise(rng, h, w, 4) + 0.08 * vnoise(rng, h, w, s) + 0.06 * fine(rng, h, w, 0.6)
    g = vnoise(rng, h, w, 2.2)
    v = np.where(g > 1.55, v * 0.55, v)
    v = np.where(g < -1.9, v * 1.18, v)
    out = tint(base, v)
    return cv2.GaussianBlur(out, (0, 0), 0.5)


def tex_slate(rng, h, w, s, col=None):
    base = rgbf([(44, 48, 54), (36, 42, 46), (58, 58, 62), (40, 46, 58)][int(rng.integers(4))])
    v = 1 + 0.16 * vnoise(rng, h, w, s * 0.25, ax=8) + 0.08 * vnoise(rng, h, w, s) + 0.05 * fine(rng, h, w, 0.6)
    out = tint(base, v)
    m = np.zeros((h, w), np.uint8)
    for _ in range(int(rng.integers(3, 12))):
        x0, y0 = rng.uniform(0, w), rng.uniform(0, h)
        a, ln = rng.uniform(0, math.pi), rng.uniform(0.5, 3) * s
        cv2.line(m, (int(x0), int(y0)), (int(x0 + ln * math.cos(a)), int(y0 + ln * math.sin(a))), 60, 1, cv2.LINE_AA)
    return out + (m.astype(np.float32) / 255.0)[..., None] * 0.35


def tex_granite(rng, h, w, s, col=None):
    base = rgbf([(150, 150, 152), (176, 150, 142), (200, 192, 176), (70, 70, 74)][int(rng.integers(4))])
    out = tint(base, 1 + 0.05 * vnoise(rng, h, w, s * 0.8) + 0.04 * fine(rng, h, w, 0.5))
    cols = [(0.1, 0.1, 0.1), (0.95, 0.94, 0.92), (0.7, 0.45, 0.4) if rng.random() < 0.5 else (0.45, 0.45, 0.5)]
    for c, thr, cell in zip(cols, (1.45, 1.6, 1.75), (1.8, 1.5, 2.6), strict=False):
        msk = vnoise(rng, h, w, cell) > thr
        out[msk] = c
    return cv2.GaussianBlur(out, (0, 0), 0.6)


def tex_wood(rng, h, w, s, col=None):
    light = rgbf([(200, 150, 100), (170, 112, 64), (120, 76, 44), (214, 180, 136), (96, 60, 38)][int(rng.integers(5))])
    pw = s * rng.uniform(1.3, 3.0)
    ys = np.arange(h, dtype=np.float32)[:, None]
    xs = np.arange(w, dtype=np.float32)[None, :]
    j = np.floor(ys / pw).astype(np.int32)
    yp = ys - j * pw
    nplank = int(j.max()) + 2
    off = rng.uniform(0, 100, nplank).astype(np.float32)
    slope = rng.normal(0, 0.01, nplank).astype(np.float32)
    tone = rng.normal(1, 0.07, nplank).astype(np.float32)
    freq = 1.0 / rng.uniform(5, 11)
    phase = (yp + xs * slope[j] + 6 * vnoise(rng, h, w, s * 0.5, ax=8)) * freq + off[j]
    kmask = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(1, 2 + int(h * w / (s * s * 25))))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        ax_, ay_ = s * rng.uniform(0.15, 0.4), s * rng.uniform(0.08, 0.2)
        x0, x1 = int(max(0, cx - 5 * ax_)), int(min(w, cx + 5 * ax_))
        y0, y1 = int(max(0, cy - 5 * ay_)), int(min(h, cy + 5 * ay_))
        if x1 <= x0 or y1 <= y0:
            continue
        d2 = ((xs[:, x0:x1] - cx) / ax_) ** 2 + ((ys[y0:y1] - cy) / ay_) ** 2
        phase[y0:y1, x0:x1] += 2.5 * np.exp(-d2 / 6) * np.sign(ys[y0:y1] - cy)
        kmask[y0:y1, x0:x1] = np.maximum(kmask[y0:y1, x0:x1], np.exp(-d2))
    g = (0.5 + 0.5 * np.sin(2 * np.pi * phase)) ** rng.uniform(2, 4)
    v = tone[j] * (1 - 0.3 * g - 0.45 * kmask) * (1 + 0.04 * fine(rng, h, w, 0.7))
    v = np.where(yp < 1.4, v * 0.45, v)
    ends = rng.uniform(0, w, nplank)
    v = np.where((np.abs(xs - ends[j]) < 1.0), v * 0.5, v)
    return tint(light, v)


def tex_leather(rng, h, w, s, col=None):
    base = rgbf(col) if col is not None else rgbf([(80, 44, 28), (40, 30, 28), (110, 30, 30)][int(rng.integers(3))])
    v = 1 + 0.08 * vnoise(rng, h, w, 3) + 0.05 * vnoise(rng, h, w, s * 2) + 0.03 * fine(rng, h, w, 0.5)
    return tint(base, v)


def tex_playmat(rng, h, w, s, col=None):
    base = rgbf([(24, 34, 70), (20, 20, 24), (70, 28, 80), (18, 82, 86), (120, 36, 36), (40, 70, 40)][
        int(rng.integers(6))])
    out = tint(base, 1 + 0.05 * vnoise(rng, h, w, s * 3) + 0.025 * fine(rng, h, w, 0.6))
    for _ in range(int(rng.integers(3, 8))):
        m = np.zeros((h, w), np.uint8)
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), s * rng.uniform(1.5, 6)
        kind = int(rng.integers(4))
        if kind == 0:
            cv2.circle(m, (int(cx), int(cy)), int(r), 255, -1, cv2.LINE_AA)
        elif kind == 1:
            cv2.circle(m, (int(cx), int(cy)), int(r), 255, int(max(2, r * 0.12)), cv2.LINE_AA)
        elif kind == 2:
            k = int(rng.integers(3, 8))
            a0 = rng.uniform(0, 6.3)
            pts = np.array([(cx + r * math.cos(a0 + 2 * math.pi * i / k), cy + r * math.sin(a0 + 2 * math.pi * i / k))
                            for i in range(k)], np.int32)
            cv2.fillPoly(m, [pts], 255, cv2.LINE_AA)
        else:
            a = rng.uniform(0, math.pi)
            d = np.array([math.cos(a), math.sin(a)]) * 3 * w
            cv2.line(m, tuple(int(v) for v in (cx - d[0], cy - d[1])), tuple(int(v) for v in (cx + d[0], cy + d[1])),
                     255, int(r * 0.4), cv2.LINE_AA)
        c = rgbf(PALETTE[str(rng.choice(list(PALETTE)))]) if rng.random() < 0.5 else base * rng.uniform(0.5, 1.8)
        a = (m.astype(np.float32) / 255 * rng.uniform(0.25, 0.7))[..., None]
        out = out * (1 - a) + np.clip(c, 0, 1) * a
    m = np.zeros((h, w), np.uint8)
    for _ in range(int(rng.integers(2, 7))):
        x, y = rng.uniform(-0.1, 0.7) * w, rng.uniform(0.05, 1) * h
        sc = s / 40 * rng.uniform(0.5, 1.4)
        font = FONTS[int(rng.integers(len(FONTS)))]
        for _ in range(int(rng.integers(1, 4))):
            word = ''.join(chr(65 + int(c)) for c in rng.integers(0, 26, int(rng.integers(3, 9))))
            th = max(1, int(sc * rng.uniform(1, 3)))
            cv2.putText(m, word, (int(x), int(y)), font, sc, 255, th, cv2.LINE_AA)
            x += cv2.getTextSize(word + ' ', font, sc, th)[0][0]
    c = np.array([0.9, 0.88, 0.8], np.float32) if lum(base) < 0.4 else np.array([0.1, 0.1, 0.1], np.float32)
    a = (m.astype(np.float32) / 255 * rng.uniform(0.35, 0.8))[..., None]
    return out * (1 - a) + c * a


def tex_plain(rng, h, w, s, col=None):
    base = rgbf(col) if col is not None else rgbf(
        [(232, 230, 222), (210, 200, 180), (150, 170, 180), (90, 90, 96), (200, 210, 196), (236, 224, 200)][
            int(rng.integers(6))])
    v = 1 + 0.04 * vnoise(rng, h, w, s * 4) + 0.015 * fine(rng, h, w, 0.6)
    return tint(base, v)


TABLES = {'cloth': tex_cloth, 'cork': tex_cork, 'slate': tex_slate, 'granite': tex_granite, 'wood': tex_wood,
          'playmat': tex_playmat, 'plain': tex_plain, 'tray': None, 'samecolour': None}


# ----------------------------------------------------------------------------- camera
class Cam:
    def __init__(self, w, h, f, tilt, roll, dist, cx, cy):
        self.W, self.H, self.f, self.cx, self.cy = w, h, f, cx, cy
        ct, st = math.cos(tilt), math.sin(tilt)
        fwd = np.array([0, st, -ct])
        base = np.stack([np.array([1.0, 0, 0]), np.array([0, -ct, -st]), fwd])
        cr, sr = math.cos(roll), math.sin(roll)
        self.R = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1]]) @ base
        self.C = -dist * fwd
        self.K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]])

    def project(self, P):
        pc = (np.asarray(P, float).reshape(-1, 3) - self.C) @ self.R.T
        return np.stack([self.f * pc[:, 0] / pc[:, 2] + self.cx, self.f * pc[:, 1] / pc[:, 2] + self.cy], 1)

    def rays(self, u, v):
        dt = u.dtype
        d = np.stack([(u - dt.type(self.cx)) / dt.type(self.f), (v - dt.type(self.cy)) / dt.type(self.f),
                      np.ones_like(u)], 1) @ self.R.astype(dt)
        return d / np.sqrt((d * d).sum(1))[:, None]

    def window(self, x0, y0, w, h):
        c = Cam.__new__(Cam)
        c.__dict__.update(self.__dict__)
        c.W, c.H, c.cx, c.cy = w, h, self.cx - x0, self.cy - y0
        c.K = np.array([[self.f, 0, c.cx], [0, self.f, c.cy], [0, 0, 1]])
        return c

    def backproject(self, u, v, z=0.0):
        d = self.rays(np.atleast_1d(np.asarray(u, float)), np.atleast_1d(np.asarray(v, float)))
        t = (z - self.C[2]) / d[:, 2]
        return self.C + t[:, None] * d

    def plane_h(self, z=0.0):
        r = self.R
        return self.K @ np.stack([r[:, 0], r[:, 1], r[:, 2] * z - r @ self.C], 1)


def rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def rodrigues(axis, ang):
    v = np.asarray(axis, float)
    v = v / max(np.linalg.norm(v), 1e-12) * ang
    return cv2.Rodrigues(v.reshape(3, 1))[0]


def align_to_z(v):
    v = np.asarray(v, float)
    z = np.array([0, 0, 1.0])
    c = float(v @ z)
    if c > 0.999:
        return np.eye(3)
    if c < -0.999:
        return rodrigues([1, 0, 0], math.pi)
    return rodrigues(np.cross(v, z), math.acos(c))


# ----------------------------------------------------------------------------- objects
SLOT_DIR = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], np.float32)
SLOT_U = np.array([[0, 1, 0], [0, -1, 0], [-1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]], np.float32)
SLOT_V = np.array([[0, 0, -1], [0, 0, -1], [0, 0, -1], [0, 0, -1], [0, -1, 0], [0, 1, 0]], np.float32)


def sample(img, x, y):
    """Bilinear lookup of img at float pixel coords (any length), via cv2.remap in chunks."""
    n = x.shape[0]
    cols = 512
    rows = max(1, -(-n // cols))
    mx = np.zeros(rows * cols, np.float32)
    my = np.zeros(rows * cols, np.float32)
    mx[:n], my[:n] = x, y
    out = cv2.remap(img, mx.reshape(rows, cols), my.reshape(rows, cols), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(rows * cols, -1)[:n]


class Obj:
    pass


def make_die(dt, face, s, radius, rng, X, Y, material):
    ob = Obj()
    ob.kind, ob.typ, ob.face = 'die', dt['name'], face
    slots = [i for i, f in enumerate(dt['slots']) if f == face]
    slot = slots[int(rng.integers(len(slots)))]
    a = rng.uniform(0, 2 * math.pi)
    tilt = rodrigues([math.cos(a), math.sin(a), 0], math.radians(rng.uniform(0, 2.5)))
    ob.R = (rot_z(rng.uniform(0, 2 * math.pi)) @ tilt @ align_to_z(SLOT_DIR[slot])).astype(np.float32)
    h = s / 2
    ob.hb = np.array([h, h, h], np.float32)
    ob.h, ob.r, ob.size = h, radius, s
    corners = np.array([[sx, sy, sz] for sx in (-h, h) for sy in (-h, h) for sz in (-h, h)], np.float32)
    zmin = (corners @ ob.R.T)[:, 2].min()
    ob.O = np.array([X, Y, -zmin * 0.985], np.float32)
    ob.pts = corners @ ob.R.T + ob.O
    ob.top = SLOT_DIR[slot] * h @ ob.R.T + ob.O
    ob.atlas = dt['atlas']
    ob.mat = material
    return ob


def make_token(tk, face, diam, thick, rng, X, Y, material):
    ob = Obj()
    ob.kind, ob.typ, ob.face = 'token', 'token', face
    ob.R = (rot_z(rng.uniform(0, 2 * math.pi)) @ rodrigues([1, 0, 0], math.radians(rng.uniform(-1, 1)))).astype(
        np.float32)
    rr, hz = diam / 2, thick / 2
    ob.hb = np.array([rr, rr, hz], np.float32)
    ob.rr, ob.hz, ob.re, ob.size = rr, hz, min(hz * 0.45, rr * 0.05), diam
    a = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    ring = np.stack([rr * np.cos(a), rr * np.sin(a)], 1)
    pts = np.vstack([np.c_[ring, np.full(24, hz)], np.c_[ring, np.full(24, -hz)]]).astype(np.float32)
    ob.O = np.array([X, Y, hz], np.float32)
    ob.pts = pts @ ob.R.T + ob.O
    ob.top = np.array([0, 0, hz], np.float32) @ ob.R.T + ob.O
    ob.tile = tk['tiles'][face]
    ob.edge = tk['edge']
    ob.mat = material
    return ob


def sdf(ob, px, py, pz):
    if ob.kind == 'die':
        b = np.float32(ob.h - ob.r)
        qx, qy, qz = np.abs(px) - b, np.abs(py) - b, np.abs(pz) - b
        mx, my, mz = np.maximum(qx, 0), np.maximum(qy, 0), np.maximum(qz, 0)
        return np.sqrt(mx * mx + my * my + mz * mz) + np.minimum(np.maximum(np.maximum(qx, qy), qz), 0) - \
            np.float32(ob.r)
    dx = np.sqrt(px * px + py * py) - np.float32(ob.rr - ob.re)
    dz = np.abs(pz) - np.float32(ob.hz - ob.re)
    mx, mz = np.maximum(dx, 0), np.maximum(dz, 0)
    return np.minimum(np.maximum(dx, dz), 0) + np.sqrt(mx * mx + mz * mz) - np.float32(ob.re)


def normal(ob, p):
    if ob.kind == 'die':
        b = ob.h - ob.r
        q = p - np.clip(p, -b, b)
    else:
        rho = np.maximum(np.sqrt(p[:, 0] ** 2 + p[:, 1] ** 2), 1e-6)
        rc = np.minimum(rho, ob.rr - ob.re)
        b = ob.hz - ob.re
        q = p - np.stack([p[:, 0] * rc / rho, p[:, 1] * rc / rho, np.clip(p[:, 2], -b, b)], 1)
    n = np.linalg.norm(q, axis=1, keepdims=True)
    bad = n[:, 0] < 1e-6
    q = q / np.maximum(n, 1e-6)
    if bad.any():
        q[bad] = [0, 0, 1]
    return q


def albedo(ob, p, nl):
    """(M, 4) albedo rgb + specular weight at local surface points."""
    if ob.kind == 'die':
        a = np.abs(p)
        ax = a.argmax(1)
        neg = p[np.arange(len(p)), ax] < 0
        slot = 2 * ax + neg
        u = (p * SLOT_U[slot]).sum(1) / (2 * ob.h) + 0.5
        v = (p * SLOT_V[slot]).sum(1) / (2 * ob.h) + 0.5
        mx = slot * TEX + np.clip(u * TEX - 0.5, 0.5, TEX - 1.5)
        my = np.clip(v * TEX - 0.5, 0.5, TEX - 1.5)
        return sample(ob.tex, mx.astype(np.float32), my.astype(np.float32))
    out = np.empty((len(p), 4), np.float32)
    top = (nl[:, 2] > 0.45) & (p[:, 2] > 0)
    u = p[top, 0] / (2 * ob.rr) + 0.5
    v = -p[top, 1] / (2 * ob.rr) + 0.5
    out[top] = sample(ob.tex, np.clip(u * TEX - 0.5, 0, TEX - 1).astype(np.float32),
                      np.clip(v * TEX - 0.5, 0, TEX - 1).astype(np.float32))
    side = ~top
    zf = (p[side, 2] + ob.hz) / (2 * ob.hz)
    e = ob.edge
    col = np.where((zf > 1 - e['band'])[:, None], e['print'][None], e['core'][None])
    col = col * (1 + 0.06 * np.sin(zf * 37.0))[:, None]
    out[side, :3] = col
    out[side, 3] = 0.15
    return out


def trace(cam, ob, light, u, v):
    """Ray-march pixel positions (u, v); returns (rgb (M, 3), hit (M,))."""
    dw = cam.rays(u, v)
    dl = dw @ ob.R
    ol = ((cam.C - ob.O) @ ob.R).astype(np.float32)
    inv = 1.0 / np.where(np.abs(dl) < 1e-7, np.float32(1e-7), dl)
    t1 = (-ob.hb - ol) * inv
    t2 = (ob.hb - ol) * inv
    lo, hi_ = np.minimum(t1, t2), np.maximum(t1, t2)
    tn = np.maximum(np.maximum(lo[:, 0], lo[:, 1]), lo[:, 2])
    tf = np.minimum(np.minimum(hi_[:, 0], hi_[:, 1]), hi_[:, 2])
    idx = np.nonzero((tn < tf) & (tf > 0))[0]
    t, tfar = tn[idx], tf[idx]
    dx, dy, dz = (np.ascontiguousarray(dl[idx, k]) for k in range(3))
    n = dw.shape[0]
    hit = np.zeros(n, bool)
    th = np.zeros(n, np.float32)
    eps = np.float32(0.002 * ob.size)
    ox, oy, oz = (np.float32(c) for c in ol)
    d = None
    for it in range(30):
        d = sdf(ob, ox + t * dx, oy + t * dy, oz + t * dz)
        t = t + d
        done = d < eps
        if it == 29:
            done = d < 6 * eps
        if done.any():
            hit[idx[done]] = True
            th[idx[done]] = t[done]
        keep = (~done) & (t < tfar + eps)
        if not keep.all():
            idx, t, tfar, dx, dy, dz = idx[keep], t[keep], tfar[keep], dx[keep], dy[keep], dz[keep]
        if idx.size == 0:
            break
    hi = np.nonzero(hit)[0]
    col = np.zeros((n, 3), np.float32)
    if hi.size:
        p = ol + th[hi, None] * dl[hi]
        nl = normal(ob, p)
        alb = albedo(ob, p, nl)
        col[hi] = shade(ob, p, nl, alb, -dw[hi], light)
    return col, hit


def render_object(cam, ob, light):
    """Ray-march one object at 1 sample per pixel, 3x3 samples on silhouette pixels.

    Returns (x0, y0, premultiplied rgb, alpha, top-face size in px) or None."""
    uv = cam.project(ob.pts)
    x0 = max(0, math.floor(uv[:, 0].min()) - 2)
    x1 = min(cam.W, math.ceil(uv[:, 0].max()) + 2)
    y0 = max(0, math.floor(uv[:, 1].min()) - 2)
    y1 = min(cam.H, math.ceil(uv[:, 1].max()) + 2)
    if x1 <= x0 or y1 <= y0:
        return None
    w, h = x1 - x0, y1 - y0
    # texture level of detail from the projected top-face size
    tp = cam.project(np.vstack([ob.top, ob.top + ob.R[:, 0] * ob.hb[0]]))
    face_px = max(4.0, 2 * float(np.hypot(*(tp[1] - tp[0]))))
    set_lod(ob, face_px)
    hull = cv2.convexHull(uv.astype(np.float32)).reshape(-1, 2) - [x0, y0]
    m = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(m, np.round(hull * ONE).astype(np.int32), 255, cv2.LINE_8, SHIFT)
    m = cv2.dilate(m, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero(m)
    col_img = np.zeros((h, w, 3), np.float32)
    alpha = np.zeros((h, w), np.float32)
    col, hit = trace(cam, ob, light, (xs + x0 + 0.5).astype(np.float32), (ys + y0 + 0.5).astype(np.float32))
    col_img[ys, xs] = col
    alpha[ys, xs] = hit
    hb = (alpha > 0.5).astype(np.uint8)
    edge = (cv2.dilate(hb, np.ones((3, 3), np.uint8)) != cv2.erode(hb, np.ones((3, 3), np.uint8))) & (m > 0)
    ey, ex = np.nonzero(edge)
    if ey.size:
        k = 3
        off = (np.arange(k, dtype=np.float32) + 0.5) / k
        ox, oy = np.meshgrid(off, off)
        us = (ex[:, None] + x0 + ox.ravel()[None]).astype(np.float32).ravel()
        vs = (ey[:, None] + y0 + oy.ravel()[None]).astype(np.float32).ravel()
        c2, h2 = trace(cam, ob, light, us, vs)
        col_img[ey, ex] = c2.reshape(-1, k * k, 3).mean(1)
        alpha[ey, ex] = h2.reshape(-1, k * k).mean(1)
    return x0, y0, col_img, alpha, face_px


_LOD = {}


def set_lod(ob, face_px):
    """Pick a pre-blurred copy of the object's texture so 1-sample rendering does not alias."""
    src = ob.atlas if ob.kind == 'die' else ob.tile
    ratio = TEX / face_px
    lvl = 0 if ratio < 1.3 else int(min(6, round(math.log2(ratio) * 2)))
    key = (id(src), lvl)
    if key not in _LOD:
        if len(_LOD) > 400:
            _LOD.clear()
        sig = 0.0 if lvl == 0 else 0.45 * 2 ** (lvl / 2)
        _LOD[key] = (src, cv2.GaussianBlur(src, (0, 0), sig) if sig > 0 else src)
    ob.tex = _LOD[key][1]


def shade(ob, p, nl, alb, view, light):
    Rt = ob.R.T
    nw = nl @ Rt
    pw = p @ Rt + ob.O
    lv = light['pos'][None].astype(np.float32) - pw
    lv /= np.linalg.norm(lv, axis=1, keepdims=True)
    ndl = np.clip((nw * lv).sum(1), 0, None)
    ndv = np.clip((nw * view).sum(1), 0, 1)
    rv = 2 * ndv[:, None] * nw - view
    cosr = np.clip((rv * lv).sum(1), -1, 1)
    m = ob.mat
    sharp = np.exp(-(1 - cosr) / (m['sig'] ** 2))
    broad = np.clip(cosr, 0, None) ** m['pow']
    fres = 0.04 + 0.96 * (1 - ndv) ** 5
    env = 0.45 + 0.55 * np.clip(rv[:, 2], 0, 1)
    ao = 1 - m['ao'] * np.exp(-pw[:, 2] / (0.14 * ob.size))
    diff = light['amb'][None] + light['dI'] * ndl[:, None] * light['col'][None]
    col = alb[:, :3] * diff * ao[:, None]
    # softbox glint: a soft-edged rectangle around the mirror direction of the lamp
    ga = np.abs(((rv - lv) * light['e1'][None]).sum(1))
    gb = np.abs(((rv - lv) * light['e2'][None]).sum(1))
    soft = 0.01
    box = np.clip((light['wa'] - ga) / soft + 0.5, 0, 1) * np.clip((light['wb'] - gb) / soft + 0.5, 0, 1)
    sp = alb[:, 3] * (m['ks'] * sharp + m['kb'] * broad + m['kbox'] * box) * light['dI']
    col += sp[:, None] * light['col'][None] + (alb[:, 3] * m['kenv'] * fres * env)[:, None] * light['amb'][None] * 1.6
    return col


# ----------------------------------------------------------------------------- set definition
def make_dice_set(rng):
    n_types = int(rng.integers(3, 5))
    pair = CLOSE_PAIRS[int(rng.integers(len(CLOSE_PAIRS)))]
    names = list(pair)
    if rng.random() < 0.5:
        names = names[::-1]
    others = [k for k in PALETTE if k not in names]
    rng.shuffle(others)
    for k in others:
        if len(names) >= n_types:
            break
        c = np.array(PALETTE[k], float)
        if all(np.linalg.norm(c - np.array(PALETTE[q], float)) > 120 for q in names):
            names.append(k)
    order = rng.permutation(len(names))
    names = [names[i] for i in order]
    faces = make_faces(rng, int(rng.integers(5, 7)))
    ink_mode = str(rng.choice(['white', 'black', 'gold', 'contrast', 'engraved', 'auto'],
                              p=[0.2, 0.14, 0.16, 0.16, 0.16, 0.18]))
    contrast_ink = str(rng.choice(['red', 'yellow', 'blue', 'green', 'cream']))
    finish = str(rng.choice(['matte', 'satin', 'glossy'], p=[0.35, 0.25, 0.4]))
    body = str(rng.choice(['solid', 'marbled', 'pearl'], p=[0.6, 0.25, 0.15]))
    ext = rng.uniform(0.6, 0.68)
    st = {'kind': 'dice', 'faces': faces, 'ink_mode': ink_mode, 'finish': finish, 'body': body, 'ext': ext,
          'radius': rng.uniform(0.07, 0.16), 'contrast_ink': contrast_ink}
    st['mat'] = {'matte': {'ks': 0.0, 'sig': 0.2, 'kb': 0.08, 'pow': 6, 'kenv': 0.15, 'ao': 0.3, 'kbox': 0.0},
                 'satin': {'ks': 0.25, 'sig': 0.05, 'kb': 0.12, 'pow': 20, 'kenv': 0.4, 'ao': 0.3, 'kbox': 0.2},
                 'glossy': {'ks': 0.3, 'sig': rng.uniform(0.008, 0.014), 'kb': 0.1, 'pow': 40, 'kenv': 0.9,
                            'ao': 0.3, 'kbox': rng.uniform(0.32, 0.48)}}[finish]
    st['glare_p'] = {'matte': 0.15, 'satin': 0.35, 'glossy': 0.5}[finish]
    masks = {f['id']: face_mask(f, TEX, ext).astype(np.float32) / 255.0 for f in faces}
    types = []
    for nm in names:
        body_rgb = PALETTE[nm]
        ink_m = ink_mode
        if ink_mode == 'auto':
            ink_m = 'black' if lum(rgbf(body_rgb)) > 0.55 else 'white'
        ink = pick_ink(ink_m, body_rgb, contrast_ink)
        ids = [f['id'] for f in faces]
        slots = list(ids) + [ids[int(rng.integers(len(ids)))] for _ in range(6 - len(ids))]
        slots = [slots[i] for i in rng.permutation(6)]
        atlas = np.zeros((TEX, 6 * TEX, 4), np.float32)
        for k, fid in enumerate(slots):
            atlas[:, k * TEX:(k + 1) * TEX] = die_tile(rng, masks[fid], rgbf(body_rgb), ink, ink_m, st)
        types.append({'name': nm, 'rgb': body_rgb, 'slots': slots, 'atlas': atlas, 'ink': ink})
    st['types'] = types
    st['close'] = list(pair)
    return st


def die_tile(rng, mask, body, ink, ink_mode, st):
    m = cv2.GaussianBlur(mask, (0, 0), 0.7)[..., None]
    base = np.broadcast_to(body, (TEX, TEX, 3)).astype(np.float32)
    if st['body'] == 'marbled':
        v = vnoise(rng, TEX, TEX, 90) + 0.5 * vnoise(rng, TEX, TEX, 40)
        swirl = np.sin(v * 1.6)[..., None]
        base = np.clip(base * (1 + 0.05 * swirl) + 0.02 * swirl, 0, 1)
    elif st['body'] == 'pearl':
        base = np.clip(base * (1 + 0.04 * vnoise(rng, TEX, TEX, 60)[..., None]) + 0.02, 0, 1)
    out = np.empty((TEX, TEX, 4), np.float32)
    out[..., :3] = base * (1 - m) + ink[None, None] * m
    if ink_mode == 'engraved':
        g = cv2.GaussianBlur(mask, (0, 0), 2.0)
        gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
        out[..., :3] = np.clip(out[..., :3] * (1 + 0.8 * (gx + gy)[..., None]), 0, 1)
    spec_body = {'matte': 0.6, 'satin': 0.9, 'glossy': 1.0}[st['finish']]
    spec_ink = 1.4 if ink_mode == 'gold' else spec_body * 0.8
    out[..., 3] = spec_body * (1 - m[..., 0]) + spec_ink * m[..., 0]
    return out


TOKEN_BG = [(168, 46, 40), (196, 140, 40), (44, 104, 60), (30, 100, 116), (34, 50, 104), (96, 48, 110), (70, 74, 82),
            (214, 196, 150), (28, 28, 30), (150, 84, 44), (120, 150, 60), (210, 110, 130), (236, 232, 220)]


def make_token_set(rng):
    faces = make_faces(rng, int(rng.integers(6, 9)))
    bg_mode = str(rng.choice(['uniform', 'per', 'two'], p=[0.35, 0.4, 0.25]))
    bgs = [TOKEN_BG[i] for i in rng.permutation(len(TOKEN_BG))]
    if bg_mode == 'uniform':
        bgmap = {f['id']: bgs[0] for f in faces}
    elif bg_mode == 'two':
        bgmap = {f['id']: bgs[int(rng.integers(2))] for f in faces}
    else:
        k = int(rng.integers(max(2, len(faces) // 2), len(faces) + 1))
        bgmap = {f['id']: bgs[int(rng.integers(k))] for f in faces}
    pattern = str(rng.choice(['none', 'rays', 'dots', 'rings', 'halftone'], p=[0.3, 0.2, 0.2, 0.15, 0.15]))
    ink_mode = str(rng.choice(['white', 'black', 'gold', 'cream', 'auto']))
    rim_w = rng.uniform(0.015, 0.03) if rng.random() < 0.5 else rng.uniform(0.06, 0.1)
    rim_col = rgbf([(222, 172, 58), (240, 240, 236), (20, 20, 22), (120, 120, 126)][int(rng.integers(4))])
    ext = rng.uniform(0.5, 0.6)
    edge = {'core': rgbf([(150, 136, 112), (110, 108, 104), (190, 176, 150), (60, 56, 52)][int(rng.integers(4))]),
            'band': rng.uniform(0.08, 0.2)}
    painted = rng.random() < 0.3
    finish = str(rng.choice(['matte', 'laminate'], p=[0.6, 0.4]))
    mat = ({'ks': 0.0, 'sig': 0.2, 'kb': 0.06, 'pow': 6, 'kenv': 0.1, 'ao': 0.25, 'kbox': 0.0}
           if finish == 'matte' else {'ks': 0.2, 'sig': 0.035, 'kb': 0.1, 'pow': 16, 'kenv': 0.45, 'ao': 0.25, 'kbox': 0.3})
    tiles = {}
    yy, xx = np.mgrid[0:TEX, 0:TEX].astype(np.float32)
    xx, yy = (xx + 0.5) / TEX - 0.5, (yy + 0.5) / TEX - 0.5
    r = np.sqrt(xx ** 2 + yy ** 2)
    ang = np.arctan2(yy, xx)
    nrays = int(rng.integers(8, 20))
    pamp = rng.uniform(0.07, 0.16) * (1 if rng.random() < 0.5 else -1)
    grain = fine(rng, TEX, TEX, 0.8)
    pat = np.zeros((TEX, TEX), np.float32)
    if pattern == 'rays':
        pat = (np.floor((ang + math.pi) / (2 * math.pi) * 2 * nrays) % 2) * 2 - 1
    elif pattern == 'dots':
        sp = rng.uniform(0.06, 0.1)
        d = np.sqrt(((xx / sp) % 1 - 0.5) ** 2 + ((yy / sp) % 1 - 0.5) ** 2)
        pat = (d < 0.25).astype(np.float32) * 2 - 1
    elif pattern == 'rings':
        pat = np.sign(np.sin(r * 2 * math.pi / rng.uniform(0.04, 0.07)))
    elif pattern == 'halftone':
        sp = 0.045
        d = np.sqrt(((xx / sp) % 1 - 0.5) ** 2 + ((yy / sp) % 1 - 0.5) ** 2)
        pat = (d < 0.45 * (1 - r * 1.6)).astype(np.float32) * 2 - 1
    pat = cv2.GaussianBlur(pat.astype(np.float32), (0, 0), 0.8)
    for f in faces:
        bg = rgbf(bgmap[f['id']])
        im = ink_mode
        if im == 'auto':
            im = 'black' if lum(bg) > 0.55 else 'white'
        ink = pick_ink(im, bgmap[f['id']])
        m = cv2.GaussianBlur(face_mask(f, TEX, ext).astype(np.float32) / 255.0, (0, 0), 0.7)[..., None]
        img = bg[None, None] * (1 + pamp * pat[..., None]) * (1 + 0.03 * grain[..., None])
        rim = (r > 0.5 - rim_w).astype(np.float32)
        if rim_w < 0.05:
            rim = np.maximum(rim, ((r > 0.5 - rim_w - 0.035) & (r < 0.5 - 0.03 - rim_w)).astype(np.float32))
        rim = cv2.GaussianBlur(rim, (0, 0), 0.8)[..., None]
        img = img * (1 - rim) + rim_col[None, None] * rim
        img = img * (1 - m) + ink[None, None] * m
        out = np.empty((TEX, TEX, 4), np.float32)
        out[..., :3] = np.clip(img, 0, 1)
        out[..., 3] = 0.6 + 0.6 * (im == 'gold') * m[..., 0]
        tiles[f['id']] = out
    edge['print'] = rim_col if painted else edge['core'] * 1.25
    return {'kind': 'tokens', 'glare_p': 0.35 if finish == 'laminate' else 0.15, 'faces': faces, 'tiles': tiles, 'edge': edge, 'mat': mat, 'bg_mode': bg_mode,
            'pattern': pattern, 'ink_mode': ink_mode, 'rim_w': rim_w, 'finish': finish, 'ext': ext,
            'thick': rng.uniform(0.06, 0.15), 'bgs': sorted(set(bgmap.values()))}


def make_set(rng, kind):
    W, H = SIZES[int(rng.integers(len(SIZES)))]
    st = make_dice_set(rng) if kind == 'dice' else make_token_set(rng)
    st['W'], st['H'] = W, H
    st['px'] = min(W, H) * rng.uniform(0.095, 0.145)
    st['tables'] = [k for k in TABLES if rng.random() < 0.85] or ['wood', 'cloth']
    if kind != 'dice' and 'samecolour' in st['tables'] and rng.random() < 0.5:
        st['tables'].remove('samecolour')
    return st


# ----------------------------------------------------------------------------- scene
def make_camera(rng, st):
    W, H = st['W'], st['H']
    hfov = math.radians(rng.uniform(30, 52))
    f = W / 2 / math.tan(hfov / 2)
    # tilt up to 25 degrees, but keep the steepest view at the picture's top edge under ~37 degrees so the
    # top face always stays the dominant face of a die
    vhalf = math.degrees(math.atan(H / 2 / f))
    tmax = max(4.0, min(25.0, 37.0 - vhalf))
    tilt = math.radians(rng.uniform(0, tmax) if rng.random() < 0.85 else rng.uniform(0, 6))
    cam = Cam(W, H, f, tilt, math.radians(rng.normal(0, 2.5)), f * rng.uniform(0.9, 1.12),
              W / 2 + rng.normal(0, W * 0.01), H / 2 + rng.normal(0, H * 0.01))
    return cam


def make_light(rng, cam, glare_p=0.2):
    """A point lamp (optionally placed so its mirror glint lands inside the picture) plus ambient."""
    el = math.radians(rng.uniform(42, 80))
    az = rng.uniform(0, 2 * math.pi)
    dist = cam.f * rng.uniform(2.5, 7)
    pos = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)]) * dist
    if rng.random() < glare_p:
        M = cam.backproject(rng.uniform(0.1, 0.9) * cam.W, rng.uniform(0.1, 0.9) * cam.H)[0]
        d = M - cam.C
        d /= np.linalg.norm(d)
        r = d * [1, 1, -1]
        pos = M + r * dist
        el = math.asin(float(r[2]))
    kind = str(rng.choice(['neutral', 'warm', 'cool'], p=[0.4, 0.33, 0.27]))
    k = rng.uniform(0.3, 0.9)
    col = {'neutral': np.array([1.0, 1.0, 1.0]), 'warm': np.array([1.0, 0.86, 0.66]),
           'cool': np.array([0.86, 0.95, 1.06])}[kind] ** k
    ambc = np.array([1.0, 1.0, 1.0]) if kind == 'neutral' else np.array([0.92, 0.97, 1.06]) ** (k * 0.5)
    if kind == 'cool':
        ambc = np.array([1.02, 1.0, 0.98])
    amb = rng.uniform(0.32, 0.5)
    dI = rng.uniform(0.55, 0.85)
    norm_ = 1.0 / (amb + dI * math.sin(el)) * rng.uniform(0.85, 1.05)
    ld = pos / np.linalg.norm(pos)
    e1 = np.cross(ld, [0.0, 0.0, 1.0]) if abs(ld[2]) < 0.99 else np.array([1.0, 0, 0])
    e1 = rot_axis(e1 / np.linalg.norm(e1), ld, rng.uniform(0, math.pi))
    e2 = np.cross(ld, e1)
    return {'pos': pos.astype(np.float32), 'col': (col * norm_).astype(np.float32),
            'amb': (ambc * amb * norm_).astype(np.float32), 'dI': float(dI), 'el': el, 'kind': kind,
            'e1': e1.astype(np.float32), 'e2': e2.astype(np.float32),
            'wa': rng.uniform(0.03, 0.08), 'wb': rng.uniform(0.015, 0.05)}


def rot_axis(v, axis, ang):
    return rodrigues(axis, ang) @ v


def obj_hull(cam, ob):
    return cv2.convexHull(cam.project(ob.pts).astype(np.float32)).reshape(-1, 2)


def table_texture(rng, cam, style, s_world, colour_hint=None, fn=None):
    W, H = cam.W, cam.H
    m = 0.06
    corners = cam.backproject(np.array([-m * W, (1 + m) * W, (1 + m) * W, -m * W]),
                              np.array([-m * H, -m * H, (1 + m) * H, (1 + m) * H]))
    X0, X1 = corners[:, 0].min(), corners[:, 0].max()
    Y0, Y1 = corners[:, 1].min(), corners[:, 1].max()
    sc = min(1.0, math.sqrt(1.7 * W * H / ((X1 - X0) * (Y1 - Y0))))
    tw, th = math.ceil((X1 - X0) * sc), math.ceil((Y1 - Y0) * sc)
    s_tex = s_world * sc
    if fn is not None:
        tex = fn(rng, th, tw, s_tex)
    elif style == 'samecolour':
        tex = tex_plain(rng, th, tw, s_tex, colour_hint) if rng.random() < 0.6 else tex_felt(rng, th, tw, s_tex,
                                                                                             colour_hint)
    else:
        tex = TABLES[style](rng, th, tw, s_tex)
    Tm = np.array([[1 / sc, 0, X0], [0, -1 / sc, Y1], [0, 0, 1]])
    Hm = cam.plane_h(0.0) @ Tm
    return cv2.warpPerspective(tex.astype(np.float32), Hm, (W, H), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)


def tray_geometry(rng, cam, s_world):
    W, H = cam.W, cam.H
    mx, my = rng.uniform(0.03, 0.12) * W, rng.uniform(0.04, 0.14) * H
    c = cam.backproject(np.array([mx, W - mx, W - mx, mx]), np.array([my, my, H - my, H - my]))
    xl, xr = max(c[0, 0], c[3, 0]), min(c[1, 0], c[2, 0])
    yfar, ynear = min(c[0, 1], c[1, 1]), max(c[2, 1], c[3, 1])
    return {'rect': (xl, xr, ynear, yfar), 'hw': s_world * rng.uniform(0.45, 0.9)}


def draw_tray(rng, cam, img, tray, light, s_world, mask_only=False):
    """Draws walls and rim over the lit floor; returns the mask of visible floor."""
    W, H = cam.W, cam.H
    xl, xr, yn, yf = tray['rect']
    hw = tray['hw']
    fl = np.array([[xl, yn, 0], [xr, yn, 0], [xr, yf, 0], [xl, yf, 0]])
    top = fl + [0, 0, hw]
    rim_alb = None
    if not mask_only and rng.random() < 0.6:
        rim_alb = table_texture(rng, cam, str(rng.choice(['wood', 'cork', 'slate'])), s_world)
    rim_col = rgbf([(70, 40, 24), (30, 28, 28), (120, 80, 50), (90, 20, 24)][int(rng.integers(4))])
    floor_mask = np.zeros((H, W), np.uint8)
    cv2.fillConvexPoly(floor_mask, np.round(cam.project(fl) * ONE).astype(np.int32), 255, cv2.LINE_AA, SHIFT)
    walls = [(0, 1, np.array([0, 1.0, 0])), (1, 2, np.array([-1.0, 0, 0])), (2, 3, np.array([0, -1.0, 0])),
             (3, 0, np.array([1.0, 0, 0]))]
    lpos = light['pos'].astype(float)
    out = img.copy() if not mask_only else img
    wall_any = np.zeros((H, W), np.uint8)
    for a, b, nrm in walls:
        mid = (fl[a] + fl[b]) / 2 + [0, 0, hw / 2]
        if (cam.C - mid) @ nrm <= 0:
            continue
        quad = cam.project(np.array([fl[a], fl[b], top[b], top[a]]))
        x0, y0 = np.clip(np.floor(quad.min(0)).astype(int) - 1, 0, [W, H])
        x1, y1 = np.clip(np.ceil(quad.max(0)).astype(int) + 2, 0, [W, H])
        if x1 <= x0 or y1 <= y0:
            continue
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(m, np.round((quad - [x0, y0]) * ONE).astype(np.int32), 255, cv2.LINE_AA, SHIFT)
        wall_any[y0:y1, x0:x1] = np.maximum(wall_any[y0:y1, x0:x1], m)
        if mask_only:
            continue
        lv = lpos - mid
        lv /= np.linalg.norm(lv)
        lit = (light['amb'] + light['dI'] * max(0.0, float(lv @ nrm)) * light['col']).astype(np.float32)
        a_ = (m.astype(np.float32) / 255)[..., None]
        yy = np.linspace(0.85, 1.0, y1 - y0, dtype=np.float32)[:, None, None]
        out[y0:y1, x0:x1] = out[y0:y1, x0:x1] * (1 - a_) + (rim_col * lit) * yy * a_
    # rim top: everything outside the inner top rectangle
    inner = np.zeros((H, W), np.uint8)
    cv2.fillConvexPoly(inner, np.round(cam.project(top) * ONE).astype(np.int32), 255, cv2.LINE_AA, SHIFT)
    vis = (floor_mask > 128) & (wall_any < 128) & (inner > 128)
    if mask_only:
        return img, vis
    rim_a = (1 - inner.astype(np.float32) / 255)[..., None]
    lz = (light['amb'] + light['dI'] * math.sin(light['el']) * light['col']).astype(np.float32)
    rim_img = (rim_alb * 0.8 + rim_col * 0.3 if rim_alb is not None else np.broadcast_to(rim_col, (H, W, 3))) * lz
    edge = cv2.morphologyEx(inner, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)).astype(np.float32) / 255
    rim_img = rim_img + 0.25 * edge[..., None]
    out = out * (1 - rim_a) + rim_img * rim_a
    return out, vis


def wall_shadow(cam, tray, light, shadow):
    xl, xr, yn, yf = tray['rect']
    hw = tray['hw']
    fl = np.array([[xl, yn, 0], [xr, yn, 0], [xr, yf, 0], [xl, yf, 0]])
    lpos = light['pos'].astype(float)
    for a in range(4):
        b = (a + 1) % 4
        tops = []
        for q in (fl[b], fl[a]):
            P = q + [0, 0, hw]
            lv = lpos - P
            lv /= np.linalg.norm(lv)
            tops.append(P - lv * (P[2] / lv[2]))
        quad = np.array([fl[a], fl[b], tops[0], tops[1]])
        pts = cam.project(quad)
        hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
        cv2.fillConvexPoly(shadow, np.round(hull * ONE).astype(np.int32), 1.0, cv2.LINE_AA, SHIFT)


def place_objects(rng, cam, st, items, s_world, allowed, crop_mode):
    W, H = cam.W, cam.H
    placed, hulls = [], []
    margin = max(6, int(0.035 * max(W, H)))
    cluster = rng.random() < 0.4
    gap = rng.uniform(1.03, 1.12)
    for typ, face in items:
        for _attempt in range(250):
            if crop_mode:
                u, v = rng.uniform(0.42 * W, 0.58 * W), rng.uniform(0.42 * H, 0.58 * H)
            elif cluster and placed and rng.random() < 0.6:
                ref = hulls[int(rng.integers(len(hulls)))].mean(0)
                a = rng.uniform(0, 2 * math.pi)
                dd = st['px'] * rng.uniform(1.1, 1.8)
                u, v = ref[0] + dd * math.cos(a), ref[1] + dd * math.sin(a)
            else:
                u, v = rng.uniform(margin, W - margin), rng.uniform(margin, H - margin)
            P = cam.backproject(u, v, 0.0)[0]
            if st['kind'] == 'dice':
                dt = next(d for d in st['types'] if d['name'] == typ)
                ob = make_die(dt, face, s_world, st['radius'] * s_world, rng, P[0], P[1], st['mat'])
            else:
                ob = make_token(st, face, s_world, s_world * st['thick'], rng, P[0], P[1], st['mat'])
            hull = obj_hull(cam, ob)
            if hull[:, 0].min() < margin or hull[:, 1].min() < margin or hull[:, 0].max() > W - margin \
                    or hull[:, 1].max() > H - margin:
                continue
            if allowed is not None:
                hx = np.clip(hull.astype(int), 0, [W - 1, H - 1])
                if not allowed[hx[:, 1], hx[:, 0]].all():
                    continue
            c = hull.mean(0)
            big = ((hull - c) * gap + c).astype(np.float32)
            if any(cv2.intersectConvexConvex(big, h2)[0] > 0 for h2 in hulls):
                continue
            placed.append(ob)
            hulls.append(big)
            break
    return placed


def object_shadows(cam, objs, light, shadow, contact):
    H, W = shadow.shape
    lpos = light['pos'].astype(float)
    for ob in objs:
        P = ob.pts.astype(float)
        lv = lpos - ob.O
        lv /= np.linalg.norm(lv)
        proj = P - lv[None] * (P[:, 2:3] / lv[2])
        hull = cv2.convexHull(cam.project(np.vstack([proj, P[P[:, 2] < ob.size * 0.2]])).astype(np.float32))
        hull = hull.reshape(-1, 2)
        foot = cam.project(P[P[:, 2] < P[:, 2].mean()])
        fc = foot.mean(0)
        foot = cv2.convexHull(((foot - fc) * 1.04 + fc).astype(np.float32)).reshape(-1, 2)
        size_px = float(np.ptp(foot[:, 0]) + 1)
        for poly, sig, tgt, strength in ((hull, 0.1, shadow, 1.0), (foot, 0.06, contact, 1.0)):
            s = max(1.0, sig * size_px)
            pad = int(3 * s) + 2
            x0, y0 = int(max(0, poly[:, 0].min() - pad)), int(max(0, poly[:, 1].min() - pad))
            x1, y1 = int(min(W, poly[:, 0].max() + pad)), int(min(H, poly[:, 1].max() + pad))
            if x1 <= x0 or y1 <= y0:
                continue
            m = np.zeros((y1 - y0, x1 - x0), np.float32)
            cv2.fillConvexPoly(m, np.round((poly - [x0, y0]) * ONE).astype(np.int32), 1.0, cv2.LINE_AA, SHIFT)
            m = cv2.GaussianBlur(m, (0, 0), s) * strength
            tgt[y0:y1, x0:x1] = np.maximum(tgt[y0:y1, x0:x1], m)


def barrel(img, k):
    H, W = img.shape[:2]
    cx, cy = W / 2, H / 2
    rn = math.hypot(cx, cy)
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
    dx, dy = (xs - cx) / rn, (ys - cy) / rn
    f = (1 + k * (dx * dx + dy * dy)) / (1 + k)
    return cv2.remap(img, cx + dx * rn * f, cy + dy * rn * f, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def barrel_point(x, y, W, H, k):
    """Where a source point lands in the barrel-distorted output."""
    cx, cy = W / 2, H / 2
    rn = math.hypot(cx, cy)
    sx, sy = (x - cx) / rn, (y - cy) / rn
    dx, dy = sx, sy
    for _ in range(12):
        f = (1 + k * (dx * dx + dy * dy)) / (1 + k)
        dx, dy = sx / f, sy / f
    return cx + dx * rn, cy + dy * rn


def render_scene(rng, st, items, crop_mode=False):
    """Returns (rgb uint8 image, truth list, list of silhouette boxes).

    With crop_mode only a window around one object is rendered (the camera keeps the full
    picture's geometry, so perspective still depends on where the object sits)."""
    cam = make_camera(rng, st)
    light = make_light(rng, cam, st['glare_p'])
    zoom = rng.uniform(0.88, 1.12)
    px = st['px'] * zoom
    s_world = px * cam.C[2] / (cam.f + px)
    if crop_mode:
        W0, H0 = cam.W, cam.H
        half = int(px * 3.0 + 16)
        u, v = rng.uniform(0.2, 0.8) * W0, rng.uniform(0.2, 0.8) * H0
        wx0 = int(np.clip(u - half, 0, max(0, W0 - 2 * half)))
        wy0 = int(np.clip(v - half, 0, max(0, H0 - 2 * half)))
        cam = cam.window(wx0, wy0, min(2 * half, W0), min(2 * half, H0))
    W, H = cam.W, cam.H
    style = str(rng.choice(st['tables']))
    hint = None
    if style == 'samecolour':
        if st['kind'] == 'dice':
            hint = np.array(st['types'][int(rng.integers(len(st['types'])))]['rgb']) * rng.uniform(0.88, 1.06)
        else:
            hint = np.array(st['bgs'][int(rng.integers(len(st['bgs'])))]) * rng.uniform(0.88, 1.06)
        hint = np.clip(hint, 0, 255)
    tray = None
    if style == 'tray' and not crop_mode:
        tray = tray_geometry(rng, cam, s_world)
        floor_style = str(rng.choice(['felt', 'leather', 'cloth']))
        fcol = [(40, 110, 62), (30, 48, 96), (112, 30, 42), (40, 40, 44), (150, 24, 30)][int(rng.integers(5))]
        tex_fn = {'felt': tex_felt, 'leather': tex_leather, 'cloth': tex_cloth}[floor_style]
        table = table_texture(rng, cam, 'floor', s_world, fn=lambda r, h, w, s: tex_fn(r, h, w, s, fcol))
    else:
        if style == 'tray':
            style = 'cloth'
        table = table_texture(rng, cam, style, s_world, hint)
    allowed = None
    if tray is not None:
        _, vis = draw_tray(rng, cam, table, tray, light, s_world, mask_only=True)
        er = max(3, int(0.01 * W))
        allowed = cv2.erode(vis.astype(np.uint8), np.ones((er, er), np.uint8)).astype(bool)
    objs = place_objects(rng, cam, st, items, s_world, allowed, crop_mode)
    shadow = np.zeros((H, W), np.float32)
    contact = np.zeros((H, W), np.float32)
    if tray is not None:
        wall_shadow(cam, tray, light, shadow)
        sm = cv2.resize(shadow, (W // 4, H // 4), interpolation=cv2.INTER_AREA)
        sm = cv2.GaussianBlur(sm, (0, 0), max(0.5, 0.01 * px))
        shadow = cv2.resize(sm, (W, H), interpolation=cv2.INTER_LINEAR)
    object_shadows(cam, objs, light, shadow, contact)
    lz = light['dI'] * math.sin(light['el'])
    sh_str = rng.uniform(0.65, 0.95)
    amb = light['amb'].reshape(1, 1, 3)
    dirc = (lz * light['col']).astype(np.float32).reshape(1, 1, 3)
    c1 = (1 - 0.55 * contact)[..., None]
    lit = amb * c1 + dirc * ((1 - sh_str * shadow) * (1 - 0.5 * contact))[..., None]
    img = table * lit
    if tray is not None:
        img, _ = draw_tray(rng, cam, img, tray, light, s_world)
    truth, boxes = [], []
    for ob in objs:
        r = render_object(cam, ob, light)
        if r is None:
            continue
        x0, y0, col, a, _fpx = r
        hh, ww = a.shape
        img[y0:y0 + hh, x0:x0 + ww] = img[y0:y0 + hh, x0:x0 + ww] * (1 - a[..., None]) + col
        ys, xs = np.nonzero(a > 0.35)
        bx0, bx1, by0, by1 = x0 + xs.min(), x0 + xs.max() + 1, y0 + ys.min(), y0 + ys.max() + 1
        tc = cam.project(ob.top)[0]
        truth.append([float(tc[0]), float(tc[1]), bx0, by0, bx1, by1, ob.typ, ob.face])
    img = exposure(rng, img)
    img, k = optics(rng, img, px, allow_barrel=not crop_mode)
    out = []
    for tx, ty, bx0, by0, bx1, by1, typ, face in truth:
        if k:
            tx, ty = barrel_point(tx, ty, W, H, k)
            xs_, ys_ = [], []
            for qx, qy in ((bx0, by0), (bx1, by0), (bx0, by1), (bx1, by1), ((bx0 + bx1) / 2, by0),
                           ((bx0 + bx1) / 2, by1), (bx0, (by0 + by1) / 2), (bx1, (by0 + by1) / 2)):
                a_, b_ = barrel_point(qx, qy, W, H, k)
                xs_.append(a_)
                ys_.append(b_)
            bx0, bx1, by0, by1 = min(xs_), max(xs_), min(ys_), max(ys_)
        out.append({'x': round(float(tx), 1), 'y': round(float(ty), 1), 'w': round(float(bx1 - bx0), 1),
                    'h': round(float(by1 - by0), 1), 'type': typ, 'face': face})
        boxes.append((bx0, by0, bx1, by1))
    return img, out, boxes


def exposure(rng, img):
    """Exposure, vignette, gradient and window patch, computed on a coarse grid; white balance; gamma."""
    H, W = img.shape[:2]
    h, w = max(8, H // 8), max(8, W // 8)
    ys = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    xs = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    gain = np.full((h, w), rng.uniform(0.85, 1.15), np.float32)
    v = rng.uniform(0, 0.45)
    gain *= 1 - v * ((xs * xs + ys * ys) / 2) ** rng.uniform(0.8, 1.6)
    if rng.random() < 0.5:
        a = rng.uniform(0, 2 * math.pi)
        gain *= 1 + rng.uniform(0.05, 0.22) * (xs * math.cos(a) + ys * math.sin(a))
    if rng.random() < 0.35:
        m = np.zeros((h, w), np.float32)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        rw, rh = rng.uniform(0.15, 0.45) * w, rng.uniform(0.15, 0.45) * h
        box = cv2.boxPoints(((cx, cy), (rw, rh), rng.uniform(0, 90)))
        cv2.fillConvexPoly(m, np.round(box * ONE).astype(np.int32), 1.0, cv2.LINE_AA, SHIFT)
        m = cv2.GaussianBlur(m, (0, 0), 0.12 * w)
        gain *= 1 + rng.uniform(0.15, 0.4) * m
    wb = np.exp(rng.normal(0, 0.03, 3)).astype(np.float32)
    gain3 = cv2.resize(gain, (W, H), interpolation=cv2.INTER_LINEAR)[..., None] * wb.reshape(1, 1, 3)
    out = np.clip(img * gain3, 0, 1)
    return cv2.pow(out, 1 / rng.uniform(0.9, 1.12))


def optics(rng, img, px, allow_barrel=True):
    H, W = img.shape[:2]
    r = rng.random()
    if r < 0.15:
        rad = rng.uniform(1.1, max(1.2, 0.022 * px))
        k = math.ceil(rad) * 2 + 1
        ker = np.zeros((k, k), np.uint8)
        cv2.circle(ker, (k // 2 * 16, k // 2 * 16), iround(rad * 16), 255, -1, cv2.LINE_AA, 4)
        ker = ker.astype(np.float32)
        img = cv2.filter2D(img, -1, ker / ker.sum())
    elif r < 0.3:
        ln = rng.uniform(3, max(3.5, 0.05 * px))
        k = math.ceil(ln) | 1
        ker = np.zeros((k, k), np.uint8)
        a = rng.uniform(0, math.pi)
        c = k // 2
        p0 = (iround((c - ln / 2 * math.cos(a)) * 16), iround((c - ln / 2 * math.sin(a)) * 16))
        p1 = (iround((c + ln / 2 * math.cos(a)) * 16), iround((c + ln / 2 * math.sin(a)) * 16))
        cv2.line(ker, p0, p1, 255, 1, cv2.LINE_AA, 4)
        ker = ker.astype(np.float32)
        img = cv2.filter2D(img, -1, ker / ker.sum())
    else:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.35, 0.8))
    k = 0.0
    if allow_barrel and rng.random() < 0.4:
        k = rng.uniform(0.02, 0.08)
        img = barrel(img, k)
    sig = rng.uniform(0.004, 0.025)
    noise = rng.standard_normal((H, W), dtype=np.float32)[..., None] * sig
    noise = noise + rng.standard_normal((H, W, 3), dtype=np.float32) * np.float32(sig * 0.5)
    img = np.clip(img + noise * np.sqrt(np.clip(img, 0.02, 1)) * 1.6, 0, 1)
    out = (img * 255 + 0.5).astype(np.uint8)
    if rng.random() < 0.6:
        q = int(rng.integers(38, 92))
        _ok, enc = cv2.imencode('.jpg', cv2.cvtColor(out, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, q])
        out = cv2.cvtColor(cv2.imdecode(enc, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    return out, k


def crop_example(rng, img, box):
    H, W = img.shape[:2]
    bx0, by0, bx1, by1 = box
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
    size = max(bx1 - bx0, by1 - by0)
    bw, bh = bx1 - bx0, by1 - by0
    for _ in range(30):
        ang = rng.uniform(-180, 180) if rng.random() < 0.7 else 0.0
        ca, sa = abs(math.cos(math.radians(ang))), abs(math.sin(math.radians(ang)))
        ex, ey = ca * bw + sa * bh, sa * bw + ca * bh  # object extent in the crop's frame
        mfac = rng.uniform(1.12, 1.7)
        side_w = ex * mfac * rng.uniform(0.96, 1.06)
        side_h = ey * mfac * rng.uniform(0.96, 1.06)
        jmax = 0.3 * max(0.0, min(side_w - ex, side_h - ey))
        ccx, ccy = cx + rng.uniform(-1, 1) * jmax, cy + rng.uniform(-1, 1) * jmax
        pts = cv2.boxPoints(((ccx, ccy), (side_w, side_h), ang))
        if pts[:, 0].min() >= 0 and pts[:, 1].min() >= 0 and pts[:, 0].max() < W - 1 and pts[:, 1].max() < H - 1:
            break
    else:
        ang, ccx, ccy, side_w, side_h = 0.0, cx, cy, size * 1.15, size * 1.15
    scale = rng.uniform(0.85, 1.2)
    ow, oh = iround(side_w * scale), iround(side_h * scale)
    M = cv2.getRotationMatrix2D((ccx, ccy), ang, scale)
    M[0, 2] += ow / 2 - ccx
    M[1, 2] += oh / 2 - ccy
    return cv2.warpAffine(img, M, (ow, oh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def save(path, rgb):
    cv2.imwrite(path, cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_PNG_COMPRESSION, 1])


def describe(st, seed):
    faces = ', '.join(f['id'] for f in st['faces'])
    if st['kind'] == 'dice':
        types = ', '.join(t['name'] for t in st['types'])
        return (f"# fourth-hand dice {st['W']}x{st['H']}: types {types} (close pair {'/'.join(st['close'])}); "
                f"faces {faces}; {st['finish']} {st['body']} bodies, {st['ink_mode']} icons")
    return (f"# fourth-hand tokens {st['W']}x{st['H']}: type token; symbols {faces}; "
            f"{st['bg_mode']} backgrounds, {st['pattern']} pattern, {st['ink_mode']} ink, {st['finish']} finish")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('out')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--kind', choices=['dice', 'tokens'], default='dice')
    ap.add_argument('--examples', choices=['crops', 'photos'], default='crops')
    ap.add_argument('--scenes', type=int, default=40)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    st = make_set(rng, args.kind)
    setdir = os.path.join(args.out, 'set')
    os.makedirs(setdir, exist_ok=True)
    with open(os.path.join(setdir, 'set.toml'), 'w') as fh:
        fh.write(f'name = "fourth-hand-{args.seed}"\nkind = "{args.kind}"\n{describe(st, args.seed)}\n')
    types = [t['name'] for t in st['types']] if args.kind == 'dice' else ['token']
    fids = [f['id'] for f in st['faces']]
    for typ in types:
        for fid in fids:
            d = os.path.join(setdir, 'examples', typ, fid)
            os.makedirs(d, exist_ok=True)
            for k in range(5):
                for _ in range(5):
                    img, tr, boxes = render_scene(rng, st, [(typ, fid)], crop_mode=args.examples == 'crops')
                    if tr:
                        break
                if args.examples == 'crops':
                    img = crop_example(rng, img, boxes[0])
                save(os.path.join(d, f'{k + 1:02d}.png'), img)
    sdir = os.path.join(args.out, 'scenes')
    os.makedirs(sdir, exist_ok=True)
    truth = {}
    for i in range(args.scenes):
        n = int(rng.integers(1, 13))
        items = [(types[int(rng.integers(len(types)))], fids[int(rng.integers(len(fids)))]) for _ in range(n)]
        img, tr, _ = render_scene(rng, st, items)
        name = f'{i:03d}.png'
        save(os.path.join(sdir, name), img)
        truth[name] = tr
    with open(os.path.join(sdir, 'truth.json'), 'w') as fh:
        json.dump(truth, fh, indent=1)


if __name__ == '__main__':
    main()
