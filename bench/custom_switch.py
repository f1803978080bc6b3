"""Reading time of the teach-by-example reader with one of vision.custom's switches set two ways,
alternately in one process (the machines are shared: each way is read twice, in turns, and the
faster median of each counts)::

    python bench/custom_switch.py SET_FOLDER REFIT_JITTER 0 1 [--scenes 12]
    python bench/custom_switch.py SET_FOLDER REFIT_SIDES 1.0 1.0,0.9      # a tuple: its items, comma-separated

SET_FOLDER holds ``set/`` (the taught set) and ``scenes/`` (pictures), as bench/fourth_hand.py
draws them. Prints the median milliseconds per picture of each way and their ratio. One BLAS and
one OpenCV thread, as on a Pi core."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import ast  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from companion import dicesets  # noqa: E402
from vision import custom  # noqa: E402


def _value(text: str, like):
    """``text`` as the type of the switch's current value (a bool from 0/1)."""
    if isinstance(like, bool):
        return text.lower() in ("1", "true", "on", "yes")
    if isinstance(like, (tuple, list)):  # "1.0,0.9" or "(1.0,)"
        return type(like)(ast.literal_eval(text if "," in text else text + ","))
    return type(like)(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("switch", help="a module-level constant of vision/custom.py")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--scenes", type=int, default=12)
    args = ap.parse_args()
    if not hasattr(custom, args.switch):
        sys.exit(f"vision/custom.py has no switch called {args.switch}")
    cv2.setNumThreads(1)
    now = getattr(custom, args.switch)
    ways = {args.a: _value(args.a, now), args.b: _value(args.b, now)}
    model = dicesets.open_set(args.folder / "set").model
    pics = [cv2.imread(str(p)) for p in sorted((args.folder / "scenes").glob("*.png"))[:args.scenes]]
    if not pics:
        sys.exit(f"no pictures in {args.folder / 'scenes'}")
    medians: dict[str, list[float]] = {args.a: [], args.b: []}
    for name in (args.a, args.b, args.a, args.b):
        setattr(custom, args.switch, ways[name])
        ms = []
        for img in pics:
            t = time.perf_counter()
            custom.read(img, model)
            ms.append(1000 * (time.perf_counter() - t))
        medians[name].append(statistics.median(ms))
    setattr(custom, args.switch, now)
    a, b = min(medians[args.a]), min(medians[args.b])
    print(f"{args.folder}: {args.switch}={args.a} {a:.0f} ms, ={args.b} {b:.0f} ms per picture "
          f"(medians of {len(pics)}: {[round(x) for x in medians[args.a]]} / {[round(x) for x in medians[args.b]]}); "
          f"ratio {a / b:.3f}")


if __name__ == "__main__":
    main()
