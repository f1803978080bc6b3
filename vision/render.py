"""Synthetic renderer: Castle-Dice-like dice and round bag tokens on busy tables.

Pure numpy/OpenCV and deterministic from a ``numpy.random.Generator``. Used by the tests, the
benchmarks, the shipped provisional example folders and the ``synthetic`` demo camera.

Main entry points::

    render_scene(rng, n=None, *, kind="dice", set_spec=None, style="castle", size=(640, 480),
                 hard=True) -> (image_bgr uint8 HxWx3, truth: list[dict])

        ``truth`` holds one dict per object: ``{"x", "y", "w", "h", "type", "face", "kind"}`` where
        ``x, y`` is the centre of the top face in image pixels, ``kind`` is "die" or "token".

    render_example(rng, type_, face, *, set_spec=None, style="castle", crop=True) -> image_bgr
        one object (a tight crop, or a whole small photo when ``crop`` is False).

    demo_frames(seed=0, kind="dice") -> endless iterator of BGR frames (the demo camera).

Pictures are returned, never written: ``python -m companion.dicesets make-set castle-dice DIR``
(companion/dicesets.py) writes a set folder of them and regenerates the shipped example folders.

Icon styles: "castle" (our hand-drawn resource/animal/barbarian/Augustus symbols) and "glyph"
(random abstract glyphs seeded by the face id) -- the latter with ``ALT_DICE``/``ALT_TOKENS``
makes a held-out set that shares nothing with our icons or colours.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterator

import cv2
import numpy as np

# --- set specifications ------------------------------------------------------------------------
# type -> (body colour BGR, faces); shared by the shipped sets and the tests.
CASTLE_DICE: dict = {
    "kind": "dice",
    "types": {
        "wood": ((58, 100, 150), ["wood1", "wood2", "wood3", "cow", "barbarian"]),
        "stone": ((170, 170, 165), ["stone1", "stone2", "chicken", "barbarian"]),
        "gold": ((40, 180, 222), ["gold1", "gold2", "horse", "barbarian"]),
        "land": ((70, 140, 70), ["land1", "land2", "pig", "barbarian"]),
        "iron": ((78, 62, 58), ["iron1", "iron2", "pig", "horse", "chicken", "barbarian"]),
    },
}
AUGUSTUS_TOKENS: dict = {
    "kind": "tokens",
    "types": {
        "token": ((150, 196, 222), ["swords", "shield", "chariot", "catapult", "standard", "dagger", "joker"]),
    },
    "ink": (40, 45, 110),
}
# Held-out style: other colours, other ids, two types that differ only in colour.
ALT_DICE: dict = {
    "kind": "dice",
    "types": {
        "red": ((50, 50, 190), ["a1", "a2", "bolt", "skull"]),
        "blue": ((170, 90, 40), ["a1", "a2", "bolt", "skull"]),
        "white": ((215, 220, 222), ["b1", "moon", "skull"]),
        "purple": ((130, 60, 120), ["c1", "c2", "c3", "skull"]),
    },
}
ALT_TOKENS: dict = {
    "kind": "tokens",
    "types": {"token": ((90, 60, 40), ["sun", "tree", "fish", "crown", "key", "wave"])},
    "ink": (210, 230, 235),
}

_RESOURCES = ("wood", "stone", "gold", "land", "iron")


# --- icons -------------------------------------------------------------------------------------
def _canvas(n: int = 128) -> np.ndarray:
    return np.zeros((n, n), np.uint8)


def _poly(img, pts, val=255):
    cv2.fillPoly(img, [np.round(np.array(pts, np.float32)).astype(np.int32)], val, cv2.LINE_AA)


def _res_icon(res: str) -> np.ndarray:
    m = _canvas()
    if res == "wood":  # a log with rings
        cv2.rectangle(m, (22, 48), (100, 80), 255, -1)
        cv2.ellipse(m, (100, 64), (14, 16), 0, 0, 360, 255, -1, cv2.LINE_AA)
        cv2.ellipse(m, (100, 64), (8, 10), 0, 0, 360, 0, 3, cv2.LINE_AA)
        cv2.ellipse(m, (22, 64), (14, 16), 0, 90, 270, 255, -1, cv2.LINE_AA)
        cv2.line(m, (40, 56), (80, 56), 0, 2, cv2.LINE_AA)
    elif res == "stone":  # stacked blocks
        cv2.rectangle(m, (20, 70), (60, 100), 255, -1)
        cv2.rectangle(m, (66, 70), (106, 100), 255, -1)
        cv2.rectangle(m, (42, 36), (84, 64), 255, -1)
    elif res == "gold":  # an ingot
        _poly(m, [(18, 96), (110, 96), (92, 44), (36, 44)])
        cv2.line(m, (40, 52), (88, 52), 0, 3, cv2.LINE_AA)
    elif res == "land":  # wheat ear
        cv2.line(m, (64, 110), (64, 20), 255, 6, cv2.LINE_AA)
        for y in range(30, 95, 14):
            cv2.ellipse(m, (52, y), (12, 6), -35, 0, 360, 255, -1, cv2.LINE_AA)
            cv2.ellipse(m, (76, y + 6), (12, 6), 35, 0, 360, 255, -1, cv2.LINE_AA)
    elif res == "iron":  # an anvil
        _poly(m, [(14, 40), (110, 40), (110, 56), (84, 62), (78, 80), (96, 100), (30, 100),
                  (48, 80), (42, 62), (30, 58)])
    return m


def _animal_icon(name: str) -> np.ndarray:
    m = _canvas()
    if name == "cow":
        cv2.ellipse(m, (64, 70), (30, 38), 0, 0, 360, 255, -1, cv2.LINE_AA)
        cv2.ellipse(m, (30, 34), (18, 8), 30, 0, 360, 255, -1, cv2.LINE_AA)
        cv2.ellipse(m, (98, 34), (18, 8), -30, 0, 360, 255, -1, cv2.LINE_AA)
        cv2.circle(m, (54, 92), 5, 0, -1, cv2.LINE_AA)
        cv2.circle(m, (74, 92), 5, 0, -1, cv2.LINE_AA)
        cv2.circle(m, (50, 60), 5, 0, -1, cv2.LINE_AA)
        cv2.circle(m, (78, 60), 5, 0, -1, cv2.LINE_AA)
    elif name == "pig":
        cv2.circle(m, (64, 66), 40, 255, -1, cv2.LINE_AA)
        _poly(m, [(30, 40), (26, 12), (52, 30)])
        _poly(m, [(98, 40), (102, 12), (76, 30)])
        cv2.ellipse(m, (64, 78), (16, 11), 0, 0, 360, 0, 3, cv2.LINE_AA)
        cv2.circle(m, (58, 78), 3, 0, -1)
        cv2.circle(m, (70, 78), 3, 0, -1)
    elif name == "horse":
        _poly(m, [(40, 112), (48, 60), (36, 40), (56, 14), (66, 26), (96, 46), (106, 64), (94, 72),
                  (74, 60), (80, 112)])
        cv2.circle(m, (66, 40), 4, 0, -1, cv2.LINE_AA)
    elif name == "chicken":
        cv2.ellipse(m, (66, 72), (34, 26), 0, 0, 360, 255, -1, cv2.LINE_AA)
        cv2.circle(m, (38, 40), 16, 255, -1, cv2.LINE_AA)
        for cx in (30, 38, 46):
            cv2.circle(m, (cx, 22), 6, 255, -1, cv2.LINE_AA)
        _poly(m, [(22, 40), (8, 46), (22, 50)])
        _poly(m, [(96, 60), (120, 36), (112, 72)])
        cv2.line(m, (60, 96), (56, 118), 255, 4, cv2.LINE_AA)
        cv2.line(m, (76, 96), (80, 118), 255, 4, cv2.LINE_AA)
    elif name == "barbarian":  # horned helmet
        cv2.ellipse(m, (64, 76), (38, 36), 0, 180, 360, 255, -1, cv2.LINE_AA)
        cv2.rectangle(m, (26, 76), (102, 90), 255, -1)
        _poly(m, [(30, 66), (10, 20), (42, 56)])
        _poly(m, [(98, 66), (118, 20), (86, 56)])
        cv2.rectangle(m, (58, 90), (70, 116), 255, -1)
        cv2.circle(m, (50, 60), 5, 0, -1)
        cv2.circle(m, (78, 60), 5, 0, -1)
    elif name == "barn":
        _poly(m, [(20, 60), (64, 20), (108, 60), (100, 60), (100, 108), (28, 108), (28, 60)])
        cv2.rectangle(m, (50, 72), (78, 108), 0, -1)
        cv2.line(m, (50, 72), (78, 108), 255, 3)
        cv2.line(m, (78, 72), (50, 108), 255, 3)
    return m


def _token_icon(name: str) -> np.ndarray:
    m = _canvas()
    if name == "swords":
        for s in (1, -1):
            cv2.line(m, (64 - 40 * s, 22), (64 + 34 * s, 104), 255, 7, cv2.LINE_AA)
            cv2.line(m, (64 + 20 * s, 78), (64 + 46 * s, 88), 255, 6, cv2.LINE_AA)
    elif name == "shield":
        _poly(m, [(28, 22), (100, 22), (100, 70), (64, 112), (28, 70)])
        cv2.circle(m, (64, 58), 11, 0, -1, cv2.LINE_AA)
    elif name == "chariot":
        cv2.circle(m, (50, 82), 26, 255, 5, cv2.LINE_AA)
        for a in range(0, 180, 45):
            dx, dy = 26 * math.cos(math.radians(a)), 26 * math.sin(math.radians(a))
            cv2.line(m, (int(50 - dx), int(82 - dy)), (int(50 + dx), int(82 + dy)), 255, 3, cv2.LINE_AA)
        _poly(m, [(40, 40), (96, 40), (104, 72), (76, 72)])
        cv2.line(m, (96, 48), (124, 34), 255, 5, cv2.LINE_AA)
    elif name == "catapult":
        cv2.rectangle(m, (18, 88), (110, 100), 255, -1)
        cv2.circle(m, (34, 106), 10, 255, -1, cv2.LINE_AA)
        cv2.circle(m, (94, 106), 10, 255, -1, cv2.LINE_AA)
        cv2.line(m, (40, 90), (100, 26), 255, 6, cv2.LINE_AA)
        cv2.circle(m, (100, 24), 12, 255, -1, cv2.LINE_AA)
        _poly(m, [(56, 90), (70, 56), (78, 90)])
    elif name == "standard":
        cv2.line(m, (64, 120), (64, 18), 255, 6, cv2.LINE_AA)
        cv2.rectangle(m, (40, 44), (88, 76), 255, -1)
        _poly(m, [(44, 22), (64, 8), (84, 22), (64, 30)])
        cv2.rectangle(m, (48, 52), (80, 68), 0, 3)
    elif name == "dagger":
        _poly(m, [(58, 80), (70, 80), (64, 12)])
        cv2.rectangle(m, (44, 80), (84, 88), 255, -1)
        cv2.rectangle(m, (60, 88), (68, 112), 255, -1)
        cv2.circle(m, (64, 116), 6, 255, -1, cv2.LINE_AA)
    elif name == "joker":  # a star in a ring
        pts = []
        for i in range(10):
            r = 44 if i % 2 == 0 else 18
            a = math.radians(-90 + 36 * i)
            pts.append((64 + r * math.cos(a), 64 + r * math.sin(a)))
        _poly(m, pts)
        cv2.circle(m, (64, 64), 56, 255, 4, cv2.LINE_AA)
    return m


def _glyph_icon(face: str) -> np.ndarray:
    """A random abstract glyph seeded by the face id: shares nothing with our drawn icons."""
    r = np.random.default_rng(zlib.crc32(("glyph:" + face).encode()))
    m = _canvas()
    for _ in range(int(r.integers(2, 5))):
        kind = int(r.integers(0, 5))
        cx, cy = r.integers(30, 98, 2)
        if kind == 0:
            cv2.ellipse(m, (int(cx), int(cy)), (int(r.integers(14, 40)), int(r.integers(8, 28))),
                        float(r.uniform(0, 180)), 0, 360, 255, -1, cv2.LINE_AA)
        elif kind == 1:
            pts = [(float(x), float(y)) for x, y in r.integers(12, 116, (int(r.integers(3, 6)), 2))]
            _poly(m, pts)
        elif kind == 2:
            p, q = r.integers(12, 116, 2), r.integers(12, 116, 2)
            cv2.line(m, (int(p[0]), int(p[1])), (int(q[0]), int(q[1])), 255, int(r.integers(8, 15)), cv2.LINE_AA)
        elif kind == 3:
            cv2.circle(m, (int(cx), int(cy)), int(r.integers(18, 40)), 255, int(r.integers(6, 11)), cv2.LINE_AA)
        else:
            w, h = r.integers(16, 48, 2)
            cv2.rectangle(m, (int(cx - w // 2), int(cy - h // 2)), (int(cx + w // 2), int(cy + h // 2)), 255, -1)
    if int(m.astype(bool).sum()) < 1500:
        cv2.circle(m, (64, 64), 20, 255, -1, cv2.LINE_AA)
    return m


def _arrange(icon: np.ndarray, n: int) -> np.ndarray:
    if n <= 1:
        return icon
    m = _canvas()
    small = cv2.resize(icon, (62, 62), interpolation=cv2.INTER_AREA)
    spots = {2: [(4, 4), (62, 62)], 3: [(4, 2), (62, 2), (33, 64)]}[min(n, 3)]
    for x, y in spots:
        m[y:y + 62, x:x + 62] = np.maximum(m[y:y + 62, x:x + 62], small)
    return m


def icon_mask(face: str, style: str = "castle") -> np.ndarray:
    """128x128 uint8 mask (255 = icon) for a face id."""
    if face == "blank":
        return _canvas()
    if style == "glyph":
        return _glyph_icon(face)
    for res in _RESOURCES:
        if face.startswith(res) and face[len(res):].isdigit():
            return _arrange(_res_icon(res), int(face[len(res):]))
        if face == res:
            return _res_icon(res)
    if face in ("cow", "pig", "horse", "chicken", "barbarian", "barn"):
        return _animal_icon(face)
    m = _token_icon(face)
    if not m.any():
        return _glyph_icon(face)
    return m


# --- objects -----------------------------------------------------------------------------------
def _jitter_colour(rng, bgr) -> np.ndarray:
    return np.clip(np.array(bgr, np.float32) * rng.uniform(0.95, 1.05, 3), 0, 255)


def _draw_object(rng, kind: str, face: str, body_bgr, s: int, style: str, ink=None):
    """Returns (bgr float32, alpha float32, top-face centre (x, y)) on a square canvas."""
    n = int(s * 1.5) + 4
    c = n / 2.0
    body = _jitter_colour(rng, body_bgr)
    # side offset (the visible flank of a die/the edge of a thick token)
    ang = rng.uniform(0, 2 * math.pi)
    depth = s * (rng.uniform(0.04, 0.13) if kind == "die" else rng.uniform(0.02, 0.06))
    ox, oy = depth * math.cos(ang), depth * math.sin(ang)
    top = np.zeros((n, n), np.uint8)
    if kind == "die":
        r = int(s * rng.uniform(0.08, 0.16))
        x0, y0, x1, y1 = int(c - s / 2), int(c - s / 2), int(c + s / 2), int(c + s / 2)
        cv2.rectangle(top, (x0 + r, y0), (x1 - r, y1), 255, -1)
        cv2.rectangle(top, (x0, y0 + r), (x1, y1 - r), 255, -1)
        for px, py in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
            cv2.circle(top, (px, py), r, 255, -1, cv2.LINE_AA)
    else:
        cv2.circle(top, (int(c), int(c)), int(s / 2), 255, -1, cv2.LINE_AA)
    sil = top.copy()
    for t in np.linspace(0, 1, 8):
        M = np.float32([[1, 0, ox * t], [0, 1, oy * t]])
        sil = np.maximum(sil, cv2.warpAffine(top, M, (n, n)))
    topf = top.astype(np.float32) / 255
    silf = sil.astype(np.float32) / 255
    img = np.empty((n, n, 3), np.float32)
    img[:] = body * rng.uniform(0.45, 0.7)
    # icon
    icon = cv2.resize(icon_mask(face, style), None, fx=1, fy=1)
    frac = rng.uniform(0.58, 0.72) if kind == "die" else rng.uniform(0.55, 0.68)
    isz = max(8, int(s * frac))
    icon = cv2.resize(icon, (isz, isz), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    im = np.zeros((n, n), np.float32)
    a = int(c - isz / 2)
    im[a:a + isz, a:a + isz] = icon
    face_img = np.empty_like(img)
    face_img[:] = body
    # subtle surface texture
    face_img *= (1 + rng.normal(0, 0.025, (n, n, 1))).astype(np.float32)
    if kind == "die" and ink is None:  # embossed: shading from a height map
        h = cv2.GaussianBlur(im, (0, 0), max(0.8, s * 0.015))
        gx = cv2.Sobel(h, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(h, cv2.CV_32F, 0, 1, ksize=3)
        la = rng.uniform(0, 2 * math.pi)
        sign = 1 if rng.random() < 0.5 else -1  # raised or engraved
        shade = sign * (gx * math.cos(la) + gy * math.sin(la)) * rng.uniform(1.6, 2.6)
        face_img *= (1 + np.clip(shade, -0.6, 0.6))[..., None]
        face_img *= (1 - rng.uniform(0.05, 0.3) * im)[..., None]  # paint in the relief
    else:  # printed
        ink_c = _jitter_colour(rng, ink if ink is not None else (30, 30, 30))
        face_img = face_img * (1 - im[..., None]) + ink_c * im[..., None]
    # bevel: darker rim on the top face
    rim = cv2.GaussianBlur(topf, (0, 0), max(0.7, s * 0.03))
    face_img *= (0.75 + 0.25 * np.clip(rim * 1.6 - 0.3, 0, 1))[..., None]
    img = img * (1 - topf[..., None]) + face_img * topf[..., None]
    return np.clip(img, 0, 255), silf, (c, c)


# --- backgrounds -------------------------------------------------------------------------------
def _background(rng, h: int, w: int, hard: bool) -> np.ndarray:
    kinds = ["felt", "wood", "cloth", "gradient"] + (["busy", "busy", "photo"] if hard else [])
    k = kinds[int(rng.integers(len(kinds)))]
    base = rng.uniform(30, 220, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if k == "felt":
        img += rng.normal(0, 6, (h, w, 1))
    elif k == "wood":
        f = rng.uniform(0.02, 0.08)
        t = np.sin(yy * f + 3 * np.sin(xx * 0.01 + rng.uniform(0, 6)) + rng.normal(0, 0.3, (h, w)))
        img *= (1 + 0.18 * t)[..., None]
    elif k == "cloth":
        p = int(rng.integers(12, 40))
        chk = (((yy // p) + (xx // p)) % 2)[..., None]
        other = rng.uniform(30, 220, 3)
        img = img * (1 - chk * 0.6) + other * chk * 0.6
        img += rng.normal(0, 5, (h, w, 1))
    elif k == "gradient":
        g = (xx / w * rng.uniform(-1, 1) + yy / h * rng.uniform(-1, 1))[..., None]
        img = img + g * rng.uniform(20, 60, 3)
    else:  # busy: random shapes; "photo" adds blur like an out-of-focus table
        for _ in range(int(rng.integers(15, 60))):
            col = tuple(float(v) for v in rng.uniform(20, 235, 3))
            t = int(rng.integers(3))
            cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
            if t == 0:
                cv2.circle(img, (cx, cy), int(rng.integers(5, 70)), col, -1 if rng.random() < 0.6 else 3)
            elif t == 1:
                cv2.line(img, (cx, cy), (int(rng.integers(0, w)), int(rng.integers(0, h))), col,
                         int(rng.integers(1, 8)))
            else:
                cv2.ellipse(img, (cx, cy), (int(rng.integers(5, 90)), int(rng.integers(3, 30))),
                            float(rng.uniform(0, 180)), 0, 360, col, -1)
        if k == "photo":
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(2, 5))
        img += rng.normal(0, 4, (h, w, 1))
    return np.clip(img, 0, 255).astype(np.float32)


# --- scenes ------------------------------------------------------------------------------------
def spec_items(set_spec: dict) -> list[tuple[str, str]]:
    """(type, face) of every face of a set spec."""
    return [(t, f) for t, (_, faces) in set_spec["types"].items() for f in faces]


def _compose(rng, canvas, objects, hard: bool):
    """Paste objects [(cx, cy, type, face, size, angle)] with shadows; returns truth list."""
    h, w = canvas.shape[:2]
    sh_ang = rng.uniform(0, 2 * math.pi)
    soft = rng.random() < 0.5
    truth = []
    for cx, cy, spec, typ, face, s, angle, style in objects:
        kind = "die" if spec["kind"] == "dice" else "token"
        body, _ = spec["types"][typ]
        rgb, alpha, (tx, ty) = _draw_object(rng, kind, face, body, s, style, spec.get("ink"))
        n = rgb.shape[0]
        M = cv2.getRotationMatrix2D((n / 2, n / 2), angle, 1.0)
        rgb = cv2.warpAffine(rgb, M, (n, n), flags=cv2.INTER_LINEAR)
        alpha = cv2.warpAffine(alpha, M, (n, n), flags=cv2.INTER_LINEAR)
        x0, y0 = int(round(cx - n / 2)), int(round(cy - n / 2))
        # shadow
        sl = s * rng.uniform(0.05, 0.18) if hard else s * 0.06
        sx, sy = sl * math.cos(sh_ang), sl * math.sin(sh_ang)
        sh = cv2.warpAffine(alpha, np.float32([[1, 0, sx], [0, 1, sy]]), (n, n))
        if soft:
            sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, s * 0.08))
        dark = rng.uniform(0.35, 0.65)
        _blend(canvas, x0, y0, None, sh * dark)
        _blend(canvas, x0, y0, rgb, alpha)
        truth.append({"x": float(cx), "y": float(cy), "w": float(s), "h": float(s),
                      "type": typ, "face": face, "kind": kind})
    return truth


def _blend(canvas, x0, y0, rgb, alpha):
    h, w = canvas.shape[:2]
    n = alpha.shape[0]
    ax0, ay0 = max(0, -x0), max(0, -y0)
    bx0, by0 = max(0, x0), max(0, y0)
    bx1, by1 = min(w, x0 + n), min(h, y0 + n)
    if bx1 <= bx0 or by1 <= by0:
        return
    a = alpha[ay0:ay0 + by1 - by0, ax0:ax0 + bx1 - bx0][..., None]
    region = canvas[by0:by1, bx0:bx1]
    if rgb is None:
        region *= 1 - a
    else:
        region[:] = region * (1 - a) + rgb[ay0:ay0 + by1 - by0, ax0:ax0 + bx1 - bx0] * a


def _photometric(rng, img, hard: bool):
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = 1 + rng.uniform(-0.25, 0.25) * (xx / w - 0.5) + rng.uniform(-0.25, 0.25) * (yy / h - 0.5)
    img = img * g[..., None]
    img = img * rng.uniform(0.88, 1.12, 3) * rng.uniform(0.7, 1.25)  # white balance, brightness
    if hard and rng.random() < 0.5:  # glare spot
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.05, 0.15) * w
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r))
        img = img + spot[..., None] * rng.uniform(30, 90)
    sigma = rng.uniform(0, 1.2) if hard else rng.uniform(0, 0.6)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, rng.uniform(1, 6 if hard else 3), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _perspective(rng, img, truth, amount):
    h, w = img.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + rng.uniform(-amount, amount, (4, 2)).astype(np.float32) * np.float32([w, h])
    M = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(img, M, (w, h), borderMode=cv2.BORDER_REFLECT)
    for t in truth:
        cx, cy, s = t["x"], t["y"], t["w"]
        pts = np.float32([[cx, cy], [cx - s / 2, cy - s / 2], [cx + s / 2, cy - s / 2],
                          [cx + s / 2, cy + s / 2], [cx - s / 2, cy + s / 2]]).reshape(-1, 1, 2)
        q = cv2.perspectiveTransform(pts, M).reshape(-1, 2)
        t["x"], t["y"] = float(q[0, 0]), float(q[0, 1])
        t["w"] = float(q[1:, 0].max() - q[1:, 0].min())
        t["h"] = float(q[1:, 1].max() - q[1:, 1].min())
    return out


def render_scene(rng: np.random.Generator, n: int | None = None, *, kind: str = "dice",
                 set_spec: dict | None = None, style: str = "castle", size=(640, 480),
                 hard: bool = True, items: list[tuple[str, str]] | None = None,
                 obj_frac: tuple[float, float] = (0.09, 0.15)):
    """Render one table scene.

    rng      -- numpy Generator (the scene is a pure function of its state)
    n        -- number of objects (default: 1..12 dice, or 1..3 tokens)
    kind     -- "dice" or "tokens" (picks the default set spec)
    set_spec -- CASTLE_DICE / AUGUSTUS_TOKENS / ALT_DICE / ALT_TOKENS or your own
    style    -- icon style: "castle" or "glyph"
    size     -- (width, height)
    hard     -- busy backgrounds, glare, hard shadows, more blur/noise and perspective
    items    -- optional explicit [(type, face), ...] to draw (overrides n)
    obj_frac -- object side as a fraction of min(width, height): (low, high)
    Returns (image_bgr uint8, truth list of {"x","y","w","h","type","face","kind"}).
    """
    spec = set_spec or (CASTLE_DICE if kind == "dice" else AUGUSTUS_TOKENS)
    w, h = size
    all_items = spec_items(spec)
    if items is None:
        if n is None:
            n = int(rng.integers(1, 13)) if spec["kind"] == "dice" else int(rng.integers(1, 4))
        items = [all_items[int(rng.integers(len(all_items)))] for _ in range(n)]
    n = len(items)
    canvas = _background(rng, h, w, hard)
    base = min(w, h) * rng.uniform(*obj_frac) * (1.0 if n <= 6 else 0.85)
    placed: list = []
    objects = []
    for typ, face in items:
        s = int(base * rng.uniform(0.92, 1.08))
        for _ in range(400):
            mx, my = min(s + 0.07 * w, w / 2 - 1), min(s + 0.07 * h, h / 2 - 1)  # inside after the warp
            cx = rng.uniform(mx, w - mx)
            cy = rng.uniform(my, h - my)
            if all(math.hypot(cx - px, cy - py) > (s + ps) * 0.8 + 6 for px, py, ps in placed):
                break
        else:
            continue
        placed.append((cx, cy, s))
        objects.append((cx, cy, spec, typ, face, s, float(rng.uniform(0, 360)), style))
    truth = _compose(rng, canvas, objects, hard)
    img = _photometric(rng, canvas, hard)
    img = _perspective(rng, img, truth, 0.06 if hard else 0.03)
    return img, truth


def render_example(rng: np.random.Generator, typ: str, face: str, *, set_spec: dict | None = None,
                   style: str = "castle", crop: bool = True, hard: bool = False,
                   margin: tuple[float, float] = (0.12, 0.3)) -> np.ndarray:
    """One object; ``crop`` gives a tight crop (with a little background), else a small photo."""
    spec = set_spec or CASTLE_DICE
    size = (240, 180) if not crop else (300, 260)
    frac = (0.28, 0.42) if not crop else (0.25, 0.33)
    img, truth = render_scene(rng, set_spec=spec, style=style, size=size, hard=hard, items=[(typ, face)],
                              obj_frac=frac)
    if not crop or not truth:
        return img
    t = truth[0]
    m = rng.uniform(*margin) * t["w"]
    x0, x1 = int(max(0, t["x"] - t["w"] / 2 - m)), int(min(img.shape[1], t["x"] + t["w"] / 2 + m))
    y0, y1 = int(max(0, t["y"] - t["h"] / 2 - m)), int(min(img.shape[0], t["y"] + t["h"] / 2 + m))
    return img[y0:y1, x0:x1].copy()


def demo_frames(seed: int = 0, kind: str = "dice", size=(640, 480)) -> Iterator[np.ndarray]:
    """Endless demo-camera frames (a new roll every frame; callers pace them)."""
    rng = np.random.default_rng(seed)
    while True:
        yield render_scene(rng, kind=kind, size=size)[0]


SPECS = {"castle-dice": CASTLE_DICE, "augustus-tokens": AUGUSTUS_TOKENS, "alt-dice": ALT_DICE,
         "alt-tokens": ALT_TOKENS}
