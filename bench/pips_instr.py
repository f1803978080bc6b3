"""A fixed workload for counting the instructions of vision.pips.read_pips (not disturbed by
other processes on the machine, as CPU times are):

    for r in 0 2; do PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python bench/pips_instr.py syn25 $r 2>&1 | grep Collected; done

reads the 10 scenes of a group (seeds 0-9 of the synthetic groups of bench/pips_same.py:
syn20, syn25) r times; (count at 2 - count at 0) / 20 is the reader's instructions per frame
(the scenes' rendering and the imports cancel out). The garbage collector is off while reading:
its passes run after so many allocations, and would move the count by a million or so between
versions of the code that allocate a little differently.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "vision"))

from vision.pips import read_pips, warm_up  # noqa: E402

KINDS = {"syn20": {"n": 20, "size": (18.0, 26.0), "background": "grey"},
         "syn25": {"n": 25, "size": (22.0, 40.0), "background": "grey", "translucent": 0.3}}


def main() -> int:
    import synth_pips as sp
    cv2.setNumThreads(1)
    group, reps = sys.argv[1], int(sys.argv[2])
    frames = [sp.render(sp.random_scene(seed, **KINDS[group]), seed)[0] for seed in range(10)]
    warm_up()
    gc.collect()
    gc.disable()
    for _ in range(reps):
        for img in frames:
            read_pips(img)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
