"""Augustus: the herald and the bag of mobilisation tokens (rules digest §1.1, §3.2, §7.1).

Pure functions over plain data. The bag holds tokens by id; drawn tokens stay out until a joker is
drawn, then every token goes back and the herald passes to the next player in seat order.

>>> import random
>>> s = setup(["Ana", "Ben"], {"bag": {"swords": 1, "joker": 1}})
>>> s = apply(s, {"type": "draw", "token": "swords"})
>>> s["bag"], s["drawn"], s["herald"]
({'swords': 0, 'joker': 1}, ['swords'], 0)
>>> s = apply(s, {"type": "draw", "token": "joker"})
>>> s["bag"], s["drawn"], s["herald"]
({'swords': 1, 'joker': 1}, [], 1)
"""

from __future__ import annotations

import copy
import random
import tomllib
from pathlib import Path

from companion.games import Actor, BadAction, NotAllowed, RuleError
from companion.i18n import both

NAME = "augustus"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
TOKENS = ("swords", "shield", "chariot", "catapult", "standard", "dagger", "joker")
JOKER = "joker"
EDITION_FILE = Path(__file__).with_suffix(".toml")
ACTIONS = ("draw", "token_unsure", "confirm_token", "dismiss_pending")


def edition(path: Path | None = None) -> dict:
    """The edition data: ``{"tokens": {id: {"count": n, "provenance": "..."}}}``."""
    with (path or EDITION_FILE).open("rb") as fh:
        return tomllib.load(fh)


def default_bag() -> dict[str, int]:
    return {tok: int(spec["count"]) for tok, spec in edition()["tokens"].items()}


def _check_bag(bag: object) -> dict[str, int]:
    if not isinstance(bag, dict) or not bag:
        raise BadAction("augustus.err.bad_bag")
    clean: dict[str, int] = {}
    for tok, count in bag.items():
        if not isinstance(tok, str) or isinstance(count, bool) or not isinstance(count, int):
            raise BadAction("augustus.err.bad_bag")
        if not 0 <= count <= 30:
            raise BadAction("augustus.err.bad_bag")
        clean[tok] = count
    if clean.get(JOKER, 0) < 1:
        raise BadAction("augustus.err.bad_bag")
    return clean


def setup(players: list[str], options: dict) -> dict:
    """The opening state. ``options``: ``bag`` (counts per token id), ``herald`` (first herald's
    seat or name; default seat 0, who should be the oldest player), ``mode`` ("virtual" or "real")."""
    bag = _check_bag(options["bag"] if options.get("bag") is not None else default_bag())
    herald = options.get("herald", 0)
    if isinstance(herald, str):
        if herald not in players:
            raise BadAction("augustus.err.bad_herald")
        herald = players.index(herald)
    if isinstance(herald, bool) or not isinstance(herald, int) or not 0 <= herald < len(players):
        raise BadAction("augustus.err.bad_herald")
    return {
        "game": NAME,
        "players": list(players),
        "full_bag": dict(bag),
        "bag": dict(bag),
        "drawn": [],
        "previous_cycle": [],
        "last": None,
        "herald": herald,
        "draws": 0,
        "cycles": 0,
        "herald_draws": [0] * len(players),
        "mode": "real" if options.get("mode") == "real" else "virtual",
        "pending": None,
    }


def _may_draw(state: dict, actor: Actor) -> None:
    if actor.role in ("host", "device"):
        return
    if actor.role == "player" and actor.seat == state["herald"]:
        return
    raise NotAllowed("augustus.err.not_herald", herald=state["players"][state["herald"]])


def _known_token(state: dict, token: object) -> str:
    if not isinstance(token, str) or token not in state["full_bag"]:
        raise BadAction("augustus.err.unknown_token", token=token, known=", ".join(state["full_bag"]))
    return token


def decide(state: dict, action: dict, actor: Actor, rng: random.Random) -> dict:
    """Turn an action into an event, drawing from the bag with ``rng`` when the draw is virtual."""
    kind = action.get("type")
    if kind == "draw":
        _may_draw(state, actor)
        token = action.get("token")
        if token is None:  # a virtual draw: every token in the bag is equally likely
            pool = [tok for tok, n in state["bag"].items() for _ in range(n)]
            if not pool:
                raise RuleError("augustus.err.bag_empty")
            token = rng.choice(pool)
        else:  # a physical token, read by the camera or told by the herald
            token = _known_token(state, token)
            if state["bag"].get(token, 0) < 1:
                raise RuleError("augustus.err.not_in_bag", token="@augustus.token." + token)
        source = action.get("source", "virtual" if action.get("token") is None else "manual")
        return {"type": "draw", "token": token, "source": str(source)[:20]}
    if kind == "token_unsure":  # the camera saw something it cannot vouch for
        _may_draw(state, actor)
        read = action.get("read")
        if read is not None:
            read = _known_token(state, read)
        return {"type": "token_unsure", "read": read, "reason": str(action.get("reason", ""))[:200]}
    if kind == "confirm_token":
        _may_draw(state, actor)
        if state["pending"] is None:
            raise RuleError("augustus.err.nothing_pending")
        token = _known_token(state, action.get("token"))
        if state["bag"].get(token, 0) < 1:
            raise RuleError("augustus.err.not_in_bag", token="@augustus.token." + token)
        return {"type": "draw", "token": token, "source": "confirmed"}
    if kind == "dismiss_pending":
        _may_draw(state, actor)
        if state["pending"] is None:
            raise RuleError("augustus.err.nothing_pending")
        return {"type": "dismiss_pending"}
    raise BadAction("err.unknown_action", type=kind, game=NAME, known=", ".join(ACTIONS))


def apply(state: dict, event: dict) -> dict:
    """The state after ``event``. Pure: the input is not changed."""
    s = copy.deepcopy(state)
    kind = event["type"]
    if kind == "draw":
        token = event["token"]
        s["bag"][token] -= 1
        s["drawn"].append(token)
        s["last"] = token
        s["draws"] += 1
        s["herald_draws"][s["herald"]] += 1
        s["pending"] = None
        if token == JOKER:  # every token goes back; the herald passes to the left
            s["previous_cycle"] = s["drawn"]
            s["drawn"] = []
            s["bag"] = dict(s["full_bag"])
            s["cycles"] += 1
            s["herald"] = (s["herald"] + 1) % len(s["players"])
    elif kind == "token_unsure":
        s["pending"] = {"read": event.get("read"), "reason": event.get("reason", "")}
    elif kind == "dismiss_pending":
        s["pending"] = None
    else:
        raise ValueError(f"unknown event {kind!r}")
    return s


def odds(state: dict) -> dict[str, float]:
    """The chance of each token on the next draw."""
    total = sum(state["bag"].values())
    return {tok: (n / total if total else 0.0) for tok, n in state["bag"].items()}


def call(state: dict) -> dict | None:
    """What the herald says aloud about the last draw, in every language."""
    last = state["last"]
    if last is None:
        return None
    if last == JOKER:
        return both("augustus.call.joker", herald=state["players"][state["herald"]])
    return both("augustus.call", token="@augustus.token." + last)


def view(state: dict) -> dict:
    """The public state: what every phone at the table may see."""
    return {
        "game": NAME,
        "players": state["players"],
        "herald": {
            "bag": dict(state["bag"]),
            "drawn": list(state["drawn"]),
            "previous_cycle": list(state["previous_cycle"]),
            "last": state["last"],
            "herald": state["players"][state["herald"]],
            "herald_seat": state["herald"],
            "draws": state["draws"],
            "cycles": state["cycles"],
            "herald_draws": list(state["herald_draws"]),
            "full_bag": dict(state["full_bag"]),
            "mode": state["mode"],
            "pending": state["pending"],
        },
        "odds": odds(state),
        "call": call(state),
        "tokens": {tok: both("augustus.token." + tok) for tok in state["full_bag"]},
    }


def legal_actions(state: dict, actor: Actor) -> list[str]:
    try:
        _may_draw(state, actor)
    except NotAllowed:
        return []
    acts = ["draw"]
    if state["pending"] is not None:
        acts += ["confirm_token", "dismiss_pending"]
    return acts


def undoable(event: dict) -> bool:
    """Which events the table's hold-to-undo button may take back."""
    return event["type"] == "draw"
