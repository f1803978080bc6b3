"""Camera glue for Castle Dice: roll-watcher updates become table actions (not pure rules).

The roll watcher (``vision.watcher.RollWatcher.feed(frame) -> update``) reports once per settled
tray a ``reading`` (die entries ``{"type": "wood", "face": "wood2" | None, ...}``) and ``changes``.
This glue compares each settled reading with the previous one (as multisets of type+face, so it
works with or without the watcher's ``changes``) and, depending on the game's step, sends:

* ``first_player``: two new wood dice -> ``first_roll`` for the next player still to roll;
* ``roll``: the dice added to the tray -> ``roll`` for the next player in turn order who has not
  rolled (unsure dice keep ``face: None`` and are confirmed on the phone; dice the camera missed
  are added as unsure of the remaining types);
* ``gather``: each die that left the tray -> ``take`` (the rules credit whoever's pick it is); a die
  that only changed face (nudged, or Pork Chops turned by hand) -> ``correct_die``; on Lakis's turn a
  solo-die reading -> ``next`` with that solo face;
* ``choose_dice`` on Lakis's turn: solo-die readings are collected until he has one per choice,
  then ``bot_choose``.

Every action goes through ``Table.act`` as the ``device`` actor, so it is logged and undoable like
a tap on a phone; refusals are kept in :attr:`CastleCamera.last_error` (and logged), never raised.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from companion.games import Actor, RuleError

log = logging.getLogger(__name__)
NAME = "castle-dice"
RES = ("wood", "stone", "gold", "land", "iron")
SOLO_TYPES = ("solo", "solo_die", "black")
DEVICE = Actor("device")


def normalise_face(face: Any) -> str | None:
    """``"Wood_2"``, ``"2wood"``, ``"wood-2"`` -> ``"wood2"``; animals and barbarian as lowercase ids.

    >>> [normalise_face(f) for f in ("Wood_2", "2wood", "iron 1", "Cow", None, "BARBARIAN")]
    ['wood2', 'wood2', 'iron1', 'cow', None, 'barbarian']
    """
    if face is None:
        return None
    f = re.sub(r"[\s_\-x×]+", "", str(face).strip().lower())
    m = re.fullmatch(r"(\d)(wood|stone|gold|land|iron)", f)
    if m:
        return m.group(2) + m.group(1)
    return f or None


def die_entries(reading: Any) -> list[dict]:
    """The dice of a reading as ``[{"type", "face", "x", "y"}]`` (a list, or a dict with ``dice``)."""
    if reading is None:
        return []
    if isinstance(reading, dict):
        reading = reading.get("dice") or []
    out = []
    for d in reading:
        if not isinstance(d, dict):
            d = {k: getattr(d, k, None) for k in ("type", "face", "x", "y")}
        typ = str(d.get("type") or "").lower() or None
        e = {"type": typ, "face": normalise_face(d.get("face"))}
        if d.get("x") is not None and d.get("y") is not None:
            e["x"], e["y"] = float(d["x"]), float(d["y"])
            e["size"] = float(max(d.get("w") or 0, d.get("h") or 0) or 30.0)
        out.append(e)
    return out


def _dist(a: dict, b: dict) -> float:
    if "x" not in a or "x" not in b:
        return 0.0
    return math.hypot(a["x"] - b["x"], a["y"] - b["y"])


def diff(before: list[dict], after: list[dict]) -> tuple[list[dict], list[dict]]:
    """``(added, removed)`` between two readings: dice of the same type and face are paired, the
    nearest first when positions are known, so the unpaired ones keep their own position.

    >>> diff([{"type": "wood", "face": "wood1"}], [{"type": "wood", "face": "wood1"}, {"type": "gold", "face": "horse"}])
    ([{'type': 'gold', 'face': 'horse'}], [])
    >>> a, r = diff([{"type": "wood", "face": "wood1", "x": 0, "y": 0}, {"type": "wood", "face": "wood1", "x": 90, "y": 0}],
    ...             [{"type": "wood", "face": "wood1", "x": 91, "y": 1}])
    >>> a, r[0]["x"]
    ([], 0.0)
    """
    added: list[dict] = []
    removed: list[dict] = []
    keys = sorted({(d["type"], d["face"]) for d in before + after}, key=lambda k: (str(k[0]), str(k[1])))
    for key in keys:
        b = [d for d in before if (d["type"], d["face"]) == key]
        a = [d for d in after if (d["type"], d["face"]) == key]
        pairs = sorted((_dist(x, y), i, j) for i, x in enumerate(b) for j, y in enumerate(a))
        used_b: set[int] = set()
        used_a: set[int] = set()
        for _dd, i, j in pairs:
            if i not in used_b and j not in used_a:
                used_b.add(i)
                used_a.add(j)
        removed += [{**x, "x": float(x["x"]), "y": float(x["y"])} if "x" in x else dict(x)
                    for i, x in enumerate(b) if i not in used_b]
        added += [{**y, "x": float(y["x"]), "y": float(y["y"])} if "x" in y else dict(y)
                  for j, y in enumerate(a) if j not in used_a]
    return added, removed


class CastleCamera:
    """Feeds settled tray readings of the active Castle Dice game into the table."""

    def __init__(self, table, game_id: Callable[[], str | None] | str | None = None) -> None:
        self.table = table
        self._game_id = game_id
        self.previous: list[dict] = []
        self.solo_rolls: list[str] = []
        self.camera_faces: dict[int, dict] = {}  # die id -> the camera's entry (type, face, x, y)
        self.sent: list[dict] = []
        self.last_error: str | None = None

    # -- plumbing --------------------------------------------------------------------------------
    def game_id(self) -> str | None:
        gid = self._game_id() if callable(self._game_id) else self._game_id
        gid = gid or getattr(self.table, "active_game", None)
        if gid is None:
            return None
        try:
            if self.table.row(gid).game != NAME:
                return None
        except LookupError:
            return None
        return gid

    def _send(self, gid: str, action: dict) -> bool:
        try:
            self.table.act(gid, DEVICE, action)
        except RuleError as err:
            self.last_error = str(err)
            log.info("camera action %s refused: %s", action.get("type"), err)
            return False
        self.sent.append(action)
        self.last_error = None
        return True

    # -- entry points ----------------------------------------------------------------------------
    def on_update(self, update: Any) -> None:
        """A roll-watcher update (object or dict); only settled readings matter."""
        reading = getattr(update, "reading", None)
        if reading is None and isinstance(update, dict):
            reading = update.get("reading")
        if reading is not None:
            self.on_reading(reading)

    def on_reading(self, reading: Any) -> None:
        """One settled reading of the whole tray."""
        gid = self.game_id()
        now = die_entries(reading)
        solo = [d for d in now if d["type"] in SOLO_TYPES]
        dice = [d for d in now if d["type"] not in SOLO_TYPES]
        if gid is None:
            self.previous = dice
            return
        added, removed = diff(self.previous, dice)
        self.previous = dice
        state = self.table.state(gid)
        step = state.get("step")
        if solo and self._bot_turn(state):
            self._solo(gid, state, solo)
            return
        if step == "first_player":
            woods = [d["face"] for d in added if d["type"] in (None, "wood") and d["face"]]
            if len(woods) >= 2:
                seat = next((i for i in state["contenders"] if state["boards"][i]["first_roll"] is None), None)
                if seat is not None:
                    self._send(gid, {"type": "first_roll", "seat": seat, "faces": woods[:2]})
        elif step in ("roll", "gather"):
            state = self._rereads(gid, state, added, removed)
            if step == "roll":
                self._roll(gid, state, added)
            else:
                self._gather(gid, state, added, removed)

    # -- steps -----------------------------------------------------------------------------------
    @staticmethod
    def _bot_turn(state: dict) -> bool:
        bot = state.get("bot")
        if bot is None or state.get("step") not in ("choose_dice", "gather") or state.get("pending"):
            return False
        order, turn = state["order"], state["turn"]
        return turn < len(order) and order[turn] == bot

    def _solo(self, gid: str, state: dict, solo: list[dict]) -> None:
        face = solo[0]["face"]
        if face is None:
            self.last_error = "the solo die could not be read"
            return
        if state["step"] == "gather":
            self._send(gid, {"type": "next", "solo": face})
            return
        self.solo_rolls.append(face)
        need = state["edition"]["rounds"][str(state["round"])]["extra"]
        resources = [f for f in self.solo_rolls if f != "barn"]
        if (len(self.solo_rolls) >= need and resources
                and self._send(gid, {"type": "bot_choose", "solo": list(self.solo_rolls)})):
            self.solo_rolls = []

    def _roll(self, gid: str, state: dict, added: list[dict]) -> None:
        if not added:
            return
        seat = next((i for i in state["order"] if not state["boards"][i]["rolled"]), None)
        if seat is None:
            return
        pool = Counter(state["boards"][seat]["pool"])
        dice, left = [], Counter(pool)
        entries = list(added)
        for d in added:
            typ = d["type"] if d["type"] in RES else None
            if typ is None or left[typ] <= 0:  # an unknown colour: let the rules match it by face
                typ = None
            else:
                left[typ] -= 1
            dice.append({"type": typ, "face": d["face"]} if typ else {"face": d["face"]})
        n_pool = sum(pool.values())
        if len(dice) > n_pool:
            self.last_error = f"{len(dice)} new dice in the tray, but {n_pool} expected"
            return
        for typ in RES:  # dice the camera did not see: unsure, to be confirmed on the phone
            for _ in range(max(0, left[typ])):
                if len(dice) < n_pool:
                    dice.append({"type": typ, "face": None})
                    entries.append({"type": typ, "face": None})
        first_id = state["next_die"]
        if self._send(gid, {"type": "roll", "seat": seat, "dice": dice, "source": "camera"}):
            # remember what the camera saw of each new die (face and place): after a hand
            # correction on the phone the camera still sees the old face, and the die taken from
            # the tray must be found by where it lay. The rules number the dice in the order sent,
            # those known by neither type nor face last.
            seen = [e for e, d in zip(entries, dice, strict=True) if d.get("type") or d.get("face")]
            seen += [e for e, d in zip(entries, dice, strict=True) if not (d.get("type") or d.get("face"))]
            for i, e in enumerate(seen):
                self.camera_faces[first_id + i] = e

    def _rereads(self, gid: str, state: dict, added: list[dict], removed: list[dict]) -> dict:
        """Dice that only show another face where they lay (nudged, or read differently): not new
        dice and not picks. The game follows the camera unless a player corrected that die by hand
        (then the player's word stands). ``added`` and ``removed`` are trimmed in place."""
        for a in list(added):
            near = [r for r in removed if r["type"] == a["type"]
                    and _dist(r, a) <= 0.8 * max(r.get("size", 30.0), a.get("size", 30.0))]
            if not near:
                continue
            match = min(near, key=lambda r: _dist(r, a))
            removed.remove(match)
            added.remove(a)
            die = self._find(state, match) if match["face"] is not None or a["face"] is not None else None
            if die is None:
                continue
            seen = self.camera_faces.get(die["id"])
            hand_fixed = seen is not None and seen.get("face") != die["face"]
            self.camera_faces[die["id"]] = a
            if a["face"] is not None and not hand_fixed and a["face"] != die["face"]:
                self._send(gid, {"type": "correct_die", "die": die["id"], "face": a["face"]})
                state = self.table.state(gid)
        return state

    def _gather(self, gid: str, state: dict, added: list[dict], removed: list[dict]) -> None:
        for r in removed:  # each die that left the tray: the pick of whoever's turn it is
            if r["face"] == "barbarian":  # carried to its roller's camp, not gathered
                continue
            state = self.table.state(gid)
            if state.get("step") != "gather":
                break
            if self._bot_turn(state):
                self._send(gid, {"type": "next"})
                continue
            if self._in_camp(state, r):
                continue  # corrected into a barbarian on the phone, then carried to the camp
            die = self._find(state, r)
            if die is None:
                self.last_error = f"a {r['type']} die left the tray but is not in the supply"
                continue
            action = {"type": "take", "die": die["id"], "source": "camera"}
            if die["face"] is None and r["face"] is not None:
                action["face"] = r["face"]  # confirms an unsure reading
            self._send(gid, action)

    def _known(self, state: dict, entry: dict, where: list[dict]) -> dict | None:
        """The die in ``where`` the camera saw as ``entry`` (same type and face as read), nearest first."""
        cands = [d for d in where if (self.camera_faces.get(d["id"]) or {}).get("face") == entry["face"]
                 and (self.camera_faces.get(d["id"]) or {}).get("type") == entry["type"]]
        if not cands:
            return None
        return min(cands, key=lambda d: _dist(self.camera_faces[d["id"]], entry))

    def _in_camp(self, state: dict, entry: dict) -> bool:
        camps = [d for camp in state["camps"] for d in camp]
        camp_die = self._known(state, entry, camps)
        if camp_die is None:
            return False
        supply_die = self._known(state, entry, state["supply"])
        return supply_die is None or (_dist(self.camera_faces[camp_die["id"]], entry)
                                      < _dist(self.camera_faces[supply_die["id"]], entry))

    def _find(self, state: dict, entry: dict) -> dict | None:
        """The supply die a reading entry stands for: the one the camera saw there (even if it was
        corrected by hand since), else the same type and face, else an unsure one of that type."""
        supply = state["supply"]
        known = self._known(state, entry, supply)
        if known is not None:
            return known
        for d in supply:
            if (entry["type"] in (None, d["type"])) and d["face"] == entry["face"] and d["face"] is not None:
                return d
        for d in supply:
            if entry["type"] in (None, d["type"]) and d["face"] is None:
                return d
        return None


def attach(app, table, *, reader_factory: Callable[[], Any] | None = None) -> CastleCamera | None:
    """Wires the glue to the app's camera runtime (``app.extensions["camera"]``), if any: every
    settled reading goes to :class:`CastleCamera`, and once a Castle Dice game is on the table the
    roll watcher is switched to the Castle Dice reader: the set the settings choose (``[sets]
    castle-dice``: the built-in set or one the players taught), or ``reader_factory()``.

    Call it after ``attach_camera(app, table, cfg)`` (``companion.serve.build``)."""
    runtime = app.extensions.get("camera")
    if runtime is None or not hasattr(runtime, "on_reading"):
        return None
    glue = CastleCamera(table)
    runtime.on_reading(glue.on_reading)
    app.extensions["castle_camera"] = glue
    done: dict = {}  # "opened": (the set source opened,), "thread": the opening
    conf = getattr(app, "config", {})

    def chosen() -> str | None:
        if reader_factory is not None:
            return None
        from companion.dicesets import set_source

        return set_source(NAME, conf.get("CONFIG"), conf.get("DATA_DIR"))

    def make_reader():
        if reader_factory is not None:
            return reader_factory()
        from companion.dicesets import open_for_game

        return open_for_game(NAME, conf.get("CONFIG"), conf.get("DATA_DIR"))

    def ensure_reader(game_id: str | None = None) -> None:
        source = chosen()
        if done.get("opened") == (source,):
            return
        gid = game_id or getattr(table, "active_game", None)
        try:
            if gid is None or table.row(gid).game != NAME:
                return
        except LookupError:
            return
        # once per chosen set: a missing set is logged, not retried on every action
        done["opened"] = (source,)

        def open_reader() -> None:
            try:
                reader = make_reader()
            except Exception:
                log.exception("the Castle Dice reader could not be opened; the camera keeps its reader")
                if hasattr(runtime, "hold_reader"):
                    runtime.hold_reader(False)
                return
            if hasattr(runtime, "set_reader"):
                runtime.set_reader(getattr(reader, "read", reader))
            hub = getattr(runtime, "hub", None)
            if hasattr(hub, "show_custom_dice"):  # the demo camera of `make run` rolls Castle Dice
                hub.show_custom_dice()

        # Learning the set (seconds on a Pi, the first time after an update) happens beside the
        # game: the action that started it is answered at once, the camera switches when ready;
        # until then the tray is not read (the old reader would read Castle Dice as pips).
        if hasattr(runtime, "hold_reader"):
            runtime.hold_reader()
        done["thread"] = threading.Thread(target=open_reader, name="castle-reader", daemon=True)
        done["thread"].start()

    table.subscribe(lambda game_id, _event, _view: ensure_reader(game_id))
    # a new game switches at once: its first roll (who plays first) may be the camera's
    table.on_created(lambda game_id, _game: ensure_reader(game_id))
    ensure_reader()
    def reader_ready(timeout: float | None = None) -> bool:
        """Wait (up to ``timeout`` s) until the set is open; True when no opening is under way."""
        thread = done.get("thread")
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    glue.ensure_reader = ensure_reader
    glue.reader_ready = reader_ready
    return glue
