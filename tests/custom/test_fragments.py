"""A symbol that reaches the rim cuts a token's body colour into pieces: learning must still take
the whole token (not one piece between the squares of a grid symbol), or every such token in a
scene is missed. Data: tests/data/grid-tokens, drawn by bench/third_hand.py (seed 1, crops)."""

import json
from pathlib import Path

import cv2
import numpy as np

from companion import dicesets

DATA = Path(__file__).resolve().parents[1] / "data" / "grid-tokens"


def test_tokens_whose_symbol_cuts_their_body_apart_are_learned_whole_and_read():
    reader = dicesets.open_set(DATA, use_cache=False)
    truth = json.loads((DATA / "scene" / "truth.json").read_text())["012.jpg"]
    got = reader.read(cv2.imread(str(DATA / "scene" / "012.jpg")))["tokens"]
    right = 0
    for t in truth:
        near = [d for d in got if np.hypot(d["x"] - t["x"], d["y"] - t["y"]) < 0.6 * t["w"]]
        right += any(d["face"] == t["face"] for d in near)
    grids = [t for t in truth if t["face"] == "grid"]
    assert len(grids) == 4
    assert right == len(truth), f"{right} of {len(truth)} tokens read (4 grid tokens among them)"


def test_no_example_is_learned_as_a_piece_of_its_token():
    # the learned outlines of one set are about one size: none of the grid examples (all tight
    # crops) may be learned as a sliver between its squares
    from vision import custom

    info, _ = dicesets.load_set_folder(DATA)
    exs, _ = dicesets.load_examples(info)
    first = custom._locate(exs, sorted({e.type for e in exs}), agree_sizes=True)
    areas = {e.source: cv2.contourArea(c) for e, c in zip(exs, first, strict=True) if c is not None}
    med = float(np.median(list(areas.values())))
    small = [s for s, a in areas.items() if a < 0.45 * med]
    assert not small, f"learned as pieces: {small}"
