"""The event log: one SQLite file, append-only, durable before anything is acknowledged.

WAL journal with ``synchronous=FULL``: when :meth:`EventStore.append` returns, the event survives a
power cut. Nothing is ever updated or deleted in ``events``; an undo is an event of its own.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'running',
    players TEXT NOT NULL,
    lang TEXT NOT NULL,
    host_token TEXT NOT NULL,
    join_code TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    token TEXT NOT NULL UNIQUE,
    claimed REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    ts REAL NOT NULL,
    actor TEXT NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


@dataclass(frozen=True)
class Event:
    seq: int
    ts: float
    actor: dict
    type: str
    payload: dict

    def to_json(self) -> dict:
        return {"seq": self.seq, "ts": self.ts, "actor": self.actor, "type": self.type, **self.payload}


@dataclass(frozen=True)
class GameRow:
    id: str
    game: str
    created: float
    updated: float
    status: str
    players: list[str]
    lang: str
    host_token: str
    join_code: str


class EventStore:
    """All games of one companion, in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- games -------------------------------------------------------------------------------
    def create_game(self, row: GameRow, setup_event: dict, actor: dict) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?)",
                    (row.id, row.game, row.created, row.updated, row.status,
                     json.dumps(row.players, ensure_ascii=False), row.lang, row.host_token, row.join_code),
                )
                self._insert_event(row.id, 0, actor, setup_event)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def games(self) -> list[GameRow]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM games ORDER BY updated DESC").fetchall()
        return [self._game_row(r) for r in rows]

    def game(self, game_id: str) -> GameRow | None:
        with self._lock:
            r = self._db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        return self._game_row(r) if r else None

    def game_by_code(self, code: str) -> GameRow | None:
        with self._lock:
            r = self._db.execute("SELECT * FROM games WHERE join_code=?", (code.upper(),)).fetchone()
        return self._game_row(r) if r else None

    def set_status(self, game_id: str, status: str) -> None:
        with self._lock:
            self._db.execute("UPDATE games SET status=?, updated=? WHERE id=?", (status, time.time(), game_id))

    @staticmethod
    def _game_row(r: tuple) -> GameRow:
        return GameRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7], r[8])

    # -- seats -------------------------------------------------------------------------------
    def claim_seat(self, game_id: str, seat: int, token: str) -> bool:
        """Gives ``seat`` the ``token``; False when the seat is already taken."""
        with self._lock:
            try:
                self._db.execute("INSERT INTO seats VALUES (?,?,?,?)", (game_id, seat, token, time.time()))
            except sqlite3.IntegrityError:
                return False
        return True

    def free_seat(self, game_id: str, seat: int) -> None:
        with self._lock:
            self._db.execute("DELETE FROM seats WHERE game_id=? AND seat=?", (game_id, seat))

    def seats(self, game_id: str) -> dict[int, str]:
        with self._lock:
            rows = self._db.execute("SELECT seat, token FROM seats WHERE game_id=?", (game_id,)).fetchall()
        return {seat: token for seat, token in rows}

    # -- events ------------------------------------------------------------------------------
    def append(self, game_id: str, actor: dict, event: dict) -> Event:
        """Appends ``event`` and returns once it is on disk (fsync by SQLite, synchronous=FULL)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                (last,) = self._db.execute(
                    "SELECT COALESCE(MAX(seq), -1) FROM events WHERE game_id=?", (game_id,)
                ).fetchone()
                ev = self._insert_event(game_id, last + 1, actor, event)
                self._db.execute("UPDATE games SET updated=? WHERE id=?", (ev.ts, game_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return ev

    def _insert_event(self, game_id: str, seq: int, actor: dict, event: dict) -> Event:
        payload = {k: v for k, v in event.items() if k != "type"}
        ev = Event(seq, time.time(), actor, event["type"], payload)
        self._db.execute(
            "INSERT INTO events VALUES (?,?,?,?,?,?)",
            (game_id, ev.seq, ev.ts, json.dumps(actor), ev.type, json.dumps(payload, ensure_ascii=False)),
        )
        return ev

    def events(self, game_id: str, after: int = -1) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, ts, actor, type, payload FROM events WHERE game_id=? AND seq>? ORDER BY seq",
                (game_id, after),
            ).fetchall()
        return [Event(s, ts, json.loads(a), ty, json.loads(p)) for s, ts, a, ty, p in rows]
