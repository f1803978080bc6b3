"""Castle Dice from synthetic tray pictures: the real roll watcher and the real custom-dice reader
read rendered trays (``vision.render``), the camera glue turns the settled readings into rolls and
picks, and the players fix what the camera got wrong on their phones, as at a real table.

Dice keep their place in the tray between pictures (each die is a tile rendered once, when it is
rolled), so the picture changes only where a die is rolled, nudged or taken away."""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

from companion.games import Actor
from companion.dicesets import write_rendered_set
from companion.games import castle_dice_camera as cam
from companion.store import EventStore
from companion.table import Table

render = pytest.importorskip("vision.render")
watcher_mod = pytest.importorskip("vision.watcher")
dicesets = pytest.importorskip("companion.dicesets")

SLOT, COLS, ROWS = 112, 6, 4
ROUNDS = int(os.environ.get("CASTLE_SYNTH_ROUNDS", "1"))  # 7 for the whole game (about 15 s a round)
HOST = Actor("host")


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    """The shipped Castle Dice set (what the companion reads at the table), else one drawn here."""
    try:
        return dicesets.open_set("castle-dice")
    except Exception:  # pragma: no cover - the set is not shipped in this checkout
        folder = tmp_path_factory.mktemp("castle-dice-set")
        write_rendered_set(folder, render.CASTLE_DICE, per_face=5, seed=0)
        return dicesets.open_set(folder)


class Tray:
    """A tray under the camera: one table background, each die drawn once where it landed."""

    def __init__(self, seed: int = 0) -> None:
        if not hasattr(render, "_compose"):  # pragma: no cover
            pytest.skip("vision.render changed its drawing helpers")
        self.seed = seed
        felt = np.random.default_rng(seed).normal(0, 5, (SLOT * ROWS, SLOT * COLS, 1)).astype(np.float32)
        self.bg = felt + np.array([52, 98, 40], np.float32)  # green felt (BGR)
        self.slots: list[dict | None] = [None] * (COLS * ROWS)
        self.count = 0

    def _place(self, i: int, typ: str, face: str) -> dict:
        self.count += 1
        rng = np.random.default_rng(self.seed * 1000 + self.count)
        y, x = divmod(i, COLS)
        cx = x * SLOT + SLOT / 2 + rng.uniform(-10, 10)
        cy = y * SLOT + SLOT / 2 + rng.uniform(-10, 10)
        return {"type": typ, "face": face, "obj": (cx, cy, render.CASTLE_DICE, typ, face, int(SLOT * 0.5),
                                                   float(rng.uniform(0, 360)), "castle"), "seed": self.count}

    def add(self, typ: str, face: str) -> int:
        i = self.slots.index(None)
        self.slots[i] = self._place(i, typ, face)
        return i

    def nudge(self, i: int) -> None:
        """A player straightens a die the camera cannot read."""
        d = self.slots[i]
        self.slots[i] = self._place(i, d["type"], d["face"])

    def remove(self, i: int) -> None:
        self.slots[i] = None

    def image(self) -> np.ndarray:
        canvas = self.bg.copy()
        for d in self.slots:
            if d is not None:
                render._compose(np.random.default_rng(d["seed"]), canvas, [d["obj"]], False)
        return np.clip(canvas, 0, 255).astype(np.uint8)

    def slot_at(self, x: float, y: float) -> int:
        return int(y // SLOT) * COLS + int(x // SLOT)

    def dice(self) -> list[int]:
        return [i for i, d in enumerate(self.slots) if d is not None]


def settle(watcher, tray: Tray, glue):
    """A hand passes over the tray, then the camera sees it still until the watcher has decided."""
    hand = np.full_like(tray.image(), 30)
    for _attempt in range(6):
        watcher.feed(hand)
        img = tray.image()
        update = None
        for _ in range(watcher.window + 1):
            update = watcher.feed(img)
            if update.reading is not None:
                glue.on_update(update)
                return update
        if update.state != "unreadable":
            return update  # the watcher saw no change worth a reading
        # unreadable: the players straighten the dice the camera cannot read
        for d in update.dice:
            if d.get("face") is None:
                i = tray.slot_at(d["x"], d["y"])
                if 0 <= i < len(tray.slots) and tray.slots[i] is not None:
                    tray.nudge(i)
    raise AssertionError("the tray never settled")


def test_a_round_from_synthetic_tray_pictures(reader, tmp_path):
    table = Table(EventStore(tmp_path / "db.sqlite3"))
    gid = table.create_game("castle-dice", ["Ana", "Ben"], {"first_player": 0})["id"]
    glue = cam.CastleCamera(table, gid)
    def misreading(image):
        """The real reader, except that the die lying in slot 2 is always misread (a systematic
        error, like a worn face): the players must correct it on the phone."""
        out = reader.read(image)
        for d in out["dice"]:
            if d.get("face") and tray.slot_at(d["x"], d["y"]) == 2:
                faces = [f for f in render.CASTLE_DICE["types"][d["type"]][1] if f != d["face"]]
                d["face"] = faces[0]
        return out

    watcher = watcher_mod.RollWatcher(reader=misreading, settle_frames=2, window=3)
    tray = Tray(seed=4)
    slot_of: dict[int, int] = {}  # game die id -> tray slot
    corrections = camera_picks = phone_picks = 0
    k = 0
    for _ in range(500):
        s = table.state(gid)
        if s["round"] > ROUNDS:
            break
        step = s["step"]
        if s["pending"]:
            table.act(gid, HOST, {"type": "skip"})
        elif step == "choose_dice":
            seat = s["order"][s["turn"]]
            table.act(gid, Actor("player", seat), {"type": "choose_dice", "dice": {"gold": 1, "iron": 1}}
                      if s["round"] == 1 else {"type": "choose_dice", "dice": {"land": 2, "iron": 1}})
        elif step == "roll":
            seat = next(i for i in s["order"] if not s["boards"][i]["rolled"])
            first_id = s["next_die"]
            new_slots = []
            for typ, n in s["boards"][seat]["pool"].items():
                faces = render.CASTLE_DICE["types"][typ][1]
                for _ in range(n):
                    k += 3
                    new_slots.append(tray.add(typ, faces[k % len(faces)]))
            settle(watcher, tray, glue)
            s = table.state(gid)
            assert s["boards"][seat]["rolled"], glue.last_error
            mine = [d for d in s["supply"] + s["camps"][seat] if d["id"] >= first_id]
            # the roller checks the phone against the real dice (the tray preview marks where the
            # camera saw each one) and corrects what was misread or not seen
            s = table.state(gid)
            mine = sorted((d for d in s["supply"] + s["camps"][seat] if d["id"] >= first_id), key=lambda d: d["id"])
            free = list(new_slots)
            placed = {}
            for d in mine:
                seen = glue.camera_faces.get(d["id"]) or {}
                if "x" in seen and tray.slot_at(seen["x"], seen["y"]) in free:
                    placed[d["id"]] = tray.slot_at(seen["x"], seen["y"])
                    free.remove(placed[d["id"]])
            for d in mine:
                if d["id"] not in placed:  # not seen by the camera: one of the remaining dice of its type
                    i = next(i for i in free if tray.slots[i]["type"] == d["type"])
                    placed[d["id"]] = i
                    free.remove(i)
            for d in mine:
                real = tray.slots[placed[d["id"]]]["face"]
                if d["face"] != real:
                    table.act(gid, Actor("player", seat), {"type": "correct_die", "die": d["id"], "face": real})
                    corrections += 1
                slot_of[d["id"]] = placed[d["id"]]
            s = table.state(gid)
            mine = [d for d in s["supply"] + s["camps"][seat] if d["id"] >= first_id]
            truth = Counter((tray.slots[i]["type"], tray.slots[i]["face"]) for i in new_slots)
            assert Counter((d["type"], d["face"]) for d in mine) == truth
            # the roller carries the barbarians to the camp
            for d in s["camps"][seat]:
                tray.remove(slot_of[d["id"]])
            if s["camps"][seat]:
                settle(watcher, tray, glue)
        elif step == "gather":
            seat = s["order"][s["turn"]]
            # the player takes the die they want from the tray; the camera sees it go
            i = max(tray.dice(), key=lambda i: (tray.slots[i]["face"][-1].isdigit() and int(tray.slots[i]["face"][-1]), -i))
            taken = (tray.slots[i]["type"], tray.slots[i]["face"])
            before_supply = Counter((d["type"], d["face"]) for d in s["supply"])
            tray.remove(i)
            settle(watcher, tray, glue)
            after = table.state(gid)
            gone = before_supply - Counter((d["type"], d["face"]) for d in after["supply"])
            if not gone and after["step"] == "gather" and after["order"][after["turn"]] == seat:
                # the camera never saw that die: the player taps it on the phone instead
                die = next(d for d in after["supply"] if (d["type"], d["face"]) == taken)
                table.act(gid, Actor("player", seat), {"type": "take", "die": die["id"]})
                phone_picks += 1
                after = table.state(gid)
                gone = before_supply - Counter((d["type"], d["face"]) for d in after["supply"])
            else:
                camera_picks += 1
            assert gone == Counter([taken]), glue.last_error
            last = [e for e in table.events(gid) if e["type"] == "take"][-1]
            assert last["seat"] == seat  # credited to the player whose pick it was
        else:
            table.act(gid, HOST, {"type": "next"})
    s = table.state(gid)
    assert s["round"] == ROUNDS + 1 and not tray.dice()
    print(f"camera picks {camera_picks}, phone picks {phone_picks}, corrections {corrections}")
    events = table.events(gid)
    takes = [e for e in events if e["type"] == "take" and e["actor"]["role"] == "device"]
    rolls = [e for e in events if e["type"] == "roll" and e["actor"]["role"] == "device"]
    assert len(rolls) == 2 * ROUNDS and len(takes) == camera_picks
    assert camera_picks > 2 * phone_picks, (camera_picks, phone_picks, corrections)
    assert corrections >= 1  # the misread die was corrected on the phone, and still found when taken
