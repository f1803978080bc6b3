"""The roll watcher: camera frames in, one voted reading per roll out.

    watcher = RollWatcher()                  # reads standard pip dice
    watcher = RollWatcher(reader=my_reader)  # any reader: image -> [die, ...] or {"dice": [...]}
    update = watcher.feed(frame_bgr)
    update.state      # "empty" | "rolling" | "settled" | "unreadable"
    update.reading    # None, except on the one frame where a new settled reading is emitted
    update.changes    # with a reading: {"unchanged", "rerolled": [{"old", "new"}], "added", "removed"}

How it decides:

* **Motion.** Each frame is shrunk to a small grey thumbnail; when enough of it differs from the
  previous one (a hand, a rolling die) the state is ``rolling`` and all votes are dropped.
* **Voting.** Once the scene is still, every frame is read and the dice of the last few still
  frames are matched by position; a die is kept when it is seen in most of them, and its face
  is the one most frames agree on. The reading is emitted only when ``settle_frames`` still
  frames agree, so one roll gives exactly one reading and a flickering frame changes nothing.
* **States.** After a roll the tray is ``settled`` (a reading with every die read),
  ``unreadable`` (a die is seen but cannot be read honestly: cocked, blurred, glare; no reading
  is emitted until it is fixed) or ``empty`` (no dice; emitted once as an empty reading so that
  a tracker sees every die removed).
* **Changes.** Dice are compared by position with the previous emitted reading, and by
  ``type`` + ``face`` (so readers of custom dice work too): a die at the same place with the same
  face is unchanged; at the same place with another face it was re-rolled or bumped; dice left
  over on both sides are paired as moved re-rolls when their types agree; the rest were added
  or removed (in Castle Dice a removed die is a picked die).

The watcher is pure: frames go in, plain data comes out; no threads, no clock.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

import cv2
import numpy as np

from vision.pips import read_pips

STATES = ("empty", "rolling", "settled", "unreadable")


@dataclass
class WatchUpdate:
    state: str
    reading: list[dict] | None = None  # set only when a new settled reading is emitted
    changes: dict | None = None  # set together with reading
    tokens: list[dict] | None = None  # bag tokens of the emitted reading (custom readers)
    dice: list[dict] = field(default_factory=list)  # this frame's raw dice (previews; may flicker)
    motion: float = 0.0  # fraction of the thumbnail that changed since the last frame

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)

    def to_dict(self) -> dict:
        return {"state": self.state, "reading": self.reading, "changes": self.changes,
                "tokens": self.tokens, "dice": self.dice, "motion": round(self.motion, 4)}


def _split(result: Any) -> tuple[list[dict], list[dict]]:
    if result is None:
        return [], []
    if isinstance(result, dict):
        return list(result.get("dice") or []), list(result.get("tokens") or [])
    return list(result), []


def _key(d: dict) -> tuple:
    face = d.get("face")
    if face is None and d.get("value") is not None:
        face = str(d.get("value"))
    return (d.get("type", "d6"), None if face is None else str(face))


def _size(d: dict) -> float:
    return float(max(d.get("w") or 0.0, d.get("h") or 0.0) or 30.0)


def match_by_position(old: list[dict], new: list[dict], tol: float = 0.6) -> tuple[list, list, list]:
    """Greedy nearest pairs within ``tol`` die sizes (+4 px): (pairs, old left, new left)."""
    cand = []
    for i, a in enumerate(old):
        for j, b in enumerate(new):
            d = math.hypot(a["x"] - b["x"], a["y"] - b["y"])
            if d <= tol * max(_size(a), _size(b)) + 4:
                cand.append((d, i, j))
    cand.sort()
    ui, uj, pairs = set(), set(), []
    for _d, i, j in cand:
        if i in ui or j in uj:
            continue
        ui.add(i)
        uj.add(j)
        pairs.append((i, j))
    return (pairs, [i for i in range(len(old)) if i not in ui], [j for j in range(len(new)) if j not in uj])


def diff_readings(old: list[dict], new: list[dict]) -> dict:
    """What changed between two readings (see the module docstring)."""
    pairs, old_left, new_left = match_by_position(old, new)
    out: dict[str, list] = {"unchanged": [], "rerolled": [], "added": [], "removed": []}
    for i, j in pairs:
        if _key(old[i]) == _key(new[j]):
            out["unchanged"].append(new[j])
        else:
            out["rerolled"].append({"old": old[i], "new": new[j]})
    # Dice that moved: pair leftovers of the same type, nearest first.
    cand = sorted((math.hypot(old[i]["x"] - new[j]["x"], old[i]["y"] - new[j]["y"]), i, j)
                  for i in old_left for j in new_left
                  if old[i].get("type", "d6") == new[j].get("type", "d6"))
    used_i, used_j = set(), set()
    for _d, i, j in cand:
        if i in used_i or j in used_j:
            continue
        used_i.add(i)
        used_j.add(j)
        out["rerolled"].append({"old": old[i], "new": new[j]})
    out["removed"] = [old[i] for i in old_left if i not in used_i]
    out["added"] = [new[j] for j in new_left if j not in used_j]
    return out


def vote(frames: list[list[dict]]) -> tuple[list[dict], float]:
    """Merge readings of several still frames: returns (dice, agreement 0..1).

    A die is kept when it is seen in more than half of the frames; its entry is taken from a
    frame showing the majority face. ``agreement`` is the smallest majority share of any die
    (1.0 when all frames agree).
    """
    if not frames:
        return [], 1.0
    ref_idx = sorted(range(len(frames)), key=lambda k: len(frames[k]))[len(frames) // 2]
    ref = frames[ref_idx]
    groups: list[list[dict]] = [[d] for d in ref]
    seen_extra = 0
    for k, fr in enumerate(frames):
        if k == ref_idx:
            continue
        pairs, _ol, new_left = match_by_position(ref, fr)
        for i, j in pairs:
            groups[i].append(fr[j])
        seen_extra = max(seen_extra, len(new_left))
    out, agreement = [], 1.0
    n = len(frames)
    for g in groups:
        if len(g) * 2 <= n:
            agreement = min(agreement, 1 - len(g) / n)
            continue
        counts = Counter(_key(d) for d in g)
        best, c = counts.most_common(1)[0]
        agreement = min(agreement, c / n)
        pick = next(d for d in g if _key(d) == best)
        out.append(dict(pick))
    if seen_extra:
        agreement = min(agreement, 1 - 1 / n)
    return out, agreement


class RollWatcher:
    """Feed it frames; it tells the scene state and emits one reading per roll."""

    def __init__(self, reader: Callable[[np.ndarray], Any] = read_pips, *, settle_frames: int = 3,
                 window: int = 5, motion_threshold: float = 0.004, pixel_delta: int = 18,
                 thumb_width: int = 160, min_agreement: float = 0.6) -> None:
        self.reader = reader
        self.settle_frames = settle_frames
        self.window = max(window, settle_frames)
        self.motion_threshold = motion_threshold
        self.pixel_delta = pixel_delta
        self.thumb_width = thumb_width
        self.min_agreement = min_agreement
        self.reset()

    def reset(self) -> None:
        self._prev: np.ndarray | None = None
        self._still: list[tuple[list[dict], list[dict]]] = []
        self._emitted: list[dict] = []  # the last emitted reading
        self._emitted_tokens: list[dict] = []
        self._done = False  # already emitted for this still period
        self.state = "empty"

    def _thumb(self, frame: np.ndarray) -> np.ndarray:
        g = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        h, w = g.shape[:2]
        tw = min(self.thumb_width, w)
        th = max(1, round(h * tw / w))
        return cv2.GaussianBlur(cv2.resize(g, (tw, th), interpolation=cv2.INTER_AREA), (5, 5), 0)

    def feed(self, frame_bgr: np.ndarray) -> WatchUpdate:
        frame = np.asarray(frame_bgr)
        thumb = self._thumb(frame)
        motion = 0.0
        if self._prev is not None and self._prev.shape == thumb.shape:
            delta = cv2.absdiff(thumb, self._prev)
            motion = float(np.count_nonzero(delta > self.pixel_delta)) / delta.size
        self._prev = thumb
        if motion > self.motion_threshold:
            self._still.clear()
            self._done = False
            self.state = "rolling"
            return WatchUpdate("rolling", motion=motion)

        dice, tokens = _split(self.reader(frame))
        self._still.append((dice, tokens))
        del self._still[:-self.window]
        if len(self._still) < self.settle_frames:
            # Still, but not for long enough: keep the previous state (no flicker).
            return WatchUpdate(self.state, dice=dice, motion=motion)
        voted, agreement = vote([d for d, _t in self._still])
        voted_tokens, _ = vote([t for _d, t in self._still])
        if agreement < self.min_agreement and len(self._still) < self.window:
            return WatchUpdate(self.state, dice=dice, motion=motion)
        if not voted and not voted_tokens:
            new_state = "empty"
        elif any(_key(d)[1] is None for d in voted):
            new_state = "unreadable"
        else:
            new_state = "settled"
        update = WatchUpdate(new_state, dice=dice, motion=motion)
        self.state = new_state
        if self._done or new_state == "unreadable":
            return update
        self._done = True
        changes = diff_readings(self._emitted, voted)
        if (not changes["rerolled"] and not changes["added"] and not changes["removed"]
                and self._emitted_tokens == voted_tokens and self._emitted):
            return update  # the same tray as before (a hand passed over it): nothing to report
        if new_state == "empty" and not self._emitted and not self._emitted_tokens:
            return update  # nothing was there and nothing is: no reading to report
        update.reading = voted
        update.tokens = voted_tokens
        update.changes = changes
        self._emitted = voted
        self._emitted_tokens = voted_tokens
        return update
