"""An independent renderer of custom dice and bag tokens ("drawn by another hand").

It does not use vision/render.py: other bodies (rounded squares with a visible side face from a
slight 3D look, discs with a rim ring and an edge), other icons (Hershey-font letters and numerals,
line-art stars, arrows, crosses, rings, polygons, hearts, moons, bolts; filled or outlined; printed
dark, printed light or embossed), other tables (flat cloth, wood stripes, checked and dotted
cloth, gradients, real table photos with their dice painted out) and other light (colour cast,
brightness, vignetting, drop shadows, glare, blur, noise, JPEG, a mild perspective of the whole
picture). The set's colours and icons are drawn from the seed.

    .venv/bin/python bench/other_hand.py OUT --seed 1 --kind dice --examples crops --scenes 40
    .venv/bin/python bench/vision_sets.py --set OUT/set --scenes OUT/scenes --per-face 5

writes OUT/set/set.toml, OUT/set/examples/<type>/<face>/NN.png (5 per face: tight crops or whole
640x480 photos with one object), OUT/scenes/NNN.png (1 to 12 objects) and OUT/scenes/truth.json
(file name -> [{"x", "y", "w", "h", "type", "face"}], x, y the centre of the top face).
"""

from __future__ import annotations

import argparse
import colorsys
import glob
import json
import math
import os
from pathlib import Path

import cv2
import numpy as np

W, H = 640, 480
SS = 2  # drawn at twice the size, then shrunk (antialiasing)
TEX = 128  # side of a face's texture
# real table photos (the dice-dev set beside the repository, or $OTHER_HAND_PHOTOS); without them
# the "photo" tables are gradients
PHOTOS = os.environ.get("OTHER_HAND_PHOTOS",
                        str(Path(__file__).resolve().parents[2] / "shared/datasets/dice-dev/Train/*.jpg"))

# ---------------------------------------------------------------- icons (a mask on a TEX x TEX face)

FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX]


def _star(n: int, r_out: float, r_in: float, rot: float = -math.pi / 2) -> np.ndarray:
    pts = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = rot + i * math.pi / n
        pts.append((TEX / 2 + r * math.cos(a), TEX / 2 + r * math.sin(a)))
    return np.array(pts)


def _poly(n: int, r: float, rot: float = -math.pi / 2) -> np.ndarray:
    return np.array([(TEX / 2 + r * math.cos(rot + 2 * math.pi * i / n), TEX / 2 + r * math.sin(rot + 2 * math.pi * i / n))
                     for i in range(n)])


def _fill_or_line(m: np.ndarray, pts: np.ndarray, filled: bool, th: int) -> None:
    p = [np.round(pts * 16).astype(np.int32)]
    if filled:
        cv2.fillPoly(m, p, 255, cv2.LINE_AA, 4)
    else:
        cv2.polylines(m, p, True, 255, th, cv2.LINE_AA, 4)


def draw_icon(icon: dict, scale: float = 1.0) -> np.ndarray:
    """A uint8 mask of the icon, centred on a TEX x TEX square; ``scale`` 1 fills about 70 %."""
    m = np.zeros((TEX, TEX), np.uint8)
    k, filled, th = icon["kind"], icon.get("filled", True), icon.get("th", 7)
    R = 0.36 * TEX * scale
    c = TEX / 2
    if k == "text":
        font, txt = icon["font"], icon["text"]
        (tw, thh), base = cv2.getTextSize(txt, font, 1.0, 1)
        fs = 1.45 * R / max(tw, thh)
        t = max(2, int(round(th * 0.9)))
        (tw, thh), base = cv2.getTextSize(txt, font, fs, t)
        cv2.putText(m, txt, (int(c - tw / 2), int(c + thh / 2)), font, fs, 255, t, cv2.LINE_AA)
    elif k == "star":
        _fill_or_line(m, _star(icon.get("n", 5), R, R * 0.45), filled, th)
    elif k == "poly":
        _fill_or_line(m, _poly(icon["n"], R * 0.95), filled, th)
    elif k == "diamond":
        _fill_or_line(m, np.array([(c, c - R), (c + R * 0.65, c), (c, c + R), (c - R * 0.65, c)]), filled, th)
    elif k == "arrow":
        a = np.array([(-R, -0.18 * R), (0.15 * R, -0.18 * R), (0.15 * R, -0.6 * R), (R, 0), (0.15 * R, 0.6 * R),
                      (0.15 * R, 0.18 * R), (-R, 0.18 * R)]) + c
        _fill_or_line(m, a, filled, th)
    elif k == "cross":
        w = 0.28 * R
        a = np.array([(-w, -R), (w, -R), (w, -w), (R, -w), (R, w), (w, w), (w, R), (-w, R), (-w, w), (-R, w),
                      (-R, -w), (-w, -w)])
        if icon.get("x"):
            a = a @ np.array([[math.cos(math.pi / 4), -math.sin(math.pi / 4)], [math.sin(math.pi / 4), math.cos(math.pi / 4)]])
        _fill_or_line(m, a + c, filled, th)
    elif k == "ring":
        cv2.circle(m, (int(c * 16), int(c * 16)), int(R * 16), 255, th, cv2.LINE_AA, 4)
        if icon.get("dot"):
            cv2.circle(m, (int(c * 16), int(c * 16)), int(R * 0.35 * 16), 255, -1, cv2.LINE_AA, 4)
        if icon.get("double"):
            cv2.circle(m, (int(c * 16), int(c * 16)), int(R * 0.55 * 16), 255, th, cv2.LINE_AA, 4)
    elif k == "heart":
        t = np.linspace(0, 2 * math.pi, 80)
        x = 16 * np.sin(t) ** 3
        y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
        _fill_or_line(m, np.stack([c + x * R / 17, c + y * R / 17 - 0.1 * R], 1), filled, th)
    elif k == "moon":
        cv2.circle(m, (int(c), int(c)), int(R), 255, -1, cv2.LINE_AA)
        cv2.circle(m, (int(c + 0.45 * R), int(c - 0.2 * R)), int(R * 0.85), 0, -1, cv2.LINE_AA)
    elif k == "bolt":
        a = np.array([(0.25, -1), (-0.55, 0.1), (-0.05, 0.1), (-0.3, 1), (0.55, -0.15), (0.05, -0.15), (0.4, -1)]) * R + c
        _fill_or_line(m, a, filled, th)
    elif k == "pips":  # an odd little pattern of bars (a "tally")
        for i in range(icon["n"]):
            x = c + (i - (icon["n"] - 1) / 2) * 0.42 * R
            cv2.line(m, (int(x), int(c - 0.8 * R)), (int(x), int(c + 0.8 * R)), 255, th, cv2.LINE_AA)
        if icon.get("slash"):
            cv2.line(m, (int(c - R), int(c + 0.6 * R)), (int(c + R), int(c - 0.6 * R)), 255, th, cv2.LINE_AA)
    else:
        raise ValueError(k)
    return m


ICON_POOL = {  # face id -> how it is drawn (the same on every type it is on)
    "sword": lambda r: {"kind": "text", "text": "K", "font": FONTS[r.integers(4)], "th": 6},
    "queen": lambda r: {"kind": "text", "text": "Q", "font": FONTS[r.integers(4)], "th": 6},
    "rune": lambda r: {"kind": "text", "text": "R", "font": FONTS[5], "th": 5},
    "two": lambda r: {"kind": "text", "text": "2", "font": FONTS[r.integers(4)], "th": 7},
    "five": lambda r: {"kind": "text", "text": "5", "font": FONTS[r.integers(4)], "th": 7},
    "seven": lambda r: {"kind": "text", "text": "7", "font": FONTS[r.integers(4)], "th": 7},
    "star": lambda r: {"kind": "star", "n": 5, "filled": bool(r.integers(2)), "th": 6},
    "sun": lambda r: {"kind": "star", "n": 8, "filled": True},
    "hex": lambda r: {"kind": "poly", "n": 6, "filled": False, "th": 8},
    "tri": lambda r: {"kind": "poly", "n": 3, "filled": bool(r.integers(2)), "th": 8},
    "gem": lambda r: {"kind": "diamond", "filled": bool(r.integers(2)), "th": 7},
    "arrow": lambda r: {"kind": "arrow", "filled": True},
    "cross": lambda r: {"kind": "cross", "filled": True, "x": False},
    "skull": lambda r: {"kind": "cross", "filled": False, "x": True, "th": 6},  # the barbarian of this set
    "eye": lambda r: {"kind": "ring", "dot": True, "th": 7},
    "target": lambda r: {"kind": "ring", "double": True, "th": 6},
    "heart": lambda r: {"kind": "heart", "filled": bool(r.integers(2)), "th": 6},
    "moon": lambda r: {"kind": "moon"},
    "bolt": lambda r: {"kind": "bolt", "filled": True},
    "tally": lambda r: {"kind": "pips", "n": 3, "slash": True, "th": 6},
}


def _hsv(h: float, s: float, v: float) -> tuple[float, float, float]:
    r, g, b = colorsys.hsv_to_rgb((h % 360) / 360, s, v)
    return (b * 255, g * 255, r * 255)


def make_spec(rng: np.random.Generator, kind: str) -> dict:
    """The set: types with body colour, ink and faces; the face ids' icons."""
    if kind == "tokens":
        bodies = [(_hsv(35, 0.35, 0.85), "print"), (_hsv(25, 0.55, 0.55), "light"), (_hsv(210, 0.15, 0.25), "light"),
                  (_hsv(45, 0.12, 0.92), "print"), (_hsv(0, 0.6, 0.6), "light")]
        body, ink = bodies[rng.integers(len(bodies))]
        faces = list(rng.choice(["star", "moon", "two", "five", "heart", "bolt", "eye", "tri", "queen", "cross"],
                                size=int(rng.integers(5, 8)), replace=False))
        types = {"token": {"body": body, "ink": ink, "faces": faces, "shape": "disc"}}
    else:
        pairs = [((125, 0.6, 0.55), (215, 0.65, 0.6)), ((0, 0.7, 0.7), (28, 0.8, 0.85)), ((280, 0.45, 0.5), (185, 0.6, 0.55))]
        (h1, s1, v1), (h2, s2, v2) = pairs[rng.integers(len(pairs))]
        j = lambda: rng.uniform(-6, 6)  # noqa: E731
        shared = list(rng.choice(["sword", "star", "arrow", "eye", "bolt", "queen"], size=4, replace=False)) + ["skull"]
        types = {
            "grove": {"body": _hsv(h1 + j(), s1, v1), "ink": "print" if v1 > 0.6 else "light", "faces": shared},
            "tide": {"body": _hsv(h2 + j(), s2, v2), "ink": "print" if v1 > 0.6 else "light", "faces": shared},
            "bone": {"body": _hsv(40, 0.08, 0.93), "ink": "print", "faces": ["two", "five", "seven", "skull"]},
            "slate": {"body": _hsv(220, 0.06, 0.55), "ink": "emboss",
                      "faces": ["hex", "moon", "target", "skull", "tally", "gem"]},
        }
        if rng.random() < 0.7:
            types["amber"] = {"body": _hsv(48, 0.75, 0.9), "ink": "print", "faces": ["heart", "sun", "tri", "cross"]}
        for t in types.values():
            t["shape"] = "square"
    icons = {}
    for t in types.values():
        for f in t["faces"]:
            if f not in icons:
                icons[f] = ICON_POOL[f](rng)
    return {"kind": kind, "types": types, "icons": icons}


# ---------------------------------------------------------------- one object's texture and outline

def face_texture(rng: np.random.Generator, spec: dict, typ: str, face: str) -> np.ndarray:
    t = spec["types"][typ]
    body = np.array(t["body"], np.float32)
    tex = np.empty((TEX, TEX, 3), np.float32)
    tex[:] = body
    yy, xx = np.mgrid[0:TEX, 0:TEX] / TEX
    tex *= (0.94 + 0.1 * (1 - yy) * (1 - xx))[..., None]  # a soft sheen toward one corner
    tex += rng.normal(0, 2.0, tex.shape)
    if t["shape"] == "disc":
        cv2.circle(tex, (TEX // 2, TEX // 2), int(TEX * 0.43), tuple(float(v) for v in body * 0.7), 5, cv2.LINE_AA)
        m = draw_icon(spec["icons"][face], 0.78)
    else:
        m = draw_icon(spec["icons"][face], 0.95)
    a = (cv2.GaussianBlur(m, (3, 3), 0).astype(np.float32) / 255)[..., None]
    if t["ink"] == "print":
        ink = np.array([30, 28, 32], np.float32) if body.mean() > 110 else np.array([20, 20, 20], np.float32)
        tex = tex * (1 - a) + ink * a
    elif t["ink"] == "light":
        tex = tex * (1 - a) + np.array([235, 238, 240], np.float32) * a
    else:  # embossed: a raised symbol, lit from the upper left
        d = 3
        up = np.roll(np.roll(a, -d, 0), -d, 1)
        dn = np.roll(np.roll(a, d, 0), d, 1)
        tex = tex * (1 + 0.45 * np.clip(a - dn, 0, 1) - 0.45 * np.clip(a - up, 0, 1)) * (1 - 0.08 * a)
    return np.clip(tex, 0, 255)


def outline(shape: str, s: float, theta: float, cx: float, cy: float, rr: float = 0.18) -> np.ndarray:
    """The top face's outline (N x 2 points) of side/diameter ``s`` turned by ``theta``."""
    if shape == "disc":
        a = np.linspace(0, 2 * math.pi, 72, endpoint=False)
        p = np.stack([np.cos(a), np.sin(a)], 1) * s / 2
    else:
        r = rr * s
        h = s / 2 - r
        pts = []
        for (sx, sy), a0 in (((1, 1), 0), ((-1, 1), 90), ((-1, -1), 180), ((1, -1), 270)):
            for a in np.linspace(a0, a0 + 90, 7):
                pts.append((sx * h + r * math.cos(math.radians(a)), sy * h + r * math.sin(math.radians(a))))
        p = np.array(pts)
    c, sn = math.cos(theta), math.sin(theta)
    return p @ np.array([[c, sn], [-sn, c]]) + (cx, cy)


# ---------------------------------------------------------------- tables

_PHOTO_CACHE: dict[str, np.ndarray] = {}


def _photo_and_mask(f: str) -> np.ndarray:
    """A table photo (BGR) with a 4th channel marking where its dice are."""
    if f not in _PHOTO_CACHE:
        img = cv2.imread(f)
        m = np.zeros(img.shape[:2], np.uint8)
        lab = Path(f).with_suffix(".txt")
        if lab.exists():
            for line in lab.read_text().split("\n"):
                v = line.split()
                if len(v) == 5:
                    x, y, bw, bh = (float(q) for q in v[1:])
                    # the boxes are tight on the pips: the die (and its sides) is about 3 times that
                    half = max(45.0, 1.7 * max(bw * img.shape[1], bh * img.shape[0]))
                    x, y = x * img.shape[1], y * img.shape[0]
                    m[max(0, int(y - half)):int(y + half), max(0, int(x - half)):int(x + half)] = 255
        _PHOTO_CACHE[f] = np.dstack([img, m])
    return _PHOTO_CACHE[f]


def _photo_table(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A part of a real table photo with no die in it, shown bigger and a little blurred (after
    five photos without such a part: the last one with its dice painted out)."""
    files = sorted(glob.glob(PHOTOS))
    crop = None
    for _ in range(5):
        im = _photo_and_mask(files[int(rng.integers(len(files)))])
        if rng.random() < 0.5:
            im = im[::-1, ::-1]
        img, m = im[..., :3], im[..., 3]
        for fr in (0.9, 0.75, 0.6, 0.5, 0.4, 0.3):
            ch, cw = int(img.shape[0] * fr), int(img.shape[1] * fr)
            for _ in range(30):
                y0, x0 = int(rng.integers(0, img.shape[0] - ch + 1)), int(rng.integers(0, img.shape[1] - cw + 1))
                if not m[y0:y0 + ch, x0:x0 + cw].any():
                    crop = img[y0:y0 + ch, x0:x0 + cw]
                    break
            if crop is not None:
                break
        if crop is not None:
            break
    if crop is None:
        crop = cv2.inpaint(np.ascontiguousarray(img), np.ascontiguousarray(m), 7, cv2.INPAINT_TELEA)
    out = cv2.resize(np.ascontiguousarray(crop), (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    return cv2.GaussianBlur(out, (0, 0), rng.uniform(1.5, 4.0))


def table(rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, str]:
    kind = ["flat", "wood", "checker", "dots", "gradient", "photo"][int(rng.integers(6))]
    if kind == "photo" and not glob.glob(PHOTOS):
        kind = "gradient"
    hue = rng.uniform(0, 360)
    col = np.array(_hsv(hue, rng.uniform(0.1, 0.7), rng.uniform(0.25, 0.85)), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "flat":
        img = np.empty((h, w, 3), np.float32)
        img[:] = col
        img += cv2.GaussianBlur(rng.normal(0, 10, (h, w, 1)).astype(np.float32), (0, 0), 1.2)[..., None]
    elif kind == "wood":
        base = np.array(_hsv(rng.uniform(20, 40), rng.uniform(0.35, 0.7), rng.uniform(0.4, 0.85)), np.float32)
        warp = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a)
        g = np.sin(u / rng.uniform(6, 18) + 4 * warp) * 0.5 + 0.5
        g = g ** 3
        img = base * (1 - 0.3 * g)[..., None]
    elif kind == "checker":
        c2 = np.array(_hsv(hue + rng.uniform(-40, 40), rng.uniform(0.1, 0.7), rng.uniform(0.2, 0.9)), np.float32)
        p = rng.uniform(20, 90)
        a = rng.uniform(0, math.pi / 2)
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        if rng.random() < 0.5:
            chk = ((np.floor(u / p) + np.floor(v / p)) % 2)[..., None]
        else:  # plaid: stripes both ways
            chk = (0.5 * ((np.floor(u / p) % 2) + (np.floor(v / p) % 2)))[..., None]
        img = col * (1 - chk) + c2 * chk
        img = cv2.GaussianBlur(img, (0, 0), 1.0)
    elif kind == "dots":
        img = np.empty((h, w, 3), np.float32)
        img[:] = col
        c2 = tuple(float(v) for v in np.array(_hsv(hue + 180, rng.uniform(0, 0.5), rng.uniform(0.3, 1.0))))
        p = int(rng.uniform(24, 70))
        rad = int(rng.uniform(3, p / 4))
        for y in range(0, h + p, p):
            for x in range((y // p % 2) * p // 2, w + p, p):
                cv2.circle(img, (x, y), rad, c2, -1, cv2.LINE_AA)
    elif kind == "gradient":
        c2 = np.array(_hsv(hue + rng.uniform(-90, 90), rng.uniform(0.1, 0.8), rng.uniform(0.2, 0.9)), np.float32)
        a = rng.uniform(0, 2 * math.pi)
        u = xx * math.cos(a) + yy * math.sin(a)
        u = (u - u.min()) / (u.max() - u.min() + 1e-6)
        img = col * (1 - u[..., None]) + c2 * u[..., None]
    else:
        img = _photo_table(rng, w, h)
    return np.clip(img, 0, 255).astype(np.float32), kind


# ---------------------------------------------------------------- a scene

def _place(rng: np.random.Generator, radii: list[float], w: int, h: int, margin: float) -> list[tuple[float, float]] | None:
    pos: list[tuple[float, float]] = []
    for r in radii:
        if margin + r >= min(w, h) / 2:
            return None
        for _ in range(400):
            x, y = rng.uniform(margin + r, w - margin - r), rng.uniform(margin + r, h - margin - r)
            if all(math.hypot(x - px, y - py) > r + pr + 2 for (px, py), pr in zip(pos, radii, strict=False)):
                pos.append((x, y))
                break
        else:
            return None
    return pos


def render(rng: np.random.Generator, spec: dict, items: list[tuple[str, str]], w: int = W, h: int = H,
           size: tuple[float, float] = (30, 70)) -> tuple[np.ndarray, list[dict], dict]:
    """A picture of ``items`` (type, face) on a table; (BGR uint8, truth, what was drawn)."""
    W2, H2 = w * SS, h * SS
    img, tkind = table(rng, W2, H2)
    base = rng.uniform(*size) * SS
    tilt = rng.uniform(0.04, 0.16)  # how much of the side shows, of the size
    tilt_dir = rng.uniform(math.radians(50), math.radians(130))  # the side is seen below (camera in front)
    light = rng.uniform(0, 2 * math.pi)
    sizes = [base * rng.uniform(0.93, 1.07) for _ in items]
    radii = [s * (0.72 + tilt) + 0.1 * s for s in sizes]
    while True:
        pos = _place(rng, radii, W2, H2, 0.07 * min(W2, H2))
        if pos is not None:
            break
        sizes = [s * 0.92 for s in sizes]
        radii = [r * 0.92 for r in radii]
    truth = []
    for (typ, face), s, (cx, cy) in zip(items, sizes, pos, strict=True):
        t = spec["types"][typ]
        shape = t["shape"]
        theta = rng.uniform(0, 2 * math.pi)
        top = outline(shape, s, theta, cx, cy, rr=0.16 + 0.06 * rng.random())
        v = np.array([math.cos(tilt_dir), math.sin(tilt_dir)]) * tilt * s * (0.45 if shape == "disc" else 1.0)
        body = np.array(t["body"], np.float32)
        R = int(s * 1.2 + np.linalg.norm(v)) + 8
        x0, y0 = int(cx) - R, int(cy) - R
        x0c, y0c, x1c, y1c = max(0, x0), max(0, y0), min(W2, x0 + 2 * R), min(H2, y0 + 2 * R)
        roi = img[y0c:y1c, x0c:x1c]
        off = np.array([x0c, y0c])
        # drop shadow of the whole body
        sh = np.zeros(roi.shape[:2], np.float32)
        ls = s * rng.uniform(0.05, 0.14)
        for k in np.linspace(0, 1, 6):
            pts = top + v * k - off + (math.cos(light) * ls, math.sin(light) * ls)
            cv2.fillPoly(sh, [np.round(pts * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        sh = cv2.GaussianBlur(sh, (0, 0), 0.12 * s)
        roi *= (1 - rng.uniform(0.3, 0.55) * sh)[..., None]
        # side faces: the top outline swept along v, darker
        side = np.zeros(roi.shape[:2], np.uint8)
        for k in np.linspace(0, 1, 12):
            cv2.fillPoly(side, [np.round((top + v * k - off) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        sm = (side.astype(np.float32) / 255)[..., None]
        side_col = body * rng.uniform(0.5, 0.68)
        roi[:] = roi * (1 - sm) + side_col * sm
        # the top face: its texture turned and placed
        tex = face_texture(rng, spec, typ, face)
        c, sn = math.cos(theta), math.sin(theta)
        k = s / TEX
        M = np.array([[c * k, -sn * k, 0], [sn * k, c * k, 0]], np.float64)
        M[:, 2] = np.array([cx, cy]) - off - M[:, :2] @ np.array([TEX / 2, TEX / 2])
        warped = cv2.warpAffine(tex, M, (roi.shape[1], roi.shape[0]), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
        tm = np.zeros(roi.shape[:2], np.uint8)
        cv2.fillPoly(tm, [np.round((top - off) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        tmf = (tm.astype(np.float32) / 255)[..., None]
        roi[:] = roi * (1 - tmf) + warped * tmf
        cv2.polylines(roi, [np.round((top - off) * 16).astype(np.int32)], True,
                      tuple(float(q) for q in np.minimum(body * 1.15 + 10, 255)), max(1, int(s * 0.02)), cv2.LINE_AA, 4)
        truth.append({"x": cx / SS, "y": cy / SS, "w": s / SS, "h": s / SS, "type": typ, "face": face})
    out = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    out, truth = light_and_camera(rng, out, truth)
    return out, truth, {"table": tkind}


def light_and_camera(rng: np.random.Generator, img: np.ndarray, truth: list[dict]) -> tuple[np.ndarray, list[dict]]:
    h, w = img.shape[:2]
    img = img * rng.uniform(0.85, 1.15, 3).astype(np.float32)  # white balance
    img *= rng.uniform(0.7, 1.25)  # exposure
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    img *= (1 - rng.uniform(0, 0.35) * r2 / 2)[..., None]  # vignetting
    a = rng.uniform(0, 2 * math.pi)
    img *= (1 + rng.uniform(0, 0.2) * ((xx * math.cos(a) + yy * math.sin(a)) / max(w, h) - 0.5))[..., None]
    if rng.random() < 0.3:  # a glare spot
        gx, gy, gr = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.2) * w
        img += (rng.uniform(50, 120) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * gr * gr)))[..., None]
    if rng.random() < 0.8:  # mild perspective: an inner quadrilateral seen as the whole picture
        d = rng.uniform(0, 0.05, (4, 2)) * (w, h)
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + np.float32(d * [[1, 1], [-1, 1], [-1, -1], [1, -1]])
        dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        P = cv2.getPerspectiveTransform(src, dst)
        img = cv2.warpPerspective(img, P, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        new = []
        for t in truth:
            q = cv2.perspectiveTransform(np.float32([[[t["x"], t["y"]], [t["x"] + t["w"] / 2, t["y"]],
                                                      [t["x"], t["y"] + t["h"] / 2]]]), P)[0]
            sc = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[0]))
            new.append(dict(t, x=float(q[0][0]), y=float(q[0][1]), w=float(sc), h=float(sc)))
        truth = new
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.2))
    img = img + rng.normal(0, rng.uniform(1.5, 5), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 85))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    truth = [dict(t, x=round(t["x"], 1), y=round(t["y"], 1), w=round(t["w"], 1), h=round(t["h"], 1)) for t in truth]
    return img, truth


def crop_example(rng: np.random.Generator, spec: dict, typ: str, face: str) -> np.ndarray:
    """A close-up: one object, bigger, on a table, cut out with a little table around it."""
    img, truth, _ = render(rng, spec, [(typ, face)], 400, 320, size=(60, 120))
    t = truth[0]
    s = max(t["w"], t["h"])
    m = rng.uniform(0.62, 0.95)  # half the crop, of the size (takes in the side face and a margin)
    dx, dy = rng.uniform(-0.08, 0.08, 2) * s
    x0, y0 = int(max(0, t["x"] + dx - m * s)), int(max(0, t["y"] + dy - m * s + 0.05 * s))
    x1, y1 = int(min(img.shape[1], t["x"] + dx + m * s)), int(min(img.shape[0], t["y"] + dy + m * s + 0.1 * s))
    return img[y0:y1, x0:x1]


def write(out: Path, seed: int, kind: str, examples: str, scenes: int, per_face: int = 5) -> dict:
    rng = np.random.default_rng(seed)
    spec = make_spec(rng, kind)
    set_dir = out / "set"
    (set_dir / "examples").mkdir(parents=True, exist_ok=True)
    (set_dir / "set.toml").write_text(f'name = "other-hand-{kind}-{seed}"\nkind = "{kind}"\n')
    for typ, t in spec["types"].items():
        for face in t["faces"]:
            d = set_dir / "examples" / typ / face
            d.mkdir(parents=True, exist_ok=True)
            for i in range(per_face):
                if examples == "crops":
                    img = crop_example(rng, spec, typ, face)
                else:
                    img, _, _ = render(rng, spec, [(typ, face)])
                cv2.imwrite(str(d / f"{i:02d}.png"), img)
    sd = out / "scenes"
    sd.mkdir(parents=True, exist_ok=True)
    all_faces = [(typ, f) for typ, t in spec["types"].items() for f in t["faces"]]
    truth_all, tables = {}, {}
    for i in range(scenes):
        n = int(rng.integers(1, 13))
        items = [all_faces[j] for j in rng.integers(0, len(all_faces), n)]
        img, truth, info = render(rng, spec, items)
        name = f"{i:03d}.png"
        cv2.imwrite(str(sd / name), img)
        truth_all[name] = truth
        tables[name] = info["table"]
    (sd / "truth.json").write_text(json.dumps(truth_all, indent=1))
    (out / "tables.json").write_text(json.dumps(tables, indent=1))
    (out / "spec.json").write_text(json.dumps(spec, indent=1, default=str))
    return spec


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", choices=["dice", "tokens"], default="dice")
    ap.add_argument("--examples", choices=["crops", "photos"], default="crops")
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("--per-face", type=int, default=5)
    a = ap.parse_args(argv)
    write(a.out, a.seed, a.kind, a.examples, a.scenes, a.per_face)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
