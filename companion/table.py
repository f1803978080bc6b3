"""The table session: games, seats, actions, undo and live updates over the event log.

Data flows one way: an action arrives (from a phone or a button), the game's ``decide`` turns it
into an event, the event is made durable in SQLite, and only then is the state advanced, the
action acknowledged and every phone told. The state is always the fold of the active events.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

from companion import games as games_mod
from companion.games import Actor, BadAction, NotAllowed, RuleError
from companion.store import Event, EventStore, GameRow

log = logging.getLogger(__name__)

JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read aloud and type
FRAMEWORK_ACTIONS = ("undo",)


@dataclass
class _Live:
    """The cached state of one game and the condition its live channels wait on."""

    rules: Any
    state: dict
    events: list[Event]
    undone: set[int]
    version: int
    cond: threading.Condition = field(default_factory=threading.Condition)
    lock: threading.Lock = field(default_factory=threading.Lock)


Listener = Callable[[str, Event, dict], None]
# A resolver completes an action from the devices before the rules see it, e.g. a "draw" in
# real-bag mode becomes "draw this token" after the camera has read it: (game_id, state, action, actor) -> action
Resolver = Callable[[str, dict, dict, Actor], dict]


class Table:
    """Every game of this companion, backed by one :class:`EventStore`."""

    def __init__(self, store: EventStore, rng: random.Random | None = None) -> None:
        self.store = store
        self.rng = rng or random.SystemRandom()  # unbiased, seeded from the OS
        self._live: dict[str, _Live] = {}
        self._guard = threading.Lock()
        self._listeners: list[Listener] = []
        self._created_listeners: list[Callable[[str, str], None]] = []
        self._resolvers: dict[str, list[Resolver]] = {}
        self._option_defaults: list[Callable[[str], dict]] = []
        self.closing = threading.Event()  # set when the server stops: live channels end
        self.active_game: str | None = None
        running = [g for g in store.games() if g.status == "running"]
        if running:
            self.active_game = running[0].id

    # -- listeners -----------------------------------------------------------------------------
    def subscribe(self, fn: Listener) -> None:
        """``fn(game_id, event, view)`` after every durable event (for speakers, LEDs, logs)."""
        self._listeners.append(fn)

    def on_created(self, fn: Callable[[str, str], None]) -> None:
        """``fn(game_id, game)`` once a new game is on the table, before its first action (the
        camera switches to that game's dice set while the players sit down)."""
        self._created_listeners.append(fn)

    def add_resolver(self, game: str, fn: Resolver) -> None:
        """Runs ``fn`` on every action of ``game`` before the rules decide (device input: camera reads)."""
        self._resolvers.setdefault(game, []).append(fn)

    def add_option_defaults(self, fn: Callable[[str], dict]) -> None:
        """``fn(game)`` gives default options for new games (e.g. the host's edition data);
        options sent with the request win."""
        self._option_defaults.append(fn)

    # -- games -----------------------------------------------------------------------------------
    def create_game(self, game: str, players: list, options: dict | None = None, lang: str = "el") -> dict:
        rules = games_mod.load(game)
        lo, hi = getattr(rules, "MIN_PLAYERS", 1), getattr(rules, "MAX_PLAYERS", 8)
        if (
            not isinstance(players, list)
            or not lo <= len(players) <= hi
            or not all(isinstance(p, str) and p.strip() and len(p) <= 40 for p in players)
            or len({p.strip() for p in players}) != len(players)
        ):
            raise BadAction("err.players", min=lo, max=hi)
        players = [p.strip() for p in players]
        options = options or {}
        if not isinstance(options, dict):
            raise BadAction("err.bad_field", field="options", why="it must be an object")
        for defaults in self._option_defaults:
            try:
                options = {**defaults(game), **options}
            except Exception:  # a broken edition override must not stop a game from starting
                log.exception("option defaults for %s ignored", game)
        state = rules.setup(players, options)  # validates the options
        now = time.time()
        row = GameRow(
            id=uuid.uuid4().hex[:10], game=game, created=now, updated=now, status="running",
            players=players, lang=lang, host_token=secrets.token_urlsafe(18), join_code=self._new_code(),
        )
        self.store.create_game(row, {"type": "setup", "players": players, "options": options},
                               {"role": "host", "seat": None})
        with self._guard:
            self._live[row.id] = _Live(rules, state, self.store.events(row.id), set(), 0)
        self.active_game = row.id
        for fn in list(self._created_listeners):
            try:
                fn(row.id, game)
            except Exception:  # the game is created whatever a listener does
                log.exception("game-created listener failed")
        return {"id": row.id, "host_token": row.host_token, "join_code": row.join_code}

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(5))
            if self.store.game_by_code(code) is None:
                return code

    def row(self, game_id: str) -> GameRow:
        row = self.store.game(game_id)
        if row is None:
            raise LookupError(game_id)
        return row

    def list_games(self) -> list[dict]:
        return [
            {"id": g.id, "game": g.game, "players": g.players, "status": g.status,
             "created": g.created, "updated": g.updated}
            for g in self.store.games()
        ]

    # -- state -------------------------------------------------------------------------------------
    def _load(self, game_id: str) -> _Live:
        with self._guard:
            live = self._live.get(game_id)
            if live is not None:
                return live
            row = self.row(game_id)
            rules = games_mod.load(row.game)
            events = self.store.events(game_id)
            live = _Live(rules, {}, events, set(), 0)
            self._rebuild(live)
            self._live[game_id] = live
            return live

    @staticmethod
    def _rebuild(live: _Live) -> None:
        """Folds the active events into the state (undone events and undos are skipped)."""
        undone = {e.payload["target"] for e in live.events if e.type == "undo"}
        setup = live.events[0]
        state = live.rules.setup(setup.payload["players"], setup.payload["options"])
        for ev in live.events[1:]:
            if ev.type == "undo" or ev.seq in undone:
                continue
            state = live.rules.apply(state, {"type": ev.type, **ev.payload})
        live.state, live.undone, live.version = state, undone, live.events[-1].seq

    def state(self, game_id: str) -> dict:
        return self._load(game_id).state

    def view(self, game_id: str) -> dict:
        """The public state, with the table's own bookkeeping around the game's view."""
        live = self._load(game_id)
        row = self.row(game_id)
        seats = self.store.seats(game_id)
        last = self._last_active(live)
        return {
            "id": game_id,
            "game": row.game,
            "status": row.status,
            "lang": row.lang,
            "version": live.version,
            "players": row.players,
            "seats": [{"seat": i, "name": p, "claimed": i in seats} for i, p in enumerate(row.players)],
            "last_action": self._describe(last) if last else None,
            **live.rules.view(live.state),
        }

    @staticmethod
    def _describe(ev: Event) -> dict:
        return {"seq": ev.seq, "type": ev.type, "actor": ev.actor}

    @staticmethod
    def _last_active(live: _Live) -> Event | None:
        for ev in reversed(live.events[1:]):
            if ev.type != "undo" and ev.seq not in live.undone:
                return ev
        return None

    def legal_actions(self, game_id: str, actor: Actor) -> list[str]:
        live = self._load(game_id)
        acts = list(live.rules.legal_actions(live.state, actor))
        if actor.role != "spectator" and self._last_active(live) is not None:
            acts.append("undo")
        return acts

    def events(self, game_id: str) -> list[dict]:
        live = self._load(game_id)
        out = []
        for ev in live.events:
            item = ev.to_json()
            item["undone"] = ev.seq in live.undone
            out.append(item)
        return out

    # -- actors ------------------------------------------------------------------------------------
    def actor_for(self, game_id: str, token: str | None) -> Actor:
        row = self.row(game_id)
        if not token:
            raise NotAllowed("err.no_token")
        if secrets.compare_digest(token, row.host_token):
            return Actor("host")
        for seat, seat_token in self.store.seats(game_id).items():
            if secrets.compare_digest(token, seat_token):
                return Actor("player", seat)
        raise NotAllowed("err.bad_token")

    def claim_seat(self, code: str, seat: Any, game_id: str | None = None) -> dict:
        row = self.store.game_by_code(str(code or "").strip())
        if row is None or (game_id and row.id != game_id):
            raise NotAllowed("err.bad_code")
        if seat is None:  # a spectator: no token, read-only
            return {"id": row.id, "role": "spectator", "seat": None, "token": None}
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(row.players):
            raise BadAction("err.bad_seat", seat=seat)
        token = secrets.token_urlsafe(18)
        if not self.store.claim_seat(row.id, seat, token):
            raise RuleError("err.seat_taken", seat=row.players[seat])
        self._notify_meta(row.id)
        return {"id": row.id, "role": "player", "seat": seat, "name": row.players[seat], "token": token}

    def free_seat(self, game_id: str, actor: Actor, seat: int) -> None:
        if not actor.is_host:
            raise NotAllowed("err.not_host")
        self.store.free_seat(game_id, seat)
        self._notify_meta(game_id)

    def _notify_meta(self, game_id: str) -> None:
        live = self._load(game_id)
        with live.cond:
            live.cond.notify_all()

    # -- actions -----------------------------------------------------------------------------------
    def act(self, game_id: str, actor: Actor, action: Any) -> dict:
        """Validates and applies one action; returns the new public state once the event is durable."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise BadAction("err.bad_json")
        if actor.role == "spectator":
            raise NotAllowed("err.spectator")
        live = self._load(game_id)
        row = self.row(game_id)
        if row.status != "running" and action["type"] != "undo":
            raise RuleError("err.game_over")
        for resolve in self._resolvers.get(row.game, []):
            action = resolve(game_id, live.state, action, actor)
        with live.lock:
            if action["type"] == "undo":
                event = self._decide_undo(live, actor, row)
            else:
                event = live.rules.decide(live.state, action, actor, self.rng)
                new_state = live.rules.apply(live.state, event)  # fails before anything is written
            ev = self.store.append(game_id, actor.to_json(), event)  # durable from here on
            live.events.append(ev)
            if event["type"] == "undo":
                self._rebuild(live)
            else:
                live.state, live.version = new_state, ev.seq
            finished = bool(live.state.get("finished"))
            if finished != (row.status == "finished"):
                self.store.set_status(game_id, "finished" if finished else "running")
        self.active_game = game_id
        with live.cond:
            live.cond.notify_all()
        view = self.view(game_id)
        for fn in list(self._listeners):
            try:
                fn(game_id, ev, view)
            except Exception:  # a broken speaker must not lose an action
                log.exception("listener failed")
        return view

    def _decide_undo(self, live: _Live, actor: Actor, row: GameRow) -> dict:
        last = self._last_active(live)
        if last is None:
            raise RuleError("err.nothing_to_undo")
        if actor.role == "device":
            undoable = getattr(live.rules, "undoable", lambda e: True)
            if not undoable({"type": last.type, **last.payload}):
                raise NotAllowed("err.not_host")
        elif not actor.is_host and (last.actor.get("role") != "player" or last.actor.get("seat") != actor.seat):
            who_seat = last.actor.get("seat")
            who = row.players[who_seat] if who_seat is not None else "@actor." + last.actor["role"]
            raise NotAllowed("err.undo_not_yours", who=who)
        return {"type": "undo", "target": last.seq, "undone_type": last.type}

    # -- live channel ------------------------------------------------------------------------------
    def wait(self, game_id: str, seen: int | None, timeout: float) -> None:
        """Blocks until the game changes (or ``timeout``); ``seen`` is a token from :meth:`stamp`."""
        live = self._load(game_id)
        with live.cond:
            if not self.closing.is_set() and (seen is None or seen == self.stamp(game_id)):
                live.cond.wait(timeout)

    def close_channels(self) -> None:
        """Ends every live channel at once (the server is stopping): waiters wake and see ``closing``."""
        self.closing.set()
        with self._guard:
            lives = list(self._live.values())
        for live in lives:
            with live.cond:
                live.cond.notify_all()

    def stamp(self, game_id: str) -> int:
        """A number that changes whenever the game or its seats change."""
        live = self._load(game_id)
        return hash((live.version, tuple(sorted(self.store.seats(game_id)))))
