"""Dice-reader benchmark: accuracy and speed on labelled photos, beside the classic recipe.

    python bench/vision.py [FOLDER ...] [--one-core] [--repeat N] [--errors] [--synthetic N]
    python bench/vision.py --sets [ARGS of bench/vision_sets.py ...]   # custom dice and tokens

FOLDER is a YOLO-layout folder (``name.jpg`` + ``name.txt`` with ``class cx cy w h``
normalised, value = class + 1), searched recursively. Default: /work/shared/datasets/dice-dev
(and each of its sub-folders separately).

Times are wall-clock per image (best of --repeat runs, then median / p95 over images); the
CPU time of the reading thread is printed too, as it is less disturbed by other processes.

Accuracy counts per die: correct / (labelled dice + false detections). A labelled die is
matched to the nearest unclaimed reading whose centre lies within ``max(w, h) * 0.75 + 6`` px
of the label centre. An abstention (value None) on a matched die is not correct.

The baseline is the recipe most hobby projects use: ``cv2.SimpleBlobDetector`` for pips, then
pips closer than a fixed distance are clustered (DBSCAN-like) into one die, value = pip count.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

if "--sets" in sys.argv[1:2]:
    # bench/vision_sets.py reads on one core, numpy's BLAS too (its threads are fixed when numpy loads)
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# first, even when PYTHONPATH has it: this folder's vision.py must not shadow the package
sys.path.insert(0, str(ROOT))

from vision.pips import read_pips  # noqa: E402

DEFAULT = Path("/work/shared/datasets/dice-dev")
IMAGE_EXT = (".jpg", ".jpeg", ".png", ".bmp")


# ---------------------------------------------------------------- classic baseline
_BLOB = None


def _blob_detector() -> cv2.SimpleBlobDetector:
    global _BLOB
    if _BLOB is None:
        p = cv2.SimpleBlobDetector_Params()
        p.filterByArea = True
        p.minArea = 6
        p.maxArea = 1500
        p.filterByCircularity = True
        p.minCircularity = 0.6
        p.filterByInertia = True
        p.minInertiaRatio = 0.4
        p.filterByConvexity = True
        p.minConvexity = 0.8
        p.filterByColor = True
        p.blobColor = 0
        _BLOB = cv2.SimpleBlobDetector_create(p)
    return _BLOB


def baseline_read(image_bgr: np.ndarray, eps: float = 4.0) -> list[dict]:
    """SimpleBlobDetector pips + DBSCAN-like clustering (eps in pip diameters, min 1 pip)."""
    gray = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    kps = _blob_detector().detect(gray)
    pts = np.array([k.pt for k in kps], dtype=np.float32).reshape(-1, 2)
    sizes = np.array([k.size for k in kps], dtype=np.float32)
    n = len(pts)
    label = [-1] * n
    cur = 0
    for i in range(n):
        if label[i] >= 0:
            continue
        label[i] = cur
        stack = [i]
        while stack:
            k = stack.pop()
            d = np.hypot(*(pts - pts[k]).T)
            for j in np.nonzero(d < eps * max(sizes[k], 1.0))[0]:
                if label[j] < 0:
                    label[j] = cur
                    stack.append(int(j))
        cur += 1
    out = []
    for c in range(cur):
        members = pts[[i for i in range(n) if label[i] == c]]
        v = len(members)
        x, y = members.mean(axis=0)
        entry = {"x": float(x), "y": float(y), "w": 0.0, "h": 0.0, "set": "standard-d6", "type": "d6"}
        if 1 <= v <= 6:
            entry.update(face=str(v), value=v, confidence=0.5)
        else:
            entry.update(face=None, value=None, reason=f"{v} pips in one cluster")
        out.append(entry)
    return out


# ---------------------------------------------------------------- data and scoring
def load_labels(image: Path, shape: tuple[int, ...]) -> list[tuple[float, float, float, float, int]]:
    txt = image.with_suffix(".txt")
    h, w = shape[:2]
    out = []
    if txt.exists():
        for line in txt.read_text().split("\n"):
            parts = line.split()
            if len(parts) != 5:
                continue
            c, cx, cy, bw, bh = int(parts[0]), *map(float, parts[1:])
            out.append((cx * w, cy * h, bw * w, bh * h, c + 1))
    return out


def find_images(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in IMAGE_EXT
                  and p.with_suffix(".txt").exists())


def match(labels: list, dice: list[dict]) -> dict[int, int]:
    """Greedy position matching: label index -> reading index, nearest pairs first, each reading
    within ``max(w, h) * 0.75 + 6`` px of the label centre."""
    pairs = []
    for i, (lx, ly, lw, lh, _v) in enumerate(labels):
        tol = max(lw, lh) * 0.75 + 6
        for j, d in enumerate(dice):
            dist = math.hypot(d["x"] - lx, d["y"] - ly)
            if dist <= tol:
                pairs.append((dist, i, j))
    pairs.sort()
    used_l, used_d, matched = set(), set(), {}
    for _dist, i, j in pairs:
        if i in used_l or j in used_d:
            continue
        used_l.add(i)
        used_d.add(j)
        matched[i] = j
    return matched


def score(labels: list, dice: list[dict]) -> dict:
    """Counts for one image (see :func:`match`)."""
    matched = match(labels, dice)
    res = {"labels": len(labels), "correct": 0, "wrong": 0, "abstain": 0, "missed": 0,
           "false": len(dice) - len(matched)}
    for i, lab in enumerate(labels):
        if i not in matched:
            res["missed"] += 1
            continue
        v = dice[matched[i]].get("value")
        if v is None:
            res["abstain"] += 1
        elif v == lab[4]:
            res["correct"] += 1
        else:
            res["wrong"] += 1
    return res


def evaluate(reader, images: list[Path], repeat: int = 1, errors: bool = False) -> dict:
    """Scores ``reader`` on labelled photos (see :func:`evaluate_frames`)."""
    frames, names = [], []
    for path in images:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        frames.append((img, load_labels(path, img.shape)))
        names.append(path)
    return evaluate_frames(reader, frames, repeat, names if errors else None)


def fmt(name: str, r: dict) -> str:
    return (f"{name:<10} {r['accuracy'] * 100:7.2f}% {r['correct']:5d}/{r['labels']:<5d} "
            f"wrong {r['wrong']:3d}  abstain {r['abstain']:3d}  missed {r['missed']:3d}  "
            f"false {r['false']:3d}  median {r['median_ms']:6.2f} ms  p95 {r['p95_ms']:6.2f} ms  "
            f"(cpu median {r['cpu_median_ms']:6.2f} ms)")


def bench_folder(folder: Path, repeat: int, errors: bool) -> None:
    images = find_images(folder)
    if not images:
        print(f"{folder}: no labelled images")
        return
    ours = evaluate(read_pips, images, repeat, errors)
    base = evaluate(baseline_read, images, repeat)
    print(f"{folder}  ({len(images)} images, {ours['labels']} dice)")
    print("  " + fmt("ours", ours))
    print("  " + fmt("baseline", base))
    ratio = ours["median_ms"] / base["median_ms"] if base["median_ms"] else float("nan")
    cpu_ratio = ours["cpu_median_ms"] / base["cpu_median_ms"] if base["cpu_median_ms"] else float("nan")
    print(f"  speed: ours takes {ratio:.1f}x the baseline's median time per image "
          f"({ours['median_ms']:.2f} ms vs {base['median_ms']:.2f} ms; cpu {cpu_ratio:.1f}x)")


def bench_synthetic(n: int, repeat: int) -> None:
    """Scenes from tests/vision/synth_pips.py: many colours, grey/wood/noise tables, side faces,
    shadows, JPEG; then crowded trays of 20 small dice (18-26 px); then grey trays of 25 dice of
    22-40 px in all colours (white pips on red, blue, green, black...; dark pips on ivory,
    white, yellow...), about a third of them translucent; then the first kind seen by a low
    camera (the top faces flatter than the side faces below them); then dice of all colours
    on a dark felt tray (black, green, wine or navy)."""
    sys.path.insert(0, str(ROOT / "tests" / "vision"))
    import synth_pips as sp

    kinds = (("synthetic, 1-8 dice of 28-70 px", {}),
             ("synthetic, 20 dice of 18-26 px", {"n": 20, "size": (18.0, 26.0), "background": "grey"}),
             ("synthetic, 25 dice of 22-40 px, colours, translucent",
              {"n": 25, "size": (22.0, 40.0), "background": "grey", "translucent": 0.3}),
             ("synthetic, 1-8 dice of 28-70 px, low camera (about 40 degrees above the table)", {"tilt": 0.75}),
             ("synthetic, 12 dice of 26-60 px on a dark felt tray", {"n": 12, "size": (26.0, 60.0), "background": "felt"}))
    for name, kw in kinds:
        frames = []
        for seed in range(n):
            img, truth = sp.render(sp.random_scene(seed, **kw), seed)
            labels = [(t["x"], t["y"], t["size"] * 0.66, t["size"] * 0.66, t["value"]) for t in truth]
            frames.append((img, labels))
        print(f"{name}  ({n} images, {sum(len(lab) for _i, lab in frames)} dice)")
        for rname, reader in (("ours", read_pips), ("baseline", baseline_read)):
            print("  " + fmt(rname, evaluate_frames(reader, frames, repeat)))


def evaluate_frames(reader, frames: list, repeat: int = 1, names: list | None = None) -> dict:
    """Accuracy and time of ``reader`` over ``(image, labels)`` pairs; each image is timed
    ``repeat`` times and the best kept. With ``names``, images with mistakes go to stderr."""
    tot = {"labels": 0, "correct": 0, "wrong": 0, "abstain": 0, "missed": 0, "false": 0}
    times, cpu = [], []
    for n, (img, labels) in enumerate(frames):
        best = best_cpu = math.inf
        for _ in range(repeat):
            t0, c0 = time.perf_counter(), time.thread_time()
            dice = reader(img)
            best = min(best, (time.perf_counter() - t0) * 1000)
            best_cpu = min(best_cpu, (time.thread_time() - c0) * 1000)
        times.append(best)
        cpu.append(best_cpu)
        res = score(labels, dice)
        for k in tot:
            tot[k] += res[k]
        if names and (res["wrong"] or res["abstain"] or res["missed"] or res["false"]):
            print(f"  {names[n]}: {res}", file=sys.stderr)
    denom = tot["labels"] + tot["false"]
    tot["accuracy"] = tot["correct"] / denom if denom else float("nan")
    tot["median_ms"] = statistics.median(times) if times else float("nan")
    tot["p95_ms"] = float(np.percentile(times, 95)) if times else float("nan")
    tot["cpu_median_ms"] = statistics.median(cpu) if cpu else float("nan")
    tot["images"] = len(frames)
    return tot


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--sets"]:
        # The teach-by-example reader (custom dice, bag tokens) has a bench of its own: learn
        # 5 examples per face, read scenes it never saw. (Its arguments follow --sets.)
        import importlib.util
        spec = importlib.util.spec_from_file_location("vision_sets", Path(__file__).with_name("vision_sets.py"))
        sets = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sets)
        return sets.main(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--one-core", action="store_true", help="cv2.setNumThreads(1) (time on one core)")
    ap.add_argument("--repeat", type=int, default=3, help="time each image N times, keep the best")
    ap.add_argument("--errors", action="store_true", help="list images with mistakes on stderr")
    ap.add_argument("--synthetic", type=int, default=0, metavar="N",
                    help="also score N rendered scenes of each kind (tests/vision/synth_pips.py)")
    args = ap.parse_args(argv)
    if args.one_core:
        cv2.setNumThreads(1)
    folders = args.folders
    if not folders:
        folders = [DEFAULT] + sorted(p for p in DEFAULT.iterdir() if p.is_dir()) if DEFAULT.is_dir() else []
    if not folders:
        print("no dataset given and the default one is missing", file=sys.stderr)
        return 2
    print(f"cv2 threads: {cv2.getNumThreads()}  repeat: {args.repeat}")
    for f in folders:
        bench_folder(f, args.repeat, args.errors)
    if args.synthetic:
        bench_synthetic(args.synthetic, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
