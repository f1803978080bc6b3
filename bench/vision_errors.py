"""Dump every mistake of the pip reader on a labelled folder, with crops to look at.

    python bench/vision_errors.py [FOLDER ...] [--out /tmp/pip_errors] [--no-crops] [--change half]

For each wrong value, abstention, missed die and false detection it prints one line
(image, x, y, label, reading, reason) and writes a 4x-enlarged crop around the spot, with
the label box (green) and every reading of the image (red: value, yellow: abstention).
Scoring is the same as bench/vision.py. ``--change`` first changes every photo as one of
bench/vision_robust.py's changes does (not grid3), its labels moved along.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
# first, even when PYTHONPATH has it: this folder's vision.py must not shadow the package
sys.path.insert(0, str(ROOT))

from bench.vision import DEFAULT, find_images, match  # noqa: E402
from vision.pips import read_pips  # noqa: E402


def crop(img, labels, dice, x: float, y: float, half: int = 45, zoom: int = 4):
    h, w = img.shape[:2]
    x0, y0 = max(0, int(x) - half), max(0, int(y) - half)
    x1, y1 = min(w, int(x) + half), min(h, int(y) + half)
    c = cv2.resize(img[y0:y1, x0:x1], None, fx=zoom, fy=zoom, interpolation=cv2.INTER_NEAREST)
    for lx, ly, lw, lh, v in labels:
        p0 = (int((lx - lw / 2 - x0) * zoom), int((ly - lh / 2 - y0) * zoom))
        p1 = (int((lx + lw / 2 - x0) * zoom), int((ly + lh / 2 - y0) * zoom))
        cv2.rectangle(c, p0, p1, (0, 200, 0), 1)
        cv2.putText(c, str(v), (p0[0] + 2, p0[1] + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 200, 0), 1)
    for d in dice:
        px, py = int((d["x"] - x0) * zoom), int((d["y"] - y0) * zoom)
        col = (0, 0, 255) if d.get("value") else (0, 220, 220)
        cv2.drawMarker(c, (px, py), col, cv2.MARKER_CROSS, 10, 1)
        cv2.putText(c, str(d.get("value")), (px + 4, py - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.5, col, 1)
    return c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--out", type=Path, default=Path("/tmp/pip_errors"))
    ap.add_argument("--no-crops", action="store_true")
    ap.add_argument("--change", default="none", help="a change of bench/vision_robust.py, e.g. half")
    args = ap.parse_args(argv)
    from bench.vision_robust import CHANGES, _labels
    change, how = CHANGES[args.change]
    if change is None:
        ap.error(f"--change {args.change}: not a change of one photo")
    folders = args.folders or [DEFAULT]
    if not args.no_crops:
        args.out.mkdir(parents=True, exist_ok=True)
    counts = {"wrong": 0, "abstain": 0, "missed": 0, "false": 0}
    k = 0
    for folder in folders:
        for path in find_images(folder):
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
            labels = _labels(path, img.shape, how)
            img = change(img)
            dice = read_pips(img)
            m = match(labels, dice)
            errs = []
            for i, lab in enumerate(labels):
                if i not in m:
                    errs.append(("missed", lab[0], lab[1], lab[4], "-", ""))
                    continue
                d = dice[m[i]]
                if d.get("value") is None:
                    errs.append(("abstain", lab[0], lab[1], lab[4], None, d.get("reason", "")))
                elif d["value"] != lab[4]:
                    errs.append(("wrong", lab[0], lab[1], lab[4], d["value"], ""))
            used = set(m.values())
            for j, d in enumerate(dice):
                if j not in used:
                    errs.append(("false", d["x"], d["y"], "-", d.get("value"), d.get("reason", "")))
            for kind, x, y, lab, got, why in errs:
                counts[kind] += 1
                k += 1
                name = f"{k:03d}_{kind}_{path.parent.name}_{path.stem}_{int(x)}_{int(y)}.png"
                print(f"{kind:8s} {path.parent.name}/{path.name} x={x:.0f} y={y:.0f} label={lab} read={got} {why}"
                      + ("" if args.no_crops else f"  -> {name}"))
                if not args.no_crops:
                    cv2.imwrite(str(args.out / name), crop(img, labels, dice, x, y))
    print(counts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
