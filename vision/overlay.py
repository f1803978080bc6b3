"""Draw readings on an image: a box and the face on each die, an orange "?" and the reason
on dice the reader abstained on. Used by ``companion read --overlay`` and the phone's tray
preview (which leaves the English reason out: ``reasons=False``; the phone says it in words).
Returns a new image; the input is not changed."""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

import cv2
import numpy as np

READ = (60, 200, 60)  # BGR green
ABSTAIN = (0, 140, 255)  # orange
TOKEN = (220, 160, 40)  # blue-ish


def _as_dict(item: Any) -> dict | None:
    if isinstance(item, dict):
        return item
    if hasattr(item, "__dict__"):
        return dict(vars(item))
    return None


def _label(img: np.ndarray, text: str, org: tuple[int, int], colour: tuple[int, int, int],
           scale: float) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    thick = max(1, round(scale * 2))
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    x = int(min(max(0, org[0]), max(0, img.shape[1] - tw - 2)))
    y = int(min(max(th + 2, org[1]), img.shape[0] - base - 1))
    cv2.rectangle(img, (x - 1, y - th - 2), (x + tw + 1, y + base), (0, 0, 0), -1)
    cv2.putText(img, text, (x, y), font, scale, colour, thick, cv2.LINE_AA)


def draw_overlay(image_bgr: np.ndarray, dice: Iterable[Any], tokens: Iterable[Any] = (),
                 reasons: bool = True) -> np.ndarray:
    img = np.asarray(image_bgr)
    if img.ndim == 2:
        out = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.shape[2] == 4:
        out = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    else:
        out = img.copy()
    if out.dtype != np.uint8:
        out = cv2.convertScaleAbs(out, alpha=255.0 / max(1.0, float(out.max())))
    base = max(out.shape[:2]) / 640.0
    for kind, items in (("die", dice), ("token", tokens)):
        for item in items:
            d = _as_dict(item)
            if not d or "x" not in d or "y" not in d:
                continue
            w = float(d.get("w") or 30.0)
            h = float(d.get("h") or w)
            x0, y0 = int(round(d["x"] - w / 2)), int(round(d["y"] - h / 2))
            x1, y1 = int(round(d["x"] + w / 2)), int(round(d["y"] + h / 2))
            face = d.get("face")
            if face is None and d.get("value") is not None:
                face = d["value"]
            colour = (TOKEN if kind == "token" else READ) if face is not None else ABSTAIN
            thick = max(1, round(base * 2))
            cv2.rectangle(out, (x0, y0), (x1, y1), colour, thick)
            scale = max(0.4, min(1.2, h / 45.0)) * max(1.0, base * 0.8)
            if face is not None:
                _label(out, str(face), (x0, y0 - 4), colour, scale)
            else:
                reason = str(d.get("reason") or "unsure")
                _label(out, "?", (x0, y0 - 4), colour, scale)
                if reasons:
                    _label(out, reason, (x0, y1 + int(14 * max(1.0, base))), colour, 0.4 * max(1.0, base))
    return out
