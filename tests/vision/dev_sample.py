"""Helpers shared by the vision tests: where the dev photos are, their labels, matching."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SAMPLE = ROOT / "tests" / "data" / "dice-dev-sample"
FULL_DEV = Path("/work/shared/datasets/dice-dev")


def yolo_labels(image: Path, width: int = 640, height: int = 480) -> list[tuple[float, float, int]]:
    """(x, y, value) of each labelled die."""
    out = []
    for line in image.with_suffix(".txt").read_text().split("\n"):
        parts = line.split()
        if len(parts) == 5:
            out.append((float(parts[1]) * width, float(parts[2]) * height, int(parts[0]) + 1))
    return out


def match(truth: list[tuple[float, float, int]], dice: list[dict], tol: float) -> tuple[list, list]:
    """Pair each truth (x, y, value) with the nearest die within ``tol`` px.

    Returns ([(truth_value, die_value_or_None_if_missed)], [unmatched dice])."""
    left = list(dice)
    pairs = []
    for x, y, v in truth:
        best = min(left, key=lambda d: (d["x"] - x) ** 2 + (d["y"] - y) ** 2, default=None)
        if best is not None and ((best["x"] - x) ** 2 + (best["y"] - y) ** 2) ** 0.5 <= tol:
            left.remove(best)
            pairs.append((v, best["value"]))
        else:
            pairs.append((v, "missed"))
    return pairs, left
