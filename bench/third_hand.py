"""A third, independent renderer of custom dice and bag tokens (stand-in for a judge's hidden set).

It draws a teach-by-example set and table scenes in its own look: procedural icons (Fourier blobs,
k-pointed stars, rings of dots, bars, arrows, keys, waves, two-part icons, ... never fonts or pips)
printed, engraved or embossed; rounded-square dice with bevels, tilt sides, light gradients and
glare; printed or thick cardboard tokens with border rings and one- or two-colour symbols; felt,
dice trays, paper with text lines, wood, marble, tiles, plain dark/white and same-colour tables;
hard and soft shadows, colour casts, vignettes, blur, noise, JPEG and a mild camera perspective.
Everything is drawn from ``numpy.random.default_rng(seed)``::

    .venv/bin/python bench/third_hand.py OUT --seed S --kind dice|tokens --examples crops|photos --scenes 40
    .venv/bin/python bench/vision_sets.py --set OUT/set --scenes OUT/scenes --per-face 5

writes ``OUT/set/set.toml`` (name = "third-hand-S", kind), ``OUT/set/examples/<type>/<face>/01..05.png``
(one object each: a tight crop, or a whole 640x480 table photo), ``OUT/scenes/NNN.png`` (640x480, 1-12
objects) and ``OUT/scenes/truth.json``: file -> [{"x", "y", "w", "h", "type", "face"}], x/y the centre
of the top face in pixels, w/h its bounding size. Dice types are colour names (one pair differs only
by a fairly close hue); tokens are all of type "token".
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import time
from pathlib import Path

import cv2
import numpy as np

W, H, N = 640, 480, 256  # scene size, icon canvas size

PALETTE = {
    "crimson": (0.75, 0.07, 0.12), "orange": (0.96, 0.45, 0.07), "navy": (0.08, 0.14, 0.45),
    "azure": (0.12, 0.42, 0.85), "violet": (0.42, 0.16, 0.68), "magenta": (0.80, 0.12, 0.55),
    "forest": (0.08, 0.42, 0.20), "teal": (0.02, 0.50, 0.50), "black": (0.07, 0.07, 0.08),
    "ivory": (0.93, 0.91, 0.85), "maple": (0.86, 0.72, 0.50), "yellow": (0.96, 0.80, 0.12),
    "lime": (0.55, 0.80, 0.18), "mint": (0.62, 0.90, 0.76), "peach": (1.00, 0.75, 0.62),
    "sky": (0.62, 0.80, 0.96), "lilac": (0.78, 0.68, 0.92), "brown": (0.42, 0.25, 0.13),
    "slate": (0.45, 0.50, 0.56),
}
CLOSE_PAIRS = [("crimson", "orange"), ("navy", "azure"), ("violet", "magenta"), ("forest", "teal")]


def lum(c):
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def distinct(a, b):
    """Clearly different colours: far apart, and not merely a brighter/darker copy (light varies 0.6-1.3)."""
    a, b = np.asarray(a), np.asarray(b)
    return np.linalg.norm(a - b) > 0.5 and np.linalg.norm(a / a.sum() - b / b.sum()) > 0.08


# ----------------------------------------------------------------------------- icons (256x256 masks)
def _p(pts):
    return np.round((np.asarray(pts, float) + 1) * N / 2 * 16).astype(np.int32)


def _th(t):
    return max(1, int(round(t * N / 2)))


def _fill(m, pts, v=255):
    cv2.fillPoly(m, [_p(pts).reshape(-1, 2)], v, cv2.LINE_AA, 4)


def _circ(m, c, r, v=255, th=None):
    cv2.circle(m, tuple(_p(c)), int(round(r * N / 2 * 16)), v, -1 if th is None else _th(th), cv2.LINE_AA, 4)


def _lines(m, pts, th, closed=False):
    cv2.polylines(m, [_p(pts).reshape(-1, 2)], closed, 255, _th(th), cv2.LINE_AA, 4)


def _ngon(n, r, rot=0.0, c=(0, 0)):
    a = rot + np.arange(n) * 2 * np.pi / n
    return np.stack([c[0] + r * np.cos(a), c[1] + r * np.sin(a)], 1)


def i_blob(m, rng):
    t = np.linspace(0, 2 * np.pi, 240, endpoint=False)
    r = np.ones_like(t)
    for k in rng.choice([2, 3, 4, 5], 2, replace=False):
        r += rng.uniform(0.12, 0.22) * np.cos(k * t + rng.uniform(0, 6.3))
    r *= 0.92 / r.max()
    _fill(m, np.stack([r * np.cos(t), r * np.sin(t)], 1))
    return "blob"


def i_star(m, rng):
    k = int(rng.integers(3, 9))
    a = np.arange(2 * k) * np.pi / k - np.pi / 2
    r = np.where(np.arange(2 * k) % 2 == 0, 0.95, rng.uniform(0.32, 0.5) if k > 4 else 0.3)
    _fill(m, np.stack([r * np.cos(a), r * np.sin(a)], 1))
    if rng.random() < 0.35:
        _circ(m, (0, 0), 0.16, 0)
    return f"star{k}"


def i_ring(m, rng):
    _circ(m, (0, 0), 0.82, th=0.17)
    _circ(m, (0, 0), 0.42, th=0.15)
    return "ring"


def i_dots(m, rng):
    n = int(rng.choice([3, 5, 6, 7]))  # a ring of dots, never a pip layout
    for x, y in _ngon(n, 0.64, rng.uniform(0, 6.3)):
        _circ(m, (x, y), 0.22 if n < 6 else 0.17)
    return f"dots{n}"


def i_bars(m, rng):
    n = int(rng.integers(2, 5))
    w = 1.7 / (2 * n - 1)
    for i in range(n):
        x0, top = -0.85 + 2 * i * w, 0.85 - 1.6 * (i + 1) / n
        _fill(m, [(x0, top), (x0 + w, top), (x0 + w, 0.85), (x0, 0.85)])
    return f"bars{n}"


def i_arrow(m, rng):
    _fill(m, [(-0.9, -0.14), (0.25, -0.14), (0.25, -0.5), (0.92, 0), (0.25, 0.5), (0.25, 0.14), (-0.9, 0.14)])
    if rng.random() < 0.5:
        _fill(m, [(-0.9, -0.45), (-0.5, 0), (-0.9, 0.45), (-0.6, 0)])
    return "arrow"


def i_cross(m, rng):
    w, x = rng.uniform(0.16, 0.22), rng.random() < 0.5
    arms = [[(-0.9, -w), (0.9, -w), (0.9, w), (-0.9, w)], [(-w, -0.9), (w, -0.9), (w, 0.9), (-w, 0.9)]]
    for a in arms:
        a = np.array(a)
        if x:
            a = a @ np.array([[1, 1], [-1, 1]]) / math.sqrt(2)
        _fill(m, a)
    return "xmark" if x else "plus"


def i_moon(m, rng):
    _circ(m, (0, 0), 0.88)
    _circ(m, (rng.uniform(0.35, 0.5), -0.25), 0.72, 0)
    return "moon"


def i_bolt(m, rng):
    p = np.array([(0.2, -0.95), (-0.55, 0.12), (-0.05, 0.12), (-0.25, 0.95), (0.6, -0.18), (0.08, -0.18)])
    _fill(m, p + rng.uniform(-0.05, 0.05, p.shape))
    return "bolt"


def i_sun(m, rng):
    _circ(m, (0, 0), 0.36)
    n = int(rng.integers(7, 12))
    for a in np.arange(n) * 2 * np.pi / n:
        _lines(m, [(0.54 * math.cos(a), 0.54 * math.sin(a)), (0.9 * math.cos(a), 0.9 * math.sin(a))], 0.11)
    return "sun"


def i_key(m, rng):
    _circ(m, (-0.55, 0), 0.34, th=0.15)
    _fill(m, [(-0.22, -0.09), (0.92, -0.09), (0.92, 0.09), (-0.22, 0.09)])
    for x in (0.5, 0.8):
        _fill(m, [(x - 0.08, 0), (x + 0.08, 0), (x + 0.08, 0.4), (x - 0.08, 0.4)])
    return "key"


def i_waves(m, rng):
    n = int(rng.integers(2, 4))
    x = np.linspace(-0.85, 0.85, 60)
    for y0 in np.linspace(-0.55, 0.55, n):
        _lines(m, np.stack([x, y0 + 0.18 * np.sin(x * 2 * np.pi / 0.85)], 1), 0.14)
    return f"w{n}"


def i_grid(m, rng):
    cells = rng.choice(9, 5, replace=False)
    for c in cells:
        x, y = -0.9 + 0.62 * (c % 3), -0.9 + 0.62 * (c // 3)
        _fill(m, [(x, y), (x + 0.54, y), (x + 0.54, y + 0.54), (x, y + 0.54)])
    return "grid"


def i_hex(m, rng):
    n = int(rng.integers(5, 7))
    _lines(m, _ngon(n, 0.84, rng.uniform(0, 1)), 0.15, True)
    _circ(m, (0, 0), 0.24)
    return "hex" if n == 6 else "pent"


def i_duo(m, rng):
    _fill(m, [(-0.92, 0.55), (-0.1, 0.55), (-0.51, -0.4)])
    _fill(m, [(0.1, -0.7), (0.85, -0.7), (0.85, 0.05), (0.1, 0.05)])
    _fill(m, [(0.1, 0.3), (0.85, 0.3), (0.85, 0.5), (0.1, 0.5)])
    return "duo"


def i_drop(m, rng):
    _circ(m, (0, 0.3), 0.6)
    _fill(m, [(-0.56, 0.1), (0, -0.95), (0.56, 0.1)])
    return "drop"


def i_tree(m, rng):
    _fill(m, [(-0.75, 0.45), (0.75, 0.45), (0, -0.2)])
    _fill(m, [(-0.55, 0.0), (0.55, 0.0), (0, -0.92)])
    _fill(m, [(-0.12, 0.4), (0.12, 0.4), (0.12, 0.92), (-0.12, 0.92)])
    return "tree"


ICONS = [i_blob, i_star, i_ring, i_dots, i_bars, i_arrow, i_cross, i_moon, i_bolt, i_sun, i_key,
         i_waves, i_grid, i_hex, i_duo, i_drop, i_tree]


# ----------------------------------------------------------------------------- the set
def make_set(rng, kind):
    nf = int(rng.integers(5, 7)) if kind == "dice" else int(rng.integers(6, 9))
    icons = {}
    for g in rng.permutation(len(ICONS)):
        m = np.zeros((N, N), np.uint8)
        name = ICONS[g](m, rng)
        if name not in icons:
            icons[name] = m
        if len(icons) == nf:
            break
    cfg = {"kind": kind, "icons": icons, "ss": int(rng.choice([2, 3])), "base": rng.uniform(36, 81),
           "style": str(rng.choice(["ink", "engraved", "embossed"])) if kind == "dice" else "ink",
           "grad": rng.uniform(0.0, 0.25), "gloss": rng.uniform(0.0, 0.5), "depth": rng.uniform(0.025, 0.045),
           "fill": rng.choice([0.0, 0.75]), "types": {}}
    if kind == "dice":
        cfg.update(radius=rng.uniform(0.08, 0.45), tilt=rng.uniform(0.04, 0.12) if rng.random() < 0.6 else 0.0,
                   bevel=rng.uniform(0.06, 0.16), icon=rng.uniform(0.55, 0.7))
        ink_mode = rng.choice(["bw", "tinted", "colour"])
        pair = CLOSE_PAIRS[rng.integers(len(CLOSE_PAIRS))]
        names, want = list(pair), int(rng.integers(3, 6))
        for n in rng.permutation(list(PALETTE)):
            if len(names) >= want:
                break
            if all(distinct(PALETTE[n], PALETTE[o]) for o in names):
                names.append(str(n))
        for n in names:
            c = np.array(PALETTE[n], np.float32)
            dark = (lum(PALETTE[pair[0]]) + lum(PALETTE[pair[1]])) / 2 < 0.5 if n in pair else lum(c) < 0.5
            ink = {"bw": np.full(3, 0.95 if dark else 0.05),
                   "tinted": 0.82 + 0.15 * c if dark else 0.22 * c,
                   "colour": np.array((0.97, 0.8, 0.3) if dark else (0.1, 0.1, 0.35))}[ink_mode]
            cfg["types"][n] = (c, np.float32(ink), n == "maple")
    else:
        body = str(rng.choice(list(PALETTE)))
        c = np.array(PALETTE[body], np.float32)
        dark = lum(c) < 0.5
        others = [np.array(v, np.float32) for k, v in PALETTE.items() if abs(lum(v) - lum(c)) > 0.35]
        sym1 = np.full(3, 0.95 if dark else 0.06, np.float32) if rng.random() < 0.5 else others[rng.integers(len(others))]
        ring = [np.array(v, np.float32) for k, v in PALETTE.items() if np.linalg.norm(np.subtract(v, c)) > 0.45]
        cfg.update(radius=1.0, tilt=0.0, bevel=0.05, icon=0.7, body=c, sym1=sym1,
                   sym2=others[rng.integers(len(others))] if rng.random() < 0.5 else None,
                   two=str(rng.choice(["outline", "split"])),
                   ring=ring[rng.integers(len(ring))] if rng.random() < 0.5 else None,
                   edge=rng.uniform(0.05, 0.1) if rng.random() < 0.5 else 0.0)
        cfg["types"]["token"] = (c, sym1, False)
    return cfg


# ----------------------------------------------------------------------------- one object
def _shift(a, dx, dy):
    return cv2.warpAffine(a, np.float32([[1, 0, dx], [0, 1, dy]]), (a.shape[1], a.shape[0]))


def render_object(rng, cfg, ob, light):
    """Object patch at ss x resolution, downscaled: (rgb, alpha, top alpha, ox, oy)."""
    ss, D, tok = cfg["ss"], ob["D"], cfg["kind"] == "tokens"
    side = ob["side"]  # low-res px shift of the bottom (visible side / cardboard edge)
    P = int(D * 0.8 * 2 + 2 * math.hypot(*side) + 8) | 1
    C = np.array([ob["x"] + 0.5, ob["y"] + 0.5])
    o = np.floor(C).astype(int) - P // 2
    c_hi = (C - o) * ss
    Ph = P * ss
    t = ob["theta"]
    A = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]) @ np.array(
        [[1 + ob["sx"], ob["sh"]], [0, 1 + ob["sy"]]])
    Ai = np.linalg.inv(A).astype(np.float32)
    g = np.arange(Ph, dtype=np.float32) + 0.5
    X, Y = g[None, :] - np.float32(c_hi[0]), g[:, None] - np.float32(c_hi[1])
    h = D * ss / 2

    def sdf(dx=0.0, dy=0.0):
        u, v = Ai[0, 0] * (X - dx) + Ai[0, 1] * (Y - dy), Ai[1, 0] * (X - dx) + Ai[1, 1] * (Y - dy)
        if tok:
            return np.sqrt(u * u + v * v) - h, u, v
        r = cfg["radius"] * h
        qx, qy = np.abs(u) - (h - r), np.abs(v) - (h - r)
        return np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0) - r, u, v

    d, u, v = sdf()
    top = np.clip(0.5 - d, 0, 1)
    bot = np.zeros_like(top)
    if math.hypot(*side) > 0.2:
        for k in (0.34, 0.67, 1.0):
            bot = np.maximum(bot, np.clip(0.5 - sdf(side[0] * k * ss, side[1] * k * ss)[0], 0, 1))
    Lx, Ly = light["L"]
    body, ink, wood = cfg["types"][ob["type"]]
    col = np.empty((Ph, Ph, 3), np.float32)
    shade = 1 + cfg["grad"] * (X * Lx + Y * Ly) / h * 0.5
    if wood:
        shade = shade * (1 + 0.06 * np.sin(u / (h * 0.09) + 2.0 * np.sin(v / (h * 0.5))))
    col[:] = body * shade[..., None]
    # icon mask, sampled through the same (rotation, per-object perspective) map
    k = cfg["icon"] * (0.86 if tok and cfg["ring"] is not None else 1.0)
    s = N / (2 * h * k)
    M2 = np.zeros((2, 3), np.float32)
    M2[:, :2] = s * Ai
    M2[:, 2] = s * Ai @ (0.5 - c_hi) + N / 2 - 0.5
    icon = cfg["icons"][ob["face"]].astype(np.float32) / 255
    sig = 0.5 * s - 0.5
    if sig > 0.3:
        icon = cv2.GaussianBlur(icon, (0, 0), sig)
    M = cv2.warpAffine(icon, M2, (Ph, Ph), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)[..., None]
    e = cfg["depth"] * D * ss
    if tok:
        if cfg["ring"] is not None:
            rr = np.sqrt(u * u + v * v) / h
            ring = np.clip((0.07 - np.abs(rr - 0.86)) * h, 0, 1)[..., None]
            col = col * (1 - ring) + cfg["ring"] * shade[..., None] * ring
        c1, c2 = cfg["sym1"], cfg["sym2"]
        if c2 is None:
            col = col * (1 - M) + c1 * M
        elif cfg["two"] == "outline":
            icon2 = cv2.dilate(cfg["icons"][ob["face"]], np.ones((17, 17), np.uint8)).astype(np.float32) / 255
            rim = cv2.warpAffine(icon2, M2, (Ph, Ph), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)[..., None]
            col = col * (1 - rim) + c2 * rim
            col = col * (1 - M) + c1 * M
        else:
            S = np.clip(0.5 + u / ss, 0, 1)[..., None]
            col = col * (1 - M) + (c1 * (1 - S) + c2 * S) * M
    elif cfg["style"] == "ink":
        col = col * (1 - M) + ink * M
    else:
        Mt, Ma = _shift(M[..., 0], Lx * e, Ly * e)[..., None], _shift(M[..., 0], -Lx * e, -Ly * e)[..., None]
        if cfg["style"] == "engraved":  # darker cut, the wall away from the light catches it
            fill = max(cfg["fill"], 0.75 if lum(body) < 0.3 else 0.0)
            inside = body * 0.5 * (1 - fill) + ink * fill
            col = col * (1 - M) + inside * M
            lit, dim = np.clip(M - Mt, 0, 1), np.clip(M - Ma, 0, 1)
            col = col + 0.55 * lit * (1 - col) - 0.4 * dim * col
        else:  # raised: tinted top, lit rim toward the light, shadow away from it
            col = col * (1 - M) + (col * 0.35 + ink * 0.65) * M
            lit, sh = np.clip(M - Ma, 0, 1), np.clip(Ma - M, 0, 1)
            col = col + 0.5 * lit * (1 - col) - 0.45 * sh * col
    # bevel: rounded edges lit on the light side
    gy, gx = np.gradient(d)
    nn = np.sqrt(gx * gx + gy * gy) + 1e-6
    bev = np.clip(1 + d / (cfg["bevel"] * h), 0, 1) ** 1.5
    col *= (1 + bev * (0.35 * (gx * Lx + gy * Ly) / nn - 0.1))[..., None]
    if ob["glare"] > 0:
        gx0, gy0 = 0.35 * h * Lx + rng.normal(0, 0.1 * h), 0.35 * h * Ly + rng.normal(0, 0.1 * h)
        spot = ob["glare"] * np.exp(-((X - gx0) ** 2 + (Y - gy0) ** 2) / (2 * (0.18 * h) ** 2))[..., None]
        col = col + spot * (1 - col)
    if tok:
        sidec = np.float32((0.5, 0.44, 0.36)) * (0.85 + 0.3 * (ob["side"][0] * Lx + ob["side"][1] * Ly > 0))
    else:
        sidec = body * 0.55
    a = np.maximum(top, bot)[..., None]
    rgb = np.clip(col, 0, 1) * top[..., None] + sidec * (bot * (1 - top))[..., None]
    pre = cv2.resize(np.dstack([rgb, a, top]), (P, P), interpolation=cv2.INTER_AREA)
    al = pre[..., 3:4]
    return pre[..., :3] / np.maximum(al, 1e-4), al[..., 0], pre[..., 4], o[0], o[1]


# ----------------------------------------------------------------------------- tables
def lowfreq(rng, cells, octaves=3):
    out = np.zeros((H, W), np.float32)
    for i in range(octaves):
        gh, gw = cells * 2 ** i, cells * 2 ** i * 4 // 3 + 1
        out += cv2.resize(rng.standard_normal((gh, gw)).astype(np.float32), (W, H),
                          interpolation=cv2.INTER_CUBIC) / 2 ** i
    return out / 1.6


def felt(rng, c):
    n = cv2.GaussianBlur(rng.standard_normal((H, W)).astype(np.float32), (0, 0), 0.7)
    return np.float32(c) * (1 + 0.07 * lowfreq(rng, 3) + 0.06 * n)[..., None]


def background(rng, cfg, light):
    kinds = ["felt", "tray", "paper", "wood", "marble", "tiles", "dark", "white", "close"]
    kind = kinds[rng.integers(len(kinds))]
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    region = [0, 0, W, H]
    if kind in ("felt", "close"):
        if kind == "close":
            c = list(cfg["types"].values())[rng.integers(len(cfg["types"]))][0] * rng.uniform(0.72, 0.92)
        else:
            c = np.array([(0.1, 0.35, 0.18), (0.12, 0.2, 0.45), (0.45, 0.08, 0.1), (0.2, 0.2, 0.22),
                          (0.5, 0.42, 0.3)][rng.integers(5)]) * rng.uniform(0.8, 1.2)
        bg = felt(rng, c)
    elif kind == "paper":
        bg = np.ones((H, W, 3), np.float32) * np.float32((0.94, 0.92, 0.86)) * rng.uniform(0.92, 1.02)
        ink = np.zeros((H + 200, W + 200), np.float32)
        step = int(rng.integers(14, 26))
        for y in range(10, H + 190, step):
            x = int(rng.integers(10, 60))
            while x < W + 150:
                ln = int(rng.integers(8, 60))
                cv2.line(ink, (x, y), (x + ln, y), 1.0, int(rng.integers(2, 4)))
                x += ln + int(rng.integers(6, 12))
        R = cv2.getRotationMatrix2D(((W + 200) / 2, (H + 200) / 2), rng.uniform(-12, 12), 1.0)
        ink = cv2.GaussianBlur(cv2.warpAffine(ink, R, (W + 200, H + 200))[100:-100, 100:-100], (0, 0), 0.8)
        bg = bg * (1 - 0.5 * ink[..., None]) + np.float32((0.15, 0.15, 0.3)) * 0.5 * ink[..., None]
    elif kind == "wood":
        a = rng.uniform(0, np.pi)
        along, across = xx * math.cos(a) + yy * math.sin(a), -xx * math.sin(a) + yy * math.cos(a)
        plank = np.floor(across / rng.uniform(80, 160))
        phase = across / rng.uniform(1.8, 3.5) + 9 * lowfreq(rng, 2) + 0.004 * along + plank * 7.1
        ring = (0.5 + 0.5 * np.sin(phase)) ** 6  # thin dark late-wood lines
        fibre = np.sin(across / 0.7 + 4 * lowfreq(rng, 3, 2) + 0.02 * along)
        t = 0.62 - 0.4 * ring + 0.05 * fibre + 0.08 * lowfreq(rng, 6) + 0.08 * np.sin(plank * 12.9)
        lo, hi = np.float32((0.3, 0.17, 0.08)), np.float32((0.72, 0.5, 0.3))
        bg = (lo + (hi - lo) * np.clip(t, 0, 1)[..., None]) * np.float32(rng.uniform(0.75, 1.25) * rng.uniform(0.92, 1.08, 3))
        seam = np.abs(np.diff(plank, axis=0, prepend=plank[:1])) + np.abs(np.diff(plank, axis=1, prepend=plank[:, :1]))
        bg *= (1 - 0.5 * cv2.GaussianBlur(seam.clip(0, 1), (0, 0), 0.7))[..., None]  # dark plank seams
    elif kind == "marble":
        dark = rng.random() < 0.3
        a = rng.uniform(0, np.pi)
        v = np.abs(np.sin((xx * math.cos(a) + yy * math.sin(a)) / rng.uniform(60, 120) + 2.2 * lowfreq(rng, 2, 4)))
        vein = (1 - v) ** rng.uniform(8, 24) * np.clip(0.5 + lowfreq(rng, 2), 0.1, 1)
        base = np.float32((0.1, 0.1, 0.11) if dark else (0.9, 0.9, 0.88)) * (1 + 0.04 * lowfreq(rng, 4))[..., None]
        vc = np.float32((0.85, 0.85, 0.82) if dark else (0.35, 0.38, 0.4))
        bg = base * (1 - vein[..., None]) + vc * vein[..., None]
    elif kind == "tiles":
        ts, gw = rng.uniform(70, 150), int(rng.integers(3, 7))
        c = np.float32([(0.8, 0.76, 0.7), (0.55, 0.3, 0.22), (0.3, 0.4, 0.45), (0.85, 0.85, 0.85)][rng.integers(4)])
        ix, iy = np.floor((xx + rng.uniform(0, ts)) / ts), np.floor((yy + rng.uniform(0, ts)) / ts)
        tone = 1 + 0.06 * np.sin(ix * 12.9898 + iy * 78.233) * np.cos(ix * 3.1 + iy * 1.7)
        gx, gy = (xx + 0) % ts, (yy + 0) % ts
        grout = ((np.minimum(gx, ts - gx) < gw / 2) | (np.minimum(gy, ts - gy) < gw / 2)).astype(np.float32)
        grout = cv2.GaussianBlur(grout, (0, 0), 0.8)[..., None]
        bg = c * (tone * (1 + 0.03 * lowfreq(rng, 5)))[..., None] * (1 - grout) + c * 0.45 * grout
    elif kind in ("dark", "white"):
        c = np.float32(rng.uniform(0.06, 0.18, 3) if kind == "dark" else rng.uniform(0.88, 0.97) * np.ones(3))
        bg = c * (1 + 0.03 * lowfreq(rng, 3))[..., None] + 0.01 * rng.standard_normal((H, W, 1)).astype(np.float32)
    else:  # tray with a raised rim on a dark table
        m, rw = int(rng.integers(10, 50)), int(rng.integers(16, 32))
        bg = felt(rng, rng.uniform(0.05, 0.2, 3))
        c = np.float32([(0.1, 0.3, 0.15), (0.1, 0.12, 0.35), (0.35, 0.06, 0.08), (0.1, 0.1, 0.1)][rng.integers(4)])
        inner = felt(rng, c)
        rimc = np.float32([(0.55, 0.36, 0.2), (0.2, 0.2, 0.22), (0.7, 0.7, 0.68)][rng.integers(3)])
        outer = np.zeros((H, W), np.float32)
        outer[m:H - m, m:W - m] = 1
        inn = np.zeros((H, W), np.float32)
        inn[m + rw:H - m - rw, m + rw:W - m - rw] = 1
        L = light["L"]
        sh = cv2.GaussianBlur(_shift(outer, -L[0] * 10, -L[1] * 10), (0, 0), 4) * (1 - outer)
        bg *= (1 - 0.5 * sh)[..., None]
        rim = outer - inn
        nx, ny = np.sign(xx - W / 2), np.sign(yy - H / 2)  # outward normal of the nearest side
        near_x = np.minimum(xx - m, W - m - xx) < np.minimum(yy - m, H - m - yy)
        dotL = np.where(near_x, nx * L[0], ny * L[1])
        rimcol = rimc * (1 + 0.25 * dotL)[..., None]
        rsh = cv2.GaussianBlur(_shift(rim, -L[0] * rw * 0.6, -L[1] * rw * 0.6), (0, 0), 3) * inn
        inner = inner * (1 - 0.55 * rsh)[..., None]
        bg = bg * (1 - outer[..., None]) + rimcol * rim[..., None] + inner * inn[..., None]
        region = [m + rw + 4, m + rw + 4, W - m - rw - 4, H - m - rw - 4]
    return np.clip(bg, 0, 1).astype(np.float32), region, kind


# ----------------------------------------------------------------------------- scene
def draw_light(rng):
    a = rng.uniform(0, 2 * np.pi)
    return {"L": (math.cos(a), math.sin(a)), "hard": rng.uniform(0.25, 0.6) if rng.random() < 0.75 else 0.0,
            "len": rng.uniform(0.1, 0.4), "sblur": rng.uniform(0.6, 2.5), "ao": rng.uniform(0.15, 0.4),
            "wb": rng.uniform(0.8, 1.2, 3), "bright": rng.uniform(0.6, 1.3), "grad": rng.uniform(0, 0.3),
            "gdir": rng.uniform(0, 2 * np.pi), "vign": rng.uniform(0, 0.35), "blur": rng.uniform(0, 1.2),
            "noise": rng.uniform(0.003, 0.025), "jpeg": int(rng.integers(60, 96)), "persp": rng.uniform(0, 0.04)}


def _paste(dst, src, ox, oy, fn):
    h, w = src.shape[:2]
    x0, y0, x1, y1 = max(ox, 0), max(oy, 0), min(ox + w, dst.shape[1]), min(oy + h, dst.shape[0])
    if x1 > x0 and y1 > y0:
        dst[y0:y1, x0:x1] = fn(dst[y0:y1, x0:x1], src[y0 - oy:y1 - oy, x0 - ox:x1 - ox])


def make_object(rng, cfg, typ, face):
    D = float(np.clip(cfg["base"] * rng.uniform(0.9, 1.1), 32, 90))
    return {"type": typ, "face": face, "D": D, "theta": rng.uniform(0, 2 * np.pi),
            "sx": rng.uniform(-0.06, 0.06), "sy": rng.uniform(-0.06, 0.06), "sh": rng.uniform(-0.05, 0.05),
            "glare": rng.uniform(0.2, 0.45) if rng.random() < cfg["gloss"] else 0.0}


def scene(rng, cfg, objs):
    """Render objects (placed where they fit) on a table; returns uint8 RGB, truths, full boxes."""
    light = draw_light(rng)
    bg, (rx0, ry0, rx1, ry1), _ = background(rng, cfg, light)
    tok, placed = cfg["kind"] == "tokens", []
    for ob in objs:
        tall = cfg["edge"] if tok else cfg["tilt"]
        rad = ob["D"] * (0.56 if tok else 0.76) + tall * ob["D"] * 1.3 + 2
        for _ in range(300):
            x, y = rng.uniform(rx0 + rad, rx1 - rad), rng.uniform(ry0 + rad, ry1 - rad)
            gap = 0.0 if rng.random() < 0.05 else rng.uniform(2, 20)
            if all(math.hypot(x - p["x"], y - p["y"]) > rad + p["rad"] + gap for p in placed):
                cam = np.array([W / 2 - x, H / 2 - y]) / (0.5 * math.hypot(W, H))
                n = np.linalg.norm(cam)
                dirv = cam / n if n > 0.05 else np.array([math.cos(ob["theta"]), math.sin(ob["theta"])])
                ob.update(x=x, y=y, rad=rad, side=tuple(dirv * tall * ob["D"] * (0.6 + min(n, 1) * 0.6)))
                placed.append(ob)
                break
    shadow, ao = np.zeros((H, W), np.float32), np.zeros((H, W), np.float32)
    layers, truths, boxes = [], [], []
    for ob in placed:
        rgb, a, top, ox, oy = render_object(rng, cfg, ob, light)
        sl = ob["D"] * (rng.uniform(0.04, 0.1) if tok else light["len"])
        _paste(shadow, a, ox - int(round(light["L"][0] * sl)), oy - int(round(light["L"][1] * sl)), np.maximum)
        _paste(ao, a, ox, oy, np.maximum)
        layers.append((rgb, a, ox, oy))
        ys, xs = np.nonzero(top > 0.5)
        ya, xa = np.nonzero(a > 0.1)
        truths.append({"x": ob["x"], "y": ob["y"], "w": float(xs.max() - xs.min() + 1),
                       "h": float(ys.max() - ys.min() + 1), "type": ob["type"], "face": ob["face"]})
        boxes.append((ox + xa.min(), oy + ya.min(), ox + xa.max() + 1, oy + ya.max() + 1))
    if placed:
        Dm = float(np.mean([o["D"] for o in placed]))
        sh = light["hard"] * cv2.GaussianBlur(shadow, (0, 0), light["sblur"])
        bg *= (1 - sh - light["ao"] * cv2.GaussianBlur(ao, (0, 0), 0.15 * Dm) * (1 - sh))[..., None]
    for rgb, a, ox, oy in layers:
        _paste(bg, np.dstack([rgb, a]), ox, oy, lambda d, s: d * (1 - s[..., 3:]) + s[..., :3] * s[..., 3:])
    return post(rng, bg, light, truths, boxes)


def post(rng, img, light, truths, boxes):
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    xx, yy = xx / W * 2 - 1, yy / H * 2 - 1
    field = 1 + light["grad"] * (xx * math.cos(light["gdir"]) + yy * math.sin(light["gdir"])) \
        - light["vign"] * (xx * xx + yy * yy) / 2
    img = img * field[..., None] * np.float32(light["wb"]) * light["bright"]
    src = np.float32([[0, 0], [W - 1, 0], [W - 1, H - 1], [0, H - 1]])
    dst = src + rng.uniform(-1, 1, (4, 2)).astype(np.float32) * light["persp"] * np.float32([W, H])
    Hm = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(np.clip(img, 0, 1), Hm, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT101)
    if light["blur"] > 0.25:
        img = cv2.GaussianBlur(img, (0, 0), light["blur"])
    img = img + rng.normal(0, light["noise"], img.shape).astype(np.float32) * (0.5 + 0.5 * np.sqrt(np.clip(img, 0, 1)))
    u8 = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", u8[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, light["jpeg"]])
    u8 = cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1]
    for t in truths:
        p = cv2.perspectiveTransform(np.float32([[[t["x"], t["y"]]]]), Hm)[0, 0]
        t["x"], t["y"] = round(float(p[0]), 2), round(float(p[1]), 2)
    out_boxes = []
    for x0, y0, x1, y1 in boxes:
        q = cv2.perspectiveTransform(np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]]), Hm)[0]
        out_boxes.append((q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()))
    return u8, truths, out_boxes


def save(path, rgb):
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.ascontiguousarray(rgb[..., ::-1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", choices=["dice", "tokens"], default="dice")
    ap.add_argument("--examples", choices=["crops", "photos"], default="crops")
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("--per-face", type=int, default=5)
    args = ap.parse_args()
    t0 = time.time()
    rng = np.random.default_rng(args.seed)
    cfg = make_set(rng, args.kind)
    for sub in ("set", "scenes"):
        shutil.rmtree(args.out / sub, ignore_errors=True)
    (args.out / "set").mkdir(parents=True)
    (args.out / "set" / "set.toml").write_text(
        f'name = "third-hand-{args.seed}"\nkind = "{args.kind}"\n'
        f'# drawn by bench/third_hand.py: style {cfg["style"]}, types {", ".join(cfg["types"])}, '
        f'faces {", ".join(cfg["icons"])}\n')
    for typ in cfg["types"]:
        for face in cfg["icons"]:
            for i in range(1, args.per_face + 1):
                img, truths, boxes = scene(rng, cfg, [make_object(rng, cfg, typ, face)])
                if args.examples == "crops":
                    x0, y0, x1, y1 = boxes[0]
                    mx, my = (x1 - x0) * rng.uniform(0.05, 0.25), (y1 - y0) * rng.uniform(0.05, 0.25)
                    x0, y0 = max(int(x0 - mx), 0), max(int(y0 - my), 0)
                    x1, y1 = min(int(math.ceil(x1 + mx)), W), min(int(math.ceil(y1 + my)), H)
                    img = img[y0:y1, x0:x1]
                save(args.out / "set" / "examples" / typ / face / f"{i:02d}.png", img)
    truth = {}
    for i in range(args.scenes):
        n = int(rng.integers(1, 13))
        objs = [make_object(rng, cfg, str(rng.choice(list(cfg["types"]))), str(rng.choice(list(cfg["icons"]))))
                for _ in range(n)]
        img, truths, _ = scene(rng, cfg, objs)
        save(args.out / "scenes" / f"{i:03d}.png", img)
        truth[f"{i:03d}.png"] = truths
    (args.out / "scenes" / "truth.json").write_text(json.dumps(truth, indent=1))
    print(f"third-hand-{args.seed} {args.kind}: types {list(cfg['types'])}, faces {list(cfg['icons'])}, "
          f"style {cfg['style']}, {args.scenes} scenes in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
