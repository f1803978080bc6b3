"""False dice from print and dotted mats: what the pip reader makes of pictures with no dice
in them but marks like pips (synthetic, tests/vision/synth_pips.py)::

    .venv/bin/python bench/vision_print.py            # 40 pictures of each kind
    .venv/bin/python bench/vision_print.py --n 100

Kinds: ``fullpage`` (a printed page fills the picture: the dots of i's, colons, full stops,
round letters), ``dots`` (a mat printed with a lattice of dots), ``page+dice`` (8 dice on a
table where a printed sheet lies, some on it: dice right / dice, and the false dice the
print adds). For each: false detections (with a value / abstentions), and the median ms per
picture (CPU, one core).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "vision"))

from vision.pips import read_pips, warm_up  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    import synth_pips as sp
    from dev_sample import match

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=40, help="pictures of each kind (seeds 0..n-1)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    warm_up()
    for kind in ("fullpage", "dots", "page+dice"):
        valued = abstained = right = total = 0
        ms = []
        for seed in range(args.n):
            if kind == "page+dice":
                img, truth = sp.render(sp.random_scene(seed, n=8, background="page"), seed)
            else:
                img, truth = sp.render(sp.Scene(background=kind), seed)
            t = time.process_time()
            dice = read_pips(img)
            ms.append(1000 * (time.process_time() - t))
            pairs, extra = match([(d["x"], d["y"], d["value"]) for d in truth], dice,
                                 tol=max([d["size"] for d in truth], default=40) * 0.5)
            right += sum(v == got for v, got in pairs)
            total += len(truth)
            valued += sum(d["value"] is not None for d in extra)
            abstained += sum(d["value"] is None for d in extra)
        dice_part = f"dice right {right}/{total}  " if total else ""
        print(f"{kind:10s} {args.n} pictures  {dice_part}false dice {valued + abstained} "
              f"({valued} with a value, {abstained} abstentions)  median {statistics.median(ms):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
