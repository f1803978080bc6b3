"""The roll watcher: states, one voted reading per roll, changes between rolls, any reader."""

from __future__ import annotations

import numpy as np
from synth_pips import Die, Scene, render

from vision.watcher import RollWatcher, diff_readings, vote


def tray(values_at: dict[tuple[int, int], int], seed: int = 0) -> np.ndarray:
    """The same tray every time, with fresh sensor noise per frame (``seed``)."""
    dice = [Die(x, y, 50, v, angle=12, colour="white") for (x, y), v in values_at.items()]
    img, _ = render(Scene(background="grey", dice=dice, noise=0, shadow=False), 7)
    noise = np.random.default_rng(seed).normal(0, 2.0, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def moving(seed: int) -> np.ndarray:
    """A frame with a hand-sized blob somewhere (the roll in progress)."""
    img = tray({}, seed)
    rng = np.random.default_rng(seed)
    x, y = int(rng.integers(100, 540)), int(rng.integers(100, 380))
    img[y - 60:y + 60, x - 80:x + 80] = (40, 90, 160)
    return img


def feed_all(w: RollWatcher, frames) -> list:
    return [w.feed(f) for f in frames]


A = {(160, 160): 3, (320, 240): 5, (480, 320): 2}


def test_empty_table_stays_empty_and_emits_nothing():
    w = RollWatcher()
    ups = feed_all(w, [tray({}, s % 2) for s in range(6)])
    assert [u.state for u in ups][-1] == "empty"
    assert all(u.reading is None for u in ups)


def test_one_roll_gives_exactly_one_reading():
    w = RollWatcher()
    frames = [moving(s) for s in range(4)] + [tray(A, s) for s in range(10)]
    ups = feed_all(w, frames)
    assert [u.state for u in ups[:4]][1:] == ["rolling"] * 3
    emitted = [u for u in ups if u.reading is not None]
    assert len(emitted) == 1, [u.state for u in ups]
    reading = emitted[0].reading
    assert sorted(d["value"] for d in reading) == [2, 3, 5]
    assert emitted[0].state == "settled"
    assert sorted(d["value"] for d in emitted[0].changes["added"]) == [2, 3, 5]
    assert ups[-1].state == "settled" and ups[-1].reading is None  # no flicker, no repeat


def test_reroll_of_one_die_reports_old_and_new():
    w = RollWatcher()
    feed_all(w, [tray(A, s) for s in range(5)])
    b = dict(A)
    b[(320, 240)] = 6  # the middle die was re-rolled (same place, new face)
    ups = feed_all(w, [moving(9), moving(10)] + [tray(b, s) for s in range(5)])
    (u,) = [u for u in ups if u.reading is not None]
    ch = u.changes
    assert [(r["old"]["value"], r["new"]["value"]) for r in ch["rerolled"]] == [(5, 6)]
    assert sorted(d["value"] for d in ch["unchanged"]) == [2, 3]
    assert ch["added"] == [] and ch["removed"] == []


def test_a_picked_die_is_removed():
    w = RollWatcher()
    feed_all(w, [tray(A, s) for s in range(5)])
    b = {k: v for k, v in A.items() if k != (160, 160)}
    ups = feed_all(w, [moving(3)] + [tray(b, s) for s in range(5)])
    (u,) = [u for u in ups if u.reading is not None]
    assert [d["value"] for d in u.changes["removed"]] == [3]
    assert sorted(d["value"] for d in u.changes["unchanged"]) == [2, 5]


def test_clearing_the_tray_is_reported_once_as_empty():
    w = RollWatcher()
    feed_all(w, [tray(A, s) for s in range(5)])
    ups = feed_all(w, [moving(4)] + [tray({}, s) for s in range(6)])
    emitted = [u for u in ups if u.reading is not None]
    assert len(emitted) == 1
    assert emitted[0].state == "empty" and emitted[0].reading == []
    assert sorted(d["value"] for d in emitted[0].changes["removed"]) == [2, 3, 5]


class FlakyReader:
    """Custom-set style entries (face/type strings); one frame in five misreads a die."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, frame):
        self.n += 1
        face = "wood2" if self.n % 5 == 3 else "gold1"
        return {"dice": [{"x": 100.0, "y": 100.0, "w": 40.0, "h": 40.0, "type": "castle", "face": face},
                         {"x": 300.0, "y": 200.0, "w": 40.0, "h": 40.0, "type": "castle", "face": "stone1"}],
                "tokens": []}


def test_votes_hide_a_flickering_frame_and_custom_faces_are_compared():
    still = np.full((240, 320, 3), 120, np.uint8)
    w = RollWatcher(reader=FlakyReader(), settle_frames=3, window=5)
    ups = feed_all(w, [still] * 12)
    emitted = [u for u in ups if u.reading is not None]
    assert len(emitted) == 1
    assert sorted(d["face"] for d in emitted[0].reading) == ["gold1", "stone1"]


def test_unreadable_die_blocks_the_reading_until_fixed():
    def reader(_frame):
        return [{"x": 50.0, "y": 50.0, "w": 30.0, "h": 30.0, "type": "d6", "face": None, "value": None,
                 "reason": "cocked"}]

    w = RollWatcher(reader=reader)
    ups = feed_all(w, [np.zeros((120, 160, 3), np.uint8)] * 6)
    assert ups[-1].state == "unreadable"
    assert all(u.reading is None for u in ups)


def test_update_is_usable_as_object_and_dict():
    w = RollWatcher()
    u = w.feed(tray(A, 0))
    assert u.get("state") == u.state
    assert set(u.to_dict()) >= {"state", "reading", "changes", "dice"}


def test_diff_and_vote_helpers():
    old = [{"x": 10, "y": 10, "w": 20, "h": 20, "type": "d6", "face": "1", "value": 1}]
    new = [{"x": 200, "y": 10, "w": 20, "h": 20, "type": "d6", "face": "4", "value": 4}]
    ch = diff_readings(old, new)
    assert ch["rerolled"] == [{"old": old[0], "new": new[0]}]  # moved and changed: one re-roll
    assert diff_readings(old, [])["removed"] == old
    frames = [[{"x": 5, "y": 5, "w": 10, "h": 10, "face": f, "type": "d6"}] for f in ("2", "2", "3")]
    voted, agreement = vote(frames)
    assert [d["face"] for d in voted] == ["2"] and abs(agreement - 2 / 3) < 1e-9
