"""The reader on rendered scenes it did not learn from, with 5 examples per face.

The issue's target is 99 % per die/token. The floors asserted here are what the reader reaches
today (see bench/vision_sets.py for the figures); the 99 % target is a plain test for all four
sets (castle dice reached it once a picture's colour cast was taken out: 93 -> 94 of 94 dice).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.dicesets import open_set
from vision import render

from .conftest import score

TARGET = 0.99


@pytest.fixture(scope="module")
def results(castle_set, alt_set, token_set, alt_token_set):
    return {
        "castle": score(open_set(castle_set), render.CASTLE_DICE, "castle", seed=101, scenes=15),
        "alt": score(open_set(alt_set), render.ALT_DICE, "glyph", seed=102, scenes=15),
        "tokens": score(open_set(token_set), render.AUGUSTUS_TOKENS, "castle", seed=103, scenes=25),
        "alt-tokens": score(open_set(alt_token_set), render.ALT_TOKENS, "glyph", seed=104, scenes=25),
    }


@pytest.mark.parametrize("which,floor", [("castle", 0.94), ("alt", 0.92), ("tokens", 0.95), ("alt-tokens", 0.95)])
def test_accuracy_floor(results, which, floor):
    r = results[which]
    assert r["total"] >= 45
    assert r["accuracy"] >= floor, r


@pytest.mark.parametrize("which", ["castle", "alt", "tokens", "alt-tokens"])
def test_accuracy_target(results, which):
    assert results[which]["accuracy"] >= TARGET, results[which]


def test_same_icons_differing_only_in_colour(alt_set):
    """ALT_DICE's red and blue types share every face id and icon: only the body colour tells them apart."""
    reader = open_set(alt_set)


    rng = np.random.default_rng(7)
    right = total = 0
    for _ in range(10):
        items = [("red", "bolt"), ("blue", "bolt"), ("red", "skull"), ("blue", "skull")]
        img, truth = render.render_scene(rng, set_spec=render.ALT_DICE, style="glyph", items=items, hard=False)
        dice = reader.read(img)["dice"]
        for t in truth:
            total += 1
            near = min(dice, key=lambda d: (d["x"] - t["x"]) ** 2 + (d["y"] - t["y"]) ** 2, default=None)
            if near and near["face"] == t["face"] and near["type"] == t["type"]:
                right += 1
    assert right / total >= 0.9


def test_learns_from_whole_table_photos(tmp_path):
    """Examples may be whole photos on a busy table (not close-ups): the reader still finds the token."""
    rng = np.random.default_rng(31)
    spec = render.ALT_TOKENS
    for typ, (_, faces) in spec["types"].items():
        for face in faces:
            d = tmp_path / "examples" / typ / face
            d.mkdir(parents=True)
            for i in range(4):
                img, _ = render.render_scene(rng, set_spec=spec, style="glyph", items=[(typ, face)], hard=True)
                cv2.imwrite(str(d / f"{i}.png"), img)
    r = score(open_set(tmp_path), spec, "glyph", seed=105, scenes=20)
    assert r["accuracy"] >= 0.8, r
