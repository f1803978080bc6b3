"""Fixtures for the teach-by-example reader: rendered set folders and scenes it never learned from."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import dicesets
from companion.dicesets import write_rendered_set
from vision import render

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session", autouse=True)
def _cache_dir(tmp_path_factory):
    old = os.environ.get("COMPANION_CACHE_DIR")
    os.environ["COMPANION_CACHE_DIR"] = str(tmp_path_factory.mktemp("set-cache"))
    yield
    if old is None:
        os.environ.pop("COMPANION_CACHE_DIR", None)
    else:
        os.environ["COMPANION_CACHE_DIR"] = old


def third_hand(out: Path, seed: int, kind: str, examples: str, scenes: int, hand: str = "third_hand"):
    """A set folder and scenes drawn by bench/third_hand.py (another hand's renderer; ``hand``
    "other_hand": bench/other_hand.py) into ``out``: (reader of the set, scenes folder, truth:
    picture name -> objects)."""
    subprocess.run([sys.executable, str(ROOT / "bench" / f"{hand}.py"), str(out), "--seed", str(seed),
                    "--kind", kind, "--examples", examples, "--scenes", str(scenes)], check=True, capture_output=True)
    dicesets._OPEN.clear()
    reader = dicesets.open_set(out / "set", use_cache=False)
    return reader, out / "scenes", json.loads((out / "scenes" / "truth.json").read_text())


# stand-in sets read by several tests are drawn and learned once (a set of dice taught from
# photos takes 25 s or so), with the most scenes any of those tests reads
MOST_SCENES = {("third_hand", 3, "dice", "crops"): 20, ("third_hand", 3, "tokens", "photos"): 23,
               ("third_hand", 9, "tokens", "crops"): 40, ("other_hand", 14, "dice", "photos"): 32,
               ("third_hand", 21, "tokens", "crops"): 19, ("fourth_hand", 7, "dice", "photos"): 27}


@pytest.fixture(scope="session")
def stand_in(tmp_path_factory):
    """draw(hand, seed, kind, examples, scenes): a stand-in set drawn (``third_hand``) with at
    least ``scenes`` scenes and learned, shared by every test that asks for it (reader, scenes
    folder, truth). The reader must not be changed."""
    sets: dict[tuple, tuple] = {}

    def draw(hand: str, seed: int, kind: str, examples: str, scenes: int):
        key = (hand, seed, kind, examples)
        if key not in sets or sets[key][0] < scenes:
            n = max(scenes, MOST_SCENES.get(key, 0))
            sets[key] = (n, third_hand(tmp_path_factory.mktemp(f"{hand}-{seed}-{kind}-{examples}"),
                                       seed, kind, examples, n, hand=hand))
        return sets[key][1]
    return draw


@pytest.fixture(scope="session")
def third_hand_3(stand_in):
    """bench/third_hand.py seed 3, crop examples, 20 scenes: black, peach, magenta and violet dice."""
    return stand_in("third_hand", 3, "dice", "crops", 20)


def make_set(tmp_path_factory, name: str, spec: dict, style: str, seed: int, per_face: int = 5):
    folder = tmp_path_factory.mktemp(name)
    write_rendered_set(folder, spec, per_face=per_face, seed=seed, style=style)
    return folder


@pytest.fixture(scope="session")
def castle_set(tmp_path_factory):
    return make_set(tmp_path_factory, "castle", render.CASTLE_DICE, "castle", seed=11)


@pytest.fixture(scope="session")
def alt_set(tmp_path_factory):
    """Held-out style: random glyph icons, other colours, two types that differ only in colour."""
    return make_set(tmp_path_factory, "alt", render.ALT_DICE, "glyph", seed=12)


@pytest.fixture(scope="session")
def token_set(tmp_path_factory):
    return make_set(tmp_path_factory, "tokens", render.AUGUSTUS_TOKENS, "castle", seed=13)


@pytest.fixture(scope="session")
def alt_token_set(tmp_path_factory):
    return make_set(tmp_path_factory, "alt-tokens", render.ALT_TOKENS, "glyph", seed=14)


def read_near(got: list[dict], t: dict, reach: float = 0.5) -> list[tuple[str, str]]:
    """(type, face) of the readings ``got`` within ``reach`` of the true object ``t``'s width of its centre."""
    return [(d["type"], d["face"]) for d in got if math.hypot(d["x"] - t["x"], d["y"] - t["y"]) < reach * t["w"]]


def reads_of(reader, scenes, truth: dict, names, label: tuple[str, str]) -> list[tuple[str, dict, list]]:
    """(picture, true object, read_near) for every object of ``label`` (type, face) in the pictures ``names``."""
    out = []
    for name in names:
        got = reader.read(cv2.imread(str(scenes / name)))["dice"]
        out += [(name, t, read_near(got, t)) for t in truth[name] if (t["type"], t["face"]) == label]
    return out


def score(reader, spec: dict, style: str, seed: int, scenes: int, hard: bool = True) -> dict:
    """Per-object accuracy of type+face over rendered scenes (abstentions and misses count as wrong)."""
    rng = np.random.default_rng(seed)
    total = right = abstained = missed = 0
    for _ in range(scenes):
        img, truth = render.render_scene(rng, set_spec=spec, style=style, hard=hard)
        res = reader.read(img)
        dets = res["dice"] + res["tokens"]
        used: set[int] = set()
        for t in truth:
            total += 1
            best, bd = None, 1e9
            for j, d in enumerate(dets):
                dd = float(np.hypot(d["x"] - t["x"], d["y"] - t["y"]))
                if j not in used and dd < bd:
                    best, bd = j, dd
            if best is None or bd > 0.6 * max(t["w"], t["h"]):
                missed += 1
                continue
            used.add(best)
            d = dets[best]
            if d["face"] is None:
                abstained += 1
            elif d["face"] == t["face"] and (d["type"] == t["type"] or t["kind"] == "token"):
                right += 1
    return {"total": total, "right": right, "accuracy": right / max(total, 1), "abstained": abstained,
            "missed": missed}
