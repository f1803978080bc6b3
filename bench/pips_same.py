"""Readings and CPU time of vision.pips.read_pips on fixed inputs, saved or compared.

    python bench/pips_same.py save /tmp/base.pkl      # record readings (one core)
    python bench/pips_same.py check /tmp/base.pkl     # same readings? plus CPU median / p95 per group
    python bench/pips_same.py check /tmp/base.pkl dev,syn20 3   # some groups; best of 3 runs per image

Groups: dev photos, their half-size copies, three synthetic groups (20 scenes each, as in
bench/vision.py --synthetic 20) and the 3x3 grids of bench/vision_robust.py grid3.
"""

from __future__ import annotations

import json
import pickle
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "vision"))

from vision.pips import read_pips, warm_up  # noqa: E402


def groups(which: set[str]):
    import synth_pips as sp
    import importlib.util
    mods = {}
    for m in ("vision", "vision_robust"):
        spec = importlib.util.spec_from_file_location(f"bench_{m}", ROOT / "bench" / f"{m}.py")
        mods[m] = importlib.util.module_from_spec(spec)
        sys.modules[f"bench_{m}"] = mods[m]
        spec.loader.exec_module(mods[m])
    find_images, DEFAULT = mods["vision"].find_images, mods["vision"].DEFAULT
    _grids = mods["vision_robust"]._grids
    images = find_images(DEFAULT)
    if "dev" in which:
        yield "dev", [cv2.imread(str(p)) for p in images]
    if "half" in which:
        yield "half", [cv2.resize(cv2.imread(str(p)), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
                       for p in images]
    kinds = (("syn1", {}), ("syn20", {"n": 20, "size": (18.0, 26.0), "background": "grey"}),
             ("syn25", {"n": 25, "size": (22.0, 40.0), "background": "grey", "translucent": 0.3}))
    for name, kw in kinds:
        if name in which:
            yield name, [sp.render(sp.random_scene(seed, **kw), seed)[0] for seed in range(20)]
    if "grid3" in which:
        yield "grid3", [c for c, _l in _grids(images, 3)]


def main() -> int:
    cv2.setNumThreads(1)
    mode, path = sys.argv[1], sys.argv[2]
    which = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else {"dev", "half", "syn1", "syn20", "syn25", "grid3"}
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    warm_up()
    out = {}
    for name, frames in groups(which):
        res, cpu = [], []
        for img in frames:
            best = float("inf")
            for _ in range(repeat):
                c0 = time.thread_time()
                dice = read_pips(img)
                best = min(best, (time.thread_time() - c0) * 1000)
            cpu.append(best)
            res.append(json.dumps(dice, sort_keys=True, default=str))
        out[name] = res
        print(f"{name:6s} n={len(frames):4d} cpu median {statistics.median(cpu):6.2f} ms  "
              f"p95 {float(np.percentile(cpu, 95)):6.2f} ms", flush=True)
    if mode == "save":
        Path(path).write_bytes(pickle.dumps(out))
        return 0
    base = pickle.loads(Path(path).read_bytes())
    bad = 0
    for name, res in out.items():
        diff = [i for i, (a, b) in enumerate(zip(base[name], res, strict=True)) if a != b]
        bad += len(diff)
        print(f"{name}: {'IDENTICAL' if not diff else f'{len(diff)} DIFFER: {diff[:10]}'}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
