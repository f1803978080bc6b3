"""Game rules: one module per game, pure functions over plain JSON-able data.

Every game module exposes the same small surface (see :class:`GameRules`)::

    state = setup(players, options)                 # the opening position
    event = decide(state, action, actor, rng)       # validate an action, resolve its randomness
    state = apply(state, event)                     # pure and deterministic: replaying events rebuilds a game
    view(state)                                     # the public state a spectator may see
    legal_actions(state, actor)                     # the action types this actor may send now

``decide`` raises :class:`RuleError` (the action breaks a rule) or :class:`NotAllowed` (this actor
may not do it). Both carry a message key from the game's message catalogue and its parameters, so
the phone can show the sentence in Greek or English.  Rules never import Flask, OpenCV or gpiozero.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol


class RuleError(ValueError):
    """An action that breaks a rule. ``key`` names a sentence in the message catalogue."""

    status = 409

    def __init__(self, key: str, /, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(key)

    def __str__(self) -> str:  # English sentence, for logs and tracebacks
        from companion.i18n import t

        return t("en", self.key, **self.params)


class NotAllowed(RuleError):
    """The actor's role or seat does not permit this action."""

    status = 403


class BadAction(RuleError):
    """The action is malformed: missing field, wrong type, unknown action type."""

    status = 400


@dataclass(frozen=True)
class Actor:
    """Who sends an action: the host, a seated player, a spectator, or a device at the table."""

    role: str  # "host" | "player" | "spectator" | "device"
    seat: int | None = None

    @property
    def is_host(self) -> bool:
        return self.role == "host"

    def to_json(self) -> dict:
        return {"role": self.role, "seat": self.seat}

    @classmethod
    def from_json(cls, data: dict) -> Actor:
        return cls(role=data["role"], seat=data.get("seat"))


class GameRules(Protocol):
    NAME: str

    def setup(self, players: list[str], options: dict) -> dict: ...

    def decide(self, state: dict, action: dict, actor: Actor, rng: random.Random) -> dict: ...

    def apply(self, state: dict, event: dict) -> dict: ...

    def view(self, state: dict) -> dict: ...

    def legal_actions(self, state: dict, actor: Actor) -> list[str]: ...


GAMES = {
    "augustus": "companion.games.augustus",
    "castle-dice": "companion.games.castle_dice",
}


def available() -> list[str]:
    """Names of the games whose rules module can be imported."""
    names = []
    for name in GAMES:
        try:
            load(name)
        except ImportError:
            continue
        names.append(name)
    return names


def load(name: str) -> ModuleType:
    """The rules module of a game, by its public name ("augustus", "castle-dice")."""
    if name not in GAMES:
        raise BadAction("err.unknown_game", game=name, known=", ".join(GAMES))
    return importlib.import_module(GAMES[name])
