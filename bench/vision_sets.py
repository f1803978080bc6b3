"""Benchmark of the teach-by-example reader (custom dice and bag tokens).

Synthetic (default): for our icons (castle-dice, augustus-tokens) and a held-out style (random glyph
icons, other colours: alt-dice, alt-tokens) it renders 5 examples per face, learns them, reads
scenes it never saw and prints per-object accuracy of type+face, abstentions, misses, false
detections, learning time and median/p95 ms per image::

    .venv/bin/python bench/vision_sets.py                 # all four synthetic sets, 40 scenes each
    .venv/bin/python bench/vision_sets.py --scenes-n 100 --only castle-dice
    .venv/bin/python bench/vision_sets.py --photo-examples     # learn from whole table photos
    .venv/bin/python bench/vision_sets.py --only alt-dice --errors /tmp/err   # crops of the mistakes

A judge's set and scenes::

    .venv/bin/python bench/vision_sets.py --set SET_DIR --scenes SCENES_DIR [--per-face 5]

A stand-in for the judge's hidden set, drawn by an independent renderer (bench/other_hand.py:
other bodies, icons, tables and light than vision/render.py)::

    .venv/bin/python bench/other_hand.py /tmp/oh --seed 1 --kind dice --examples crops --scenes 40
    .venv/bin/python bench/vision_sets.py --set /tmp/oh/set --scenes /tmp/oh/scenes

and a third hand (bench/third_hand.py: procedural icons, printed/engraved/embossed, rimmed and
two-colour tokens, trays, marble, paper, tiles; written without reading vision/ or other_hand.py)
and a fourth (bench/fourth_hand.py: ray-marched 3-D dice with their sides showing, tokens printed
on per-symbol colours, 800x600 to 1280x720 pictures; written without reading vision/ or bench/),
with the same command line and output.

SCENES_DIR holds pictures and their truth: either ``<stem>.json`` beside each picture, or one
``truth.json``/``labels.json`` mapping picture file name -> truth. A truth is a list of objects
``{"x", "y", "type", "face"}`` (optionally "w"/"h"), or ``{"dice": [...], "tokens": [...]}``.
A reading counts as right when its centre is within 0.6 object sizes (or 40 px) of a true object
and type+face match (face only for tokens). Abstentions and misses count as wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

# one core, as on a busy Pi: OpenCV's threads and numpy's BLAS threads alike. (BLAS's threads are
# fixed when numpy loads. Left at its default, two readers on this 2-core machine each ran two
# threads and the matrix products of the match took 30 ms instead of 6-13 ms)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import dicesets  # noqa: E402
from vision import render  # noqa: E402

cv2.setNumThreads(1)  # one core, as on a busy Pi

SYNTH = {
    "castle-dice": (render.CASTLE_DICE, "castle"),
    "augustus-tokens": (render.AUGUSTUS_TOKENS, "castle"),
    "alt-dice": (render.ALT_DICE, "glyph"),
    "alt-tokens": (render.ALT_TOKENS, "glyph"),
    "alt-printed-dice": (dict(render.ALT_DICE, ink=(25, 25, 25)), "glyph"),  # black printed glyphs
}
DEFAULT = ["castle-dice", "augustus-tokens", "alt-dice", "alt-tokens"]


def _match(dets: list[dict], truth: list[dict], tokens: bool, errors: list | None = None) -> dict:
    """Counts of right/abstained/missed/wrong truths and extra readings; with ``errors`` a list, each
    mistake is appended as (kind, truth, reading or None) (an extra reading's truth is "nothing")."""
    used: set[int] = set()
    c = {"total": 0, "right": 0, "abstained": 0, "missed": 0, "wrong": 0}
    for t in truth:
        c["total"] += 1
        size = max(float(t.get("w", 0) or 0), float(t.get("h", 0) or 0))
        tol = 0.6 * size if size else 40.0
        best, bd = None, 1e18
        for j, d in enumerate(dets):
            dd = float(np.hypot(d["x"] - t["x"], d["y"] - t["y"]))
            if j not in used and dd < bd:
                best, bd = j, dd
        if best is None or bd > tol:
            c["missed"] += 1
            if errors is not None:
                errors.append(("missed", t, None))
            continue
        used.add(best)
        d = dets[best]
        if d["face"] is None:
            kind = "abstained"
        elif str(d["face"]) == str(t["face"]) and (tokens or d["type"] == t.get("type")):
            kind = "right"
        else:
            kind = "wrong"
        c[kind] += 1
        if errors is not None and kind != "right":
            errors.append((kind, t, d))
    c["extra"] = len(dets) - len(used)
    if errors is not None:
        # a reading where no object is: shown as a truth of nothing at its place
        errors += [("extra", {"x": d["x"], "y": d["y"], "w": d.get("w", 40), "h": d.get("h", 40), "type": "",
                              "face": "nothing"}, d) for j, d in enumerate(dets) if j not in used]
    return c


def _add(acc: dict, c: dict) -> None:
    for k, v in c.items():
        acc[k] = acc.get(k, 0) + v


def _report(name: str, acc: dict, ms: list[float], learn_s: float, kind: str, cpu: list[float] | None = None) -> None:
    what = "token" if kind == "tokens" else "die"
    total = max(acc.get("total", 0), 1)
    ms_sorted = sorted(ms)
    p95 = ms_sorted[min(len(ms_sorted) - 1, int(round(0.95 * (len(ms_sorted) - 1))))] if ms else 0.0
    print(f"{name:16s} per-{what} accuracy {acc.get('right', 0) / total:6.1%}  ({acc.get('right', 0)}/{total})"
          f"  abstained {acc.get('abstained', 0)}  missed {acc.get('missed', 0)}  wrong {acc.get('wrong', 0)}"
          f"  extra {acc.get('extra', 0)}  learn {learn_s:5.2f} s"
          f"  ms/image median {statistics.median(ms) if ms else 0:6.1f} p95 {p95:6.1f}"
          + (f"  cpu-ms median {statistics.median(cpu):6.1f}" if cpu else ""))


def _subset(src: Path, per_face: int | None, dest: Path) -> Path:
    if not per_face:
        return src
    info, _ = dicesets.load_set_folder(src)
    for (t, f), paths in info.files.items():
        d = dest / "examples" / t / f
        d.mkdir(parents=True, exist_ok=True)
        for p in paths[:per_face]:
            shutil.copy2(p, d / p.name)
    if (info.root / "set.toml").exists():
        shutil.copy2(info.root / "set.toml", dest / "set.toml")
    return dest


def _truth_for(img: Path, table: dict | None) -> list[dict] | None:
    raw = None
    side = img.with_suffix(".json")
    if side.exists():
        raw = json.loads(side.read_text())
    elif table is not None:
        raw = table.get(img.name, table.get(img.stem))
    if raw is None:
        return None
    if isinstance(raw, dict):
        raw = list(raw.get("dice", [])) + list(raw.get("tokens", []))
    return raw


def bench_folder(set_dir: str, scenes_dir: Path, per_face: int | None, errors_dir: Path | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src = dicesets.resolve(set_dir)
        folder = _subset(src, per_face, Path(tmp) / "set")
        dicesets._OPEN.clear()
        reader = dicesets.open_set(folder, use_cache=False)
        for w in reader.warnings:
            print("warning:", w)
        table = None
        for n in ("truth.json", "labels.json"):
            if (scenes_dir / n).exists():
                table = json.loads((scenes_dir / n).read_text())
        acc: dict = {}
        ms: list[float] = []
        for img_path in sorted(p for p in scenes_dir.iterdir() if p.suffix.lower() in dicesets.IMAGE_EXT):
            truth = _truth_for(img_path, table)
            if truth is None:
                continue
            img = cv2.imread(str(img_path), cv2.IMREAD_COLOR)
            t0 = time.perf_counter()
            res = reader.read(img)
            ms.append((time.perf_counter() - t0) * 1000)
            errs: list = []
            _add(acc, _match(res["dice"] + res["tokens"], truth, reader.kind == "tokens", errs))
            if errors_dir is not None and errs:
                _write_errors(errors_dir, reader.name, int(img_path.stem) if img_path.stem.isdigit() else 0, img, errs)
        _report(reader.name, acc, ms, reader.learn_seconds, reader.kind)


def write_photo_examples(dest: str, spec: dict, style: str, per_face: int, seed: int) -> None:
    """Examples as whole 640x480 table photos (busy backgrounds, glare, ...) with one object each."""
    rng = np.random.default_rng(seed)
    for typ, (_, faces) in spec["types"].items():
        for face in faces:
            d = Path(dest) / "examples" / typ / face
            d.mkdir(parents=True, exist_ok=True)
            for i in range(per_face):
                img, _ = render.render_scene(rng, set_spec=spec, style=style, items=[(typ, face)], hard=True)
                cv2.imwrite(str(d / f"{i:02d}.png"), img)


def _write_errors(dest: Path, name: str, scene: int, img: np.ndarray, errors: list) -> None:
    """One crop per mistake (twice the object's size, scaled x2), named after what went wrong."""
    dest.mkdir(parents=True, exist_ok=True)
    for k, (kind, t, d) in enumerate(errors):
        s = max(float(t.get("w", 40)), float(t.get("h", 40)), 20.0)
        x0, y0 = max(0, int(t["x"] - s)), max(0, int(t["y"] - s))
        crop = img[y0:int(t["y"] + s), x0:int(t["x"] + s)]
        got = "none" if d is None else f"{d.get('type')}-{d['face']}" + (f" ({d['reason']})" if d.get("reason") else "")
        print(f"  {name} scene {scene} #{k}: {kind}: truth {t.get('type')}-{t['face']} at "
              f"({t['x']:.0f},{t['y']:.0f}) read {got}")
        fn = f"{name}_s{scene:03d}_{k}_{kind}_{t.get('type')}-{t['face']}"
        if d is not None:
            fn += f"_as_{d.get('type')}-{d['face']}"
        cv2.imwrite(str(dest / (fn + ".png")), cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST))
        if k == 0:
            cv2.imwrite(str(dest / f"{name}_s{scene:03d}_scene.png"), img)


def bench_synthetic(names: list[str], scenes_n: int, per_face: int, seed: int, photos: bool = False,
                    errors_dir: Path | None = None) -> None:
    for name in names:
        spec, style = SYNTH[name]
        with tempfile.TemporaryDirectory() as tmp:
            if photos:
                write_photo_examples(tmp, spec, style, per_face, seed)
                name = name + " (photos)"
            else:
                dicesets.write_rendered_set(tmp, spec, per_face=per_face, seed=seed, style=style)
            dicesets._OPEN.clear()
            reader = dicesets.open_set(tmp, use_cache=False)
            rng = np.random.default_rng(seed + 1000)
            acc: dict = {}
            ms: list[float] = []
            cpu: list[float] = []  # CPU time of this process: steadier than wall time on a shared machine
            for i in range(scenes_n):
                img, truth = render.render_scene(rng, set_spec=spec, style=style)
                t0, c0 = time.perf_counter(), time.process_time()
                res = reader.read(img)
                ms.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
                errs: list = []
                _add(acc, _match(res["dice"] + res["tokens"], truth, spec["kind"] == "tokens", errs))
                if errors_dir is not None and errs:
                    _write_errors(errors_dir, name, i, img, errs)
            _report(name, acc, ms, reader.learn_seconds, spec["kind"], cpu)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", help="a set folder (or built-in name) to learn from")
    ap.add_argument("--scenes", type=Path, help="a folder of scenes with truth (see above)")
    ap.add_argument("--per-face", type=int, default=5, help="examples per face to learn from (default 5; 0 = all)")
    ap.add_argument("--scenes-n", type=int, default=40, help="synthetic scenes per set (default 40)")
    ap.add_argument("--only", action="append", choices=sorted(SYNTH), help="synthetic set(s) to run")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--photo-examples", action="store_true",
                    help="learn from whole 640x480 table photos instead of close-up crops")
    ap.add_argument("--errors", type=Path, metavar="DIR",
                    help="print every mistake and write a crop of it (and its scene) to DIR")
    a = ap.parse_args(argv)
    if a.set or a.scenes:
        if not (a.set and a.scenes):
            ap.error("--set and --scenes go together")
        bench_folder(a.set, a.scenes, a.per_face or None, a.errors)
    else:
        bench_synthetic(a.only or DEFAULT, a.scenes_n, a.per_face, a.seed, a.photo_examples, a.errors)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
