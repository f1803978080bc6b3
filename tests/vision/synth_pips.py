"""A small renderer of standard pip dice scenes, for testing the reader's generality.

``render(spec, seed)`` draws a 640x480 (by default) BGR scene and returns ``(image, truth)`` where
truth lists ``{"x", "y", "value", "cocked"}`` per die (x, y = centre of the top face).

What it can draw (all options in ``Scene``):

* dice of any body and pip colour (dark pips on light dice, light pips on dark dice), any size
  (about 18 px and up), any rotation, with the near side face visible (perspective), touching
  each other, or cocked (top face tilted: squeezed and sheared, two side faces showing);
* backgrounds: plain grey tray, wood grain, a mat of dots, printed text, coins, noise;
* lighting: a soft drop shadow per die, a glare spot, global blur, sensor noise, JPEG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

# Pip positions on a face in units of half the face side, origin at the face centre.
_P = 0.56
PIP_LAYOUT = {
    1: [(0, 0)],
    2: [(-_P, -_P), (_P, _P)],
    3: [(-_P, -_P), (0, 0), (_P, _P)],
    4: [(-_P, -_P), (_P, -_P), (-_P, _P), (_P, _P)],
    5: [(-_P, -_P), (_P, -_P), (0, 0), (-_P, _P), (_P, _P)],
    6: [(-_P, -_P), (_P, -_P), (-_P, 0), (_P, 0), (-_P, _P), (_P, _P)],
}

COLOURS = {  # (body BGR, pip BGR)
    "white": ((235, 238, 240), (25, 25, 25)),
    "ivory": ((200, 228, 238), (30, 30, 40)),
    "red": ((40, 40, 200), (240, 240, 240)),
    "blue": ((170, 70, 30), (245, 245, 245)),
    "green": ((60, 150, 40), (250, 250, 250)),
    "black": ((30, 30, 30), (235, 235, 235)),
    "yellow": ((40, 210, 235), (20, 20, 20)),
    "purple": ((120, 40, 110), (230, 230, 230)),
    "orange": ((30, 130, 240), (20, 20, 20)),
    "grey": ((150, 150, 150), (20, 20, 20)),
}


@dataclass
class Die:
    x: float
    y: float
    size: float  # side of the top face, px
    value: int
    angle: float = 0.0  # degrees
    colour: str = "white"
    cocked: bool = False
    pip_ratio: float = 0.2  # pip diameter / face side
    finish: str = "plain"  # plain | marbled (swirls of a second colour) | translucent (see-through)
    logo: str = ""  # a 1 face engraved with a logo instead of its pip: "star" | "ring" | "letters"


@dataclass
class Scene:
    width: int = 640
    height: int = 480
    background: str = "grey"  # grey | wood | dots | text | coins | noise | felt | page | fullpage
    dice: list[Die] = field(default_factory=list)
    tilt: float = 0.25  # how much of the near side face shows (0 = straight down), fraction of size
    shadow: bool = True
    glare: bool = False
    blur: float = 0.0  # Gaussian sigma
    noise: float = 2.0  # sensor noise sigma
    jpeg: int = 0  # JPEG quality (0 = none)


def _background(scene: Scene, rng: np.random.Generator) -> np.ndarray:
    h, w = scene.height, scene.width
    kind = scene.background
    if kind == "wood":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        warp = 12 * np.sin(xx / 90.0 + rng.uniform(0, 6)) + 5 * np.sin(xx / 23.0)
        grain = np.sin((yy + warp) / rng.uniform(3.0, 6.0)) * 0.5 + 0.5
        base = np.array([150, 190, 220], np.float32)  # light wood, BGR
        img = base[None, None, :] * (0.85 + 0.15 * grain[:, :, None])
        streaks = (np.sin((yy + warp * 2) / 1.7) > 0.97).astype(np.float32)
        img -= 40 * streaks[:, :, None]
        return np.clip(img, 0, 255).astype(np.uint8)
    if kind == "felt":  # a dark dice tray lined with felt: black, green, wine or navy, fine fibres
        colour = [(25, 25, 25), (30, 60, 20), (25, 20, 75), (65, 30, 15)][int(rng.integers(0, 4))]
        fibres = cv2.GaussianBlur(rng.normal(0, 9, (h, w)).astype(np.float32), (0, 0), 0.8)
        img = np.array(colour, np.float32)[None, None, :] * (1 + fibres[:, :, None] / 40)
        return np.clip(img, 0, 255).astype(np.uint8)
    grey = int(rng.integers(90, 150))
    img = np.full((h, w, 3), grey, np.uint8)
    if kind == "dots":  # a mat printed with pip-like dots
        step = int(rng.integers(18, 30))
        for y in range(step // 2, h, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, w, step):
                cv2.circle(img, (x, y), int(rng.integers(2, 4)), (40, 40, 40), -1, cv2.LINE_AA)
    elif kind == "text":
        words = ["ROLL", "dice 6", "Castle", "o.o", "Ab8", "3:1", "Augustus", "...", "go!"]
        for _ in range(14):
            cv2.putText(img, str(rng.choice(words)), (int(rng.integers(0, w - 80)), int(rng.integers(20, h))),
                        cv2.FONT_HERSHEY_SIMPLEX, float(rng.uniform(0.4, 1.2)), (20, 20, 20),
                        int(rng.integers(1, 3)), cv2.LINE_AA)
    elif kind == "coins":
        for _ in range(6):
            c = (int(rng.integers(40, w - 40)), int(rng.integers(40, h - 40)))
            r = int(rng.integers(12, 30))
            cv2.circle(img, c, r, (60, 150, 190), -1, cv2.LINE_AA)
            cv2.circle(img, c, int(r * 0.7), (40, 120, 160), 2, cv2.LINE_AA)
            cv2.putText(img, str(int(rng.integers(1, 50))), (c[0] - r // 2, c[1] + r // 4),
                        cv2.FONT_HERSHEY_SIMPLEX, r / 40, (30, 90, 130), 1, cv2.LINE_AA)
    elif kind == "noise":
        img = np.clip(img.astype(np.int16) + rng.normal(0, 18, img.shape), 0, 255).astype(np.uint8)
    elif kind in ("page", "fullpage"):
        img = _page(img, rng, full=kind == "fullpage")
    return img


_PAGE_TEXT = ("the dice are rolled and each player takes one, then the barbarians move: "
              "resources (wood, stone, gold, land, iron) are paid in full. If a joker is drawn, "
              "shuffle the tokens back into the bag! Scoring: 3 points per card; 1:2 for ties. "
              "Rule 4.2 (p. 7) - i.e. a die shows i, ii, iii... pips; see section 12.3.")
_PAGE_WORDS = _PAGE_TEXT.split(" ")


def _page(img: np.ndarray, rng: np.random.Generator, full: bool = False) -> np.ndarray:
    """A printed page (a rulebook, a score sheet) lying on the table: dense lines of words in
    one of OpenCV's fonts, dark ink on paper (or, now and then, light print on dark card),
    the page turned a little; ``full``: the page fills the picture."""
    h, w = img.shape[:2]
    dark_card = rng.random() < 0.25
    paper, ink = ((45, 40, 50), (225, 225, 215)) if dark_card else ((228, 232, 235), (30, 30, 35))
    big = max(h, w) * 2
    page = np.full((big, big, 3), paper, np.uint8)
    font = int(rng.choice([0, 1, 2, 3, 4, 6]))
    fs = float(rng.uniform(0.35, 0.8)) * max(h, w) / 640
    thick = max(1, int(round(fs * rng.uniform(1.2, 2.2))))
    (_tw, th), _b = cv2.getTextSize("Ag", font, fs, thick)
    step = int(th * rng.uniform(1.6, 2.3)) + 2
    k = int(rng.integers(0, len(_PAGE_WORDS)))
    for y in range(step, big, step):
        x = int(rng.integers(2, 12))
        while x < big:
            word = _PAGE_WORDS[k % len(_PAGE_WORDS)]
            k += 1
            cv2.putText(page, word, (x, y), font, fs, ink, thick, cv2.LINE_AA)
            x += cv2.getTextSize(word + " ", font, fs, thick)[0][0]
    m = cv2.getRotationMatrix2D((big / 2, big / 2), float(rng.uniform(-12, 12)), 1.0)
    m[:, 2] += (w / 2 - big / 2, h / 2 - big / 2)
    page = cv2.warpAffine(page, m, (w, h), flags=cv2.INTER_LINEAR)
    if full:
        return page
    # a sheet covering part of the table: a rotated rectangle about half the picture
    mask = np.zeros((h, w), np.uint8)
    cx, cy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
    box = cv2.boxPoints(((cx, cy), (rng.uniform(0.4, 0.7) * w, rng.uniform(0.5, 0.9) * h), rng.uniform(-15, 15)))
    cv2.fillConvexPoly(mask, box.astype(np.int32), 255, cv2.LINE_AA)
    a = (mask.astype(np.float32) / 255)[:, :, None]
    return (page * a + img * (1 - a)).astype(np.uint8)


def _rot(angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def _face_transform(d: Die, tilt_squash: float) -> np.ndarray:
    """2x2 map from face units (half sides) to image pixels for the top face."""
    r = _rot(d.angle)
    m = r * (d.size / 2)
    if d.cocked:
        m = np.array([[1.0, 0.45], [0.0, 0.55]]) @ m  # tilted top face: squeezed and sheared
    return np.array([[1.0, 0.0], [0.0, tilt_squash]]) @ m


def _draw_die(img: np.ndarray, d: Die, scene: Scene, rng: np.random.Generator) -> dict:
    body, pip = COLOURS[d.colour]
    squash = math.sqrt(max(0.0, 1 - scene.tilt ** 2))  # top face seen at an angle
    m = _face_transform(d, squash)
    c = np.array([d.x, d.y])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64)
    top = corners @ m.T + c
    side_h = d.size * scene.tilt * (1.6 if d.cocked else 1.0)
    darker = tuple(int(v * 0.72) for v in body)
    if scene.shadow:
        sh = np.zeros(img.shape[:2], np.float32)
        cv2.fillConvexPoly(sh, np.round(top + [d.size * 0.12, side_h + d.size * 0.1]).astype(np.int32), 1.0,
                           cv2.LINE_AA)
        sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, d.size * 0.12))
        img[:] = (img.astype(np.float32) * (1 - 0.45 * sh[:, :, None])).astype(np.uint8)
    # Side faces that point towards the camera (their outward normal has +y in the image).
    order = np.argsort([(top[i][1] + top[(i + 1) % 4][1]) for i in range(4)])[::-1]
    sides = order[:2] if d.cocked else order[:1] if d.angle % 90 == 0 else order[:2]
    for i in sides:
        p0, p1 = top[i], top[(i + 1) % 4]
        quad = np.array([p0, p1, p1 + [0, side_h], p0 + [0, side_h]])
        cv2.fillConvexPoly(img, np.round(quad * 16).astype(np.int32), darker, cv2.LINE_AA, 4)
        # pips on the side face (a 3 seen obliquely), so the reader must ignore side faces
        if side_h > 6:
            u = (p1 - p0)
            for t in (0.25, 0.5, 0.75):
                q = p0 + u * t + [0, side_h * 0.5]
                ax = (max(1, int(d.size * d.pip_ratio / 2)), max(1, int(side_h * d.pip_ratio / 2)))
                ang = math.degrees(math.atan2(u[1], u[0]))
                cv2.ellipse(img, (int(q[0] * 16), int(q[1] * 16)), (ax[0] * 16, ax[1] * 16), ang, 0, 360,
                            tuple(int(v * 0.8) for v in pip), -1, cv2.LINE_AA, 4)
    if d.finish == "plain":
        cv2.fillConvexPoly(img, np.round(top * 16).astype(np.int32), body, cv2.LINE_AA, 4)
    else:
        _fill_finish(img, d, top, body, pip, m, c, rng)
    # rounded edges of a real die catch less light: a darker rim around the top face
    rim = tuple(int(v * 0.7) for v in body)
    cv2.polylines(img, [np.round(top * 16).astype(np.int32)], True, rim, max(1, int(d.size / 20)), cv2.LINE_AA, 4)
    rad = d.size * d.pip_ratio / 2
    if d.value == 1 and d.logo:
        _draw_logo(img, d, m, c, pip)
        return {"x": float(d.x), "y": float(d.y), "value": d.value, "cocked": d.cocked, "size": d.size}
    for (u, v) in PIP_LAYOUT[d.value]:
        q = np.array([u, v]) @ m.T + c
        # a pip is a disc on the face: an ellipse under the same map
        axes_m = m * rad / (d.size / 2)
        uu, ss, _vt = np.linalg.svd(axes_m)
        ang = math.degrees(math.atan2(uu[1, 0], uu[0, 0]))
        cv2.ellipse(img, (int(round(q[0] * 16)), int(round(q[1] * 16))),
                    (max(1, int(round(ss[0] * 16))), max(1, int(round(ss[1] * 16)))), ang, 0, 360, pip, -1,
                    cv2.LINE_AA, 4)
    return {"x": float(d.x), "y": float(d.y), "value": d.value, "cocked": d.cocked, "size": d.size}


def _draw_logo(img: np.ndarray, d: Die, m: np.ndarray, c: np.ndarray, ink: tuple) -> None:
    """A maker's logo engraved on the 1 face in place of its pip: a five-pointed star, a ring
    with a dot, or two letters; about a third of the face across, in the pip colour."""
    def to_img(pts: np.ndarray) -> np.ndarray:  # face units (-1..1) -> image pixels x 16
        return np.round((pts @ m.T + c) * 16).astype(np.int32)

    if d.logo == "star":
        t = np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:-1]
        rr = np.where(np.arange(10) % 2 == 0, 0.38, 0.16)
        cv2.fillPoly(img, [to_img(np.stack([rr * np.cos(t), rr * np.sin(t)], axis=1))], ink, cv2.LINE_AA, 4)
    elif d.logo == "ring":
        t = np.linspace(0, 2 * np.pi, 40)
        ring = np.stack([np.cos(t), np.sin(t)], axis=1)
        cv2.polylines(img, [to_img(ring * 0.32)], True, ink, max(1, int(d.size * 0.05)), cv2.LINE_AA, 4)
        cv2.fillPoly(img, [to_img(ring * 0.09)], ink, cv2.LINE_AA, 4)
    else:  # letters: a bold "C" and "X" side by side
        t = np.linspace(0.25 * np.pi, 1.75 * np.pi, 20)
        arc = np.stack([-0.17 + 0.17 * np.cos(t), 0.22 * np.sin(t)], axis=1)
        cv2.polylines(img, [to_img(arc)], False, ink, max(1, int(d.size * 0.05)), cv2.LINE_AA, 4)
        for a, b in (((0.08, -0.22), (0.36, 0.22)), ((0.36, -0.22), (0.08, 0.22))):
            cv2.polylines(img, [to_img(np.array([a, b]))], False, ink, max(1, int(d.size * 0.05)), cv2.LINE_AA, 4)


def _fill_finish(img: np.ndarray, d: Die, top: np.ndarray, body: tuple, pip: tuple, m: np.ndarray,
                 c: np.ndarray, rng: np.random.Generator) -> None:
    """The top face of a marbled die (swirls of a lighter or darker second colour through the
    body) or of a translucent one (the table shows through, and the pips of the face below
    show as faint ghosts, mirrored and offset)."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(mask, np.round(top * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    layer = np.empty((h, w, 3), np.float32)
    layer[:] = body
    if d.finish == "marbled":
        k = 2 * math.pi / max(6.0, d.size * 0.45)
        phase = float(rng.uniform(0, 2 * math.pi))
        warp = 2.5 * np.sin(ys * k * 0.6 + phase) + 2.0 * np.cos(xs * k * 0.45 - phase)
        swirl = 0.5 + 0.5 * np.sin((xs * 0.8 + ys * 0.6) * k + warp)
        second = np.array([min(255, v * 1.25 + 30) if sum(body) < 380 else v * 0.72 for v in body], np.float32)
        t = (swirl ** 3)[:, :, None]
        layer = layer * (1 - 0.8 * t) + second * 0.8 * t
        img[:] = (img * (1 - mask[:, :, None]) + layer * mask[:, :, None]).astype(np.uint8)
        return
    # translucent: 55 % body colour over what lies below, plus the ghosts of the bottom face
    alpha = 0.55
    ghost = np.zeros((h, w), np.float32)
    rad = d.size * d.pip_ratio / 2
    for (u, v) in PIP_LAYOUT[7 - d.value]:
        q = np.array([-u, v]) @ m.T + c + [d.size * 0.06, d.size * 0.1]
        cv2.circle(ghost, (int(round(q[0] * 16)), int(round(q[1] * 16))), max(16, int(rad * 16 * 1.1)),
                   1.0, -1, cv2.LINE_AA, 4)
    ghost = cv2.GaussianBlur(ghost, (0, 0), max(1.0, d.size * 0.05)) * mask
    below = img.astype(np.float32)
    face = below * (1 - alpha) + layer * alpha
    face = face * (1 - 0.3 * ghost[:, :, None]) + np.array(pip, np.float32) * 0.3 * ghost[:, :, None]
    img[:] = (below * (1 - mask[:, :, None]) + face * mask[:, :, None]).astype(np.uint8)


def render(scene: Scene, seed: int = 0) -> tuple[np.ndarray, list[dict]]:
    rng = np.random.default_rng(seed)
    img = _background(scene, rng)
    truth = [_draw_die(img, d, scene, rng) for d in sorted(scene.dice, key=lambda d: d.y)]
    if scene.glare:
        gl = np.zeros(img.shape[:2], np.float32)
        for d in scene.dice[:2]:
            cv2.ellipse(gl, (int(d.x + d.size * 0.3), int(d.y - d.size * 0.3)),
                        (max(2, int(d.size * 0.12)), max(1, int(d.size * 0.06))), 30, 0, 360, 1.0, -1)
        gl = cv2.GaussianBlur(gl, (0, 0), 2)
        img = np.clip(img.astype(np.float32) + 120 * gl[:, :, None], 0, 255).astype(np.uint8)
    if scene.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), scene.blur)
    if scene.noise > 0:
        img = np.clip(img.astype(np.float32) + rng.normal(0, scene.noise, img.shape), 0, 255).astype(np.uint8)
    if scene.jpeg:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img, truth


def random_scene(seed: int, n: int | None = None, size: tuple[float, float] = (28, 70),
                 colours: tuple[str, ...] = tuple(COLOURS), background: str | None = None,
                 touching: bool = False, translucent: float = 0.0, tilt: float | None = None) -> Scene:
    """A random tray: dice on a grid with jitter so they never overlap (touching if asked);
    about the fraction ``translucent`` of them have a translucent finish. ``tilt`` fixes the
    camera's tilt (0 looking straight down; 0.75 about 40 degrees above the table)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 9)) if n is None else n
    s = float(rng.uniform(*size))
    cell = s * (1.05 if touching else 1.9)
    cols = max(1, int((640 - 2 * s) // cell))
    dice = []
    slots = rng.permutation(cols * max(1, int((480 - 2 * s) // (cell * 1.25))))[:n]
    for k in slots:
        cx = s + (k % cols) * cell + cell / 2
        cy = s + (k // cols) * cell * 1.25 + cell / 2
        jitter = 0 if touching else cell * 0.15
        dice.append(Die(cx + rng.uniform(-jitter, jitter), cy + rng.uniform(-jitter, jitter), s,
                        int(rng.integers(1, 7)), angle=0.0 if touching else float(rng.uniform(0, 90)),
                        colour=str(rng.choice(list(colours))), pip_ratio=float(rng.uniform(0.15, 0.22))))
    if translucent > 0:  # drawn after the layout, so scenes without translucent dice are unchanged
        for d in dice:
            if rng.random() < translucent:
                d.finish = "translucent"
    scene = Scene(background=background or str(rng.choice(["grey", "wood", "grey", "noise"])), dice=dice,
                  tilt=float(rng.uniform(0.0, 0.35)), shadow=bool(rng.random() < 0.7), glare=False,
                  blur=float(rng.choice([0.0, 0.0, 0.7])), noise=float(rng.uniform(1, 4)),
                  jpeg=int(rng.choice([0, 85])))
    if tilt is not None:  # (set after the draws, so the rest of the scene is the same)
        scene.tilt = tilt
    return scene
