"""How the pip reader holds up when the dev photos are changed the way other cameras, dice and
light change them (a stand-in for photos we do not have)::

    .venv/bin/python bench/vision_robust.py                 # every change below
    .venv/bin/python bench/vision_robust.py dark half       # some of them
    .venv/bin/python bench/vision_robust.py --folder DIR    # another labelled YOLO folder

Changes: ``none`` (the photos as they are), ``invert`` (light pips on dark dice), ``tint``
(warm light: blue and green weakened), ``dark`` (45 % exposure), ``half`` (half size: dice of
about 20-40 px), ``blur`` (slightly out of focus), ``noise`` (sensor noise), ``jpeg`` (quality
30), ``rot90`` (a phone held sideways), ``phone`` (3x larger, as a phone's 12 MP picture: read
on the reader's downscaled copy), ``grid3`` (9 photos side by side in one 1920x1440 picture:
many small dice in one big photo). Scoring as bench/vision.py: correct / (labelled + false).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
# first, even when PYTHONPATH has it: this folder's vision.py must not shadow the package
sys.path.insert(0, str(ROOT))

from bench.vision import DEFAULT, find_images, load_labels, match  # noqa: E402
from vision.pips import read_pips  # noqa: E402


def _noise(im: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(0)
    return np.clip(im.astype(np.float32) + rng.normal(0, 8, im.shape), 0, 255).astype(np.uint8)


def _jpeg(im: np.ndarray) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, 30])[1], cv2.IMREAD_COLOR)


# name -> (image change, label change (x, y, w, h) given the original image shape)
CHANGES = {
    "none": (lambda im: im, None),
    "invert": (lambda im: 255 - im, None),
    "tint": (lambda im: np.clip(im * np.array([0.55, 0.6, 1.0], np.float32), 0, 255).astype(np.uint8), None),
    "dark": (lambda im: (im.astype(np.float32) * 0.45).astype(np.uint8), None),
    "half": (lambda im: cv2.resize(im, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), 0.5),
    "blur": (lambda im: cv2.GaussianBlur(im, (0, 0), 1.2), None),
    "noise": (_noise, None),
    "jpeg": (_jpeg, None),
    "rot90": (lambda im: cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE), "rot90"),
    "phone": (lambda im: cv2.resize(im, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC), 3.0),
    "grid3": (None, None),  # see _grids
}


def _labels(path: Path, shape: tuple[int, ...], how) -> list[tuple]:
    labels = load_labels(path, shape)
    if how is None:
        return labels
    if how == "rot90":
        h = shape[0]
        return [(h - 1 - y, x, bh, bw, v) for x, y, bw, bh, v in labels]
    return [(x * how, y * how, bw * how, bh * how, v) for x, y, bw, bh, v in labels]


def _grids(images: list[Path], k: int):
    """k x k photos side by side in one picture, with their labels moved along."""
    for i in range(0, len(images) - k * k + 1, k * k):
        ims = [cv2.imread(str(p)) for p in images[i:i + k * k]]
        h, w = ims[0].shape[:2]
        canvas = np.zeros((h * k, w * k, 3), np.uint8)
        labels = []
        for n, (path, im) in enumerate(zip(images[i:i + k * k], ims, strict=True)):
            r, c = divmod(n, k)
            im = cv2.resize(im, (w, h)) if im.shape[:2] != (h, w) else im
            canvas[r * h:(r + 1) * h, c * w:(c + 1) * w] = im
            labels += [(x * w / im.shape[1] + c * w, y * h / im.shape[0] + r * h, bw, bh, v)
                       for x, y, bw, bh, v in load_labels(path, im.shape)]
        yield canvas, labels


def run(name: str, images: list[Path]) -> str:
    if name == "grid3":
        pairs = list(_grids(images, 3))
    else:
        change, how = CHANGES[name]
        pairs = ((change(im), _labels(path, im.shape, how))
                 for path, im in ((p, cv2.imread(str(p))) for p in images))
    return _score(name, pairs)


def _score(name: str, pairs) -> str:
    right = total = false = wrong = abstain = 0
    times = []
    for im2, labels in pairs:
        t0 = time.perf_counter()
        dice = read_pips(im2)
        times.append(1000 * (time.perf_counter() - t0))
        m = match(labels, dice)
        total += len(labels)
        false += len(dice) - len(m)
        for i, j in m.items():
            v = dice[j]["value"]
            right += v == labels[i][4]
            wrong += v is not None and v != labels[i][4]
            abstain += v is None
    acc = 100.0 * right / max(1, total + false)
    return (f"{name:7s} {acc:6.2f}%  {right}/{total}  wrong {wrong:3d}  abstain {abstain:3d}  "
            f"missed {total - right - wrong - abstain:3d}  false {false:3d}  "
            f"median {statistics.median(times):6.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("changes", nargs="*", metavar="CHANGE", help=", ".join(CHANGES))
    ap.add_argument("--folder", type=Path, default=DEFAULT)
    args = ap.parse_args()
    unknown = [c for c in args.changes if c not in CHANGES]
    if unknown:
        ap.error(f"unknown change {unknown[0]!r}: choose from {', '.join(CHANGES)}")
    cv2.setNumThreads(1)
    images = find_images(args.folder)
    print(f"{args.folder}  ({len(images)} images), one core")
    for name in args.changes or list(CHANGES):
        print(run(name, images), flush=True)


if __name__ == "__main__":
    main()
