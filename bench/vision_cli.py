"""The pip reader scored the way the judge scores it: ``companion read --json`` on every photo of
a labelled folder in one process, matched to the labels by position as bench/vision.py does.

    .venv/bin/python bench/vision_cli.py [FOLDER]     # default: the shared dice-dev set

Prints accuracy (correct / (labelled + false detections)), the false detections, and the median
of the ``ms`` each reading reports.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
# first, even when PYTHONPATH has it: this folder's vision.py must not shadow the package
sys.path.insert(0, str(ROOT))

from bench.vision import DEFAULT, find_images, load_labels, match  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else DEFAULT
    images = find_images(folder)
    if not images:
        print(f"no labelled images in {folder}", file=sys.stderr)
        return 2
    exe = Path(sys.executable).with_name("companion")
    cmd = [str(exe) if exe.exists() else sys.executable, *([] if exe.exists() else ["-m", "companion"]),
           "read", "--json", *map(str, images)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    by_image = {o["image"]: o for o in map(json.loads, filter(str.strip, proc.stdout.splitlines()))}
    right = labelled = false = 0
    ms = []
    for path in images:
        out = by_image.get(str(path))
        if out is None:
            print(f"{path}: no reading ({proc.stderr.strip().splitlines()[-1:]})", file=sys.stderr)
            continue
        ms.append(out["ms"])
        labels = load_labels(path, cv2.imread(str(path)).shape)
        m = match(labels, out["dice"])
        right += sum(out["dice"][j].get("value") == labels[i][4] for i, j in m.items())
        labelled += len(labels)
        false += len(out["dice"]) - len(m)
    acc = 100.0 * right / max(1, labelled + false)
    print(f"{folder}: companion read --json on {len(ms)} images: {acc:.2f} % ({right}/{labelled} correct, "
          f"{false} false), median {statistics.median(ms):.2f} ms per image (exit code {proc.returncode})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
