"""Castle Dice: the whole game, 1 to 4 players, 7 rounds of 10 steps (rules digest §3–§6).

Pure functions over plain JSON-able dicts; no Flask, OpenCV or gpiozero. ``decide`` validates an
action and resolves every random thing (virtual rolls, the solo die) into the event; ``apply`` is
pure and deterministic, so replaying the event log rebuilds the game (and the table's undo works).

The state follows the round (§3)::

    first_player (round 1 only) -> draw -> choose_dice (+ cow "Villager Choice") -> roll -> gather
    -> market -> workers (automatic) -> merchants -> build -> raid (automatic) -> next round

Dice are conserved: ``bank + pools + supply + camps == edition total`` at every moment.
After round 7 comes ``scoring`` (the players reveal their Bards), then the game is finished.

Readings of the digest's uncertainties (§8) taken here:

* overflow above 9 is lost when gained, with a notice (#9); tie-break: iron, then land, gold, stone,
  wood, else a shared win (#10, option ``tie_break``); one merchant = one step up, chains allowed (#11);
* the farmer bonus is offered on each animal gather until used once in the round, Pork Chops
  included; 3 farmers replace the gathered animal by any 2 (#12, #13); Pork Chops sets a die to any
  of its own faces, then that player stops gathering; the Daughter's does the same (#14);
* a hand over the limit must discard down to it (#16); Bards are revealed in a final scoring step
  (#17); majorities are totals of all animals / all villagers (#18); Villager Choice removes the
  worker of the rarest slot (#19);
* Lakis gets the round's fixed dice, the solo die replaces his extra-dice choices (#21); ties of his
  priority go to the rarest (#22); his fallback is the rarest type among dice showing 2+, else the
  rarest single (#23); one Market card per feast round, his animals kept (#24); his animals count in
  every majority (he uses only the horse), he has no villagers, his resources are not tracked (#25);
* animal tokens are not counted unless the ``animal_tokens`` option gives the split (then the FAQ
  steal applies); not modelled: card abilities other than Royal Chambers (use ``adjust``), the
  Daughter's Villager Choice.

Actions (``{"type": ...}``; a player acts for their own seat, the host and the table for anyone):

============== ==========================================================================
first_roll     round 1: ``faces`` (two wood faces) or ``wood`` (total); none = virtual roll
set_first      host: ``seat`` goes first (skips the wood roll)
draw_cards     ``discard``, ``castle``, ``village``: the hand must then hold 5 (6: chicken power)
choose_dice    ``dice`` {type: n}: exactly the round's extra dice (+1 per Royal Chambers)
bot_choose     Lakis's extra dice: ``solo`` [solo-die faces] or none = rolled virtually
villager_choice cow power: ``from``, ``to`` (+ ``resource`` for a new guard)
roll           ``seat``, ``dice`` [{type, face|None}] or ``faces``; none = virtual roll
correct_die    ``die``, ``face``: confirm or correct a reading (a barbarian moves to the camp)
take           ``die`` (or ``type`` + ``face``): the pick of whoever's turn it is
pork_chops     ``die``, ``face``, ``source`` pig|daughter: set a die's face, take it, stop gathering
farmer_bonus   ``animals``: 1 farmer: none; 2: one kind; 3: two kinds (replacing the gathered one)
sell_sets      ``sets``: animal sets for Market cards (feast rounds do it automatically)
bards          ``count``: how many of a player's Market cards are Bards
upgrade        ``from``: merchant work, one step rarer, once per merchant
build          ``card`` (+ ``resource`` for a guard; ``define`` {...} enters a new card once)
card_edit      ``id`` + card fields: add or edit an entry of the game's card table
adjust         ``seat``, ``field``, ``key``, ``value``: a hand correction of a board
skip           decline the farmer bonus / the Villager Choice
done, next     the one-tap end of what the step waits for (the table's buttons send ``next``)
============== ==========================================================================

>>> s = setup(["Ana", "Ben"], {"first_player": 0})
>>> s["step"], s["round"], s["order"]
('draw', 1, [0, 1])
>>> gain("wood2"), gain("pig"), gain("barbarian")
(('wood', 2), ('pig', 1), ('barbarian', 0))
>>> raid_losses({"wood": 3, "stone": 0, "gold": 5, "land": 4, "iron": 1}, ["land"], 2)
{'wood': 2, 'stone': 0, 'gold': 2, 'land': 0, 'iron': 1}
"""

from __future__ import annotations

import copy
import random
import re
import tomllib
from pathlib import Path
from typing import Any

from companion.games import Actor, BadAction, NotAllowed, RuleError
from companion.i18n import both

NAME = "castle-dice"
MIN_PLAYERS, MAX_PLAYERS = 1, 4
EDITION_FILE = Path(__file__).with_suffix(".toml")

RES = ("wood", "stone", "gold", "land", "iron")  # common -> rare (§1.4)
ANIMALS = ("horse", "pig", "cow", "chicken")
VILLAGERS = ("worker", "farmer", "merchant", "guard")
STEPS = ("first_player", "draw", "choose_dice", "roll", "gather", "market", "workers", "merchants",
         "build", "raid")
SEQUENTIAL = ("first_player", "draw", "choose_dice", "gather", "market")
BOT_NAME = "Lakis"
BOT_ANIMAL_ORDER = ("pig", "horse", "chicken", "cow")  # §2.3 after "completes a set"
TIE_BREAK = ("iron", "land", "gold", "stone", "wood")  # iron [SEED]; the rest [INF] §8 #10
CARD_EFFECTS = ("castle_part", "extra_die", "villager", "stays", "action")
CARD_DECKS = ("castle", "village", "market")
CARD_PHASES = ("choose", "gather", "build")
ACTIONS = ("first_roll", "set_first", "draw_cards", "choose_dice", "bot_choose", "villager_choice",
           "roll", "correct_die", "take", "pork_chops", "farmer_bonus", "skip", "sell_sets", "bards",
           "upgrade", "build", "card_edit", "adjust", "done", "next")
_FACE_RE = re.compile(r"(wood|stone|gold|land|iron)([1-9])")


# -- edition data ----------------------------------------------------------------------------------
def edition(path: Path | None = None) -> dict:
    """The edition data from the TOML file beside this module."""
    with (path or EDITION_FILE).open("rb") as fh:
        return tomllib.load(fh)


def gain(face: str) -> tuple[str, int]:
    """What a die face gives: ``(resource, quantity)``, ``(animal, 1)`` or ``("barbarian", 0)``."""
    if face == "barbarian":
        return ("barbarian", 0)
    if face in ANIMALS:
        return (face, 1)
    m = _FACE_RE.fullmatch(face)
    if not m:
        raise ValueError(face)
    return (m.group(1), int(m.group(2)))


def raid_losses(res: dict, guards: list, barbarians: int) -> dict:
    """Each unguarded resource loses min(current, barbarians); guarded ones lose nothing (§5)."""
    return {r: 0 if r in guards else min(res[r], barbarians) for r in RES}


def _bad(field: str, why: str) -> BadAction:
    return BadAction("err.bad_field", field=field, why=why)


def _int(value: Any, field: str, lo: int = 0, hi: int = 99) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _bad(field, f"a whole number from {lo} to {hi}")
    return value


def _clean_card(cid: str, spec: Any) -> dict:
    """Validates one card-table entry (from the TOML, an option or the phone)."""
    if not isinstance(cid, str) or not re.fullmatch(r"[a-z0-9_]{1,40}", cid):
        raise _bad("card", "card ids are 1-40 lowercase letters, digits or _")
    if not isinstance(spec, dict):
        raise _bad("card", "a card must be an object")
    name = spec.get("name", cid.replace("_", " ").title())
    if isinstance(name, str):
        name = {"en": name, "el": name}
    if not isinstance(name, dict) or not all(isinstance(name.get(k), str) and name.get(k) for k in ("en", "el")):
        raise _bad("name", "a name (text) or an object with 'en' and 'el'")
    cost = spec.get("cost", {}) or {}
    if not isinstance(cost, dict) or any(r not in RES for r in cost):
        raise _bad("cost", "an object of resource: amount (wood, stone, gold, land, iron)")
    cost = {r: _int(cost[r], "cost", 0, 9) for r in RES if cost.get(r)}
    effect = spec.get("effect", "castle_part")
    if effect not in CARD_EFFECTS:
        raise _bad("effect", "one of " + ", ".join(CARD_EFFECTS))
    deck = spec.get("deck", "castle")
    if deck not in CARD_DECKS:
        raise _bad("deck", "one of " + ", ".join(CARD_DECKS))
    phase = spec.get("phase", "build")
    if phase not in CARD_PHASES:
        raise _bad("phase", "one of " + ", ".join(CARD_PHASES))
    out = {"name": {"en": name["en"][:40], "el": name["el"][:40]}, "deck": deck, "cost": cost,
           "vp": _int(spec.get("vp", 0), "vp", -5, 20), "phase": phase, "effect": effect,
           "provenance": str(spec.get("provenance", "entered at the table"))[:200]}
    if effect == "villager":
        if spec.get("villager") not in VILLAGERS:
            raise _bad("villager", "one of " + ", ".join(VILLAGERS))
        out["villager"] = spec["villager"]
    return out


def _edition_state(options: dict) -> dict:
    """The compact edition data a game keeps in its state (defaults + per-game overrides)."""
    ed = edition()
    over = options.get("edition") or {}
    if not isinstance(over, dict):
        raise _bad("edition", "an object")
    dice = {}
    for typ in RES:
        spec = dict(ed["dice"][typ])
        spec.update((over.get("dice") or {}).get(typ) or {})
        faces = spec["faces"]
        if not isinstance(faces, list) or len(faces) != 6:
            raise _bad("edition.dice", "each die needs 6 faces")
        for f in faces:
            try:
                kind, _ = gain(f)
            except (ValueError, TypeError):
                raise _bad("edition.dice", f"unknown face {f!r}") from None
            if kind in RES and kind != typ:
                raise _bad("edition.dice", f"a {typ} die cannot show {f}")
        dice[typ] = {"count": _int(spec["count"], "edition.dice.count", 0, 40), "faces": list(faces)}
    rounds = {}
    for rnd in range(1, 8):
        spec = dict(ed["rounds"][str(rnd)])
        spec.update((over.get("rounds") or {}).get(str(rnd)) or {})
        fixed = {t: _int(n, "edition.rounds.fixed", 0, 9) for t, n in (spec.get("fixed") or {}).items()
                 if t in RES and n}
        rounds[str(rnd)] = {"fixed": fixed, "extra": _int(spec["extra"], "edition.rounds.extra", 0, 9)}
    solo_faces = list(over.get("solo_faces") or ed["solo_die"]["faces"])
    if not all(f in RES or f == "barn" for f in solo_faces) or not any(f in RES for f in solo_faces):
        raise _bad("edition.solo_faces", "resources and 'barn'")
    feast = over.get("feast_rounds", ed["limits"]["feast_rounds"])
    return {"dice": dice, "rounds": rounds, "solo_faces": solo_faces,
            "feast_rounds": [int(r) for r in feast],
            "res_max": int(ed["limits"]["resource_max"]),
            "hand": int(ed["limits"]["hand_limit"]), "hand_chicken": int(ed["limits"]["hand_limit_chicken"]),
            "caps": {v: int(ed["limits"]["villagers"][v]) for v in VILLAGERS},
            "total": sum(d["count"] for d in dice.values())}


# -- setup -----------------------------------------------------------------------------------------
def _board(name: str, bot: bool = False) -> dict:
    return {"name": name, "bot": bot, "res": {r: 0 for r in RES}, "animals": {a: 0 for a in ANIMALS},
            "villagers": {"worker": 0, "farmer": 0, "merchant": 0}, "guards": [], "hand": 0,
            "market_cards": 0, "bards": 0, "built": [], "played": [], "pool": {},
            "rolled": False, "done": False, "pork_out": False, "farmer_used": False,
            "merchants_used": 0, "first_roll": None, "priority": None, "bot_choices": []}


def setup(players: list[str], options: dict) -> dict:
    """The opening state. ``options``: ``first_player`` (seat or name; skips the round-1 wood roll),
    ``solo`` (default: on with one player), ``edition`` (overrides: ``dice``, ``rounds``,
    ``solo_faces``, ``feast_rounds``), ``cards`` (card-table overrides by id), ``solo_thresholds``
    (the 4 VP limits between the 5 solo results), ``tie_break`` (resources after iron),
    ``virtual_dice`` (the table's button may roll virtually; default off: real dice in the tray),
    ``animal_tokens`` ({kind: count}: count the animal tokens, so that an exhausted kind is taken from
    an opponent [SEED FAQ]; default: not counted, the split of the 100 tokens is not in the seed)."""
    ed = _edition_state(options)
    cards = {cid: _clean_card(cid, spec) for cid, spec in edition()["cards"].items()}
    over = options.get("cards") or {}
    if not isinstance(over, dict):
        raise _bad("cards", "an object of card id: card")
    for cid, spec in over.items():
        cards[cid] = _clean_card(cid, {**cards.get(cid, {}), **spec} if isinstance(spec, dict) else spec)
    solo = bool(options.get("solo", len(players) == 1))
    if solo and len(players) != 1:
        raise _bad("solo", "solo mode is for one player against Lakis")
    boards = [_board(p) for p in players]
    if solo:
        boards.append(_board(BOT_NAME, bot=True))
    n = len(boards)
    thresholds = options.get("solo_thresholds") or []
    if not isinstance(thresholds, list) or not all(isinstance(x, int) for x in thresholds):
        raise _bad("solo_thresholds", "a list of 4 VP limits")
    tokens = options.get("animal_tokens")
    if tokens is not None:
        if not isinstance(tokens, dict) or sorted(tokens) != sorted(ANIMALS):
            raise _bad("animal_tokens", "the number of tokens of each animal: horse, pig, cow, chicken")
        tokens = {a: _int(tokens[a], "animal_tokens", 0, 100) for a in ANIMALS}
    tie = options.get("tie_break") or list(TIE_BREAK)
    if not isinstance(tie, list) or sorted(tie) != sorted(RES) or tie[0] != "iron":
        raise _bad("tie_break", "all five resources, iron first")
    s = {
        "game": NAME, "names": [b["name"] for b in boards], "humans": len(players),
        "bot": len(players) if solo else None, "edition": ed, "cards": cards,
        "round": 1, "step": "first_player", "first": 0, "order": list(range(n)), "turn": 0,
        "contenders": list(range(n)),
        "bank": {t: ed["dice"][t]["count"] for t in RES}, "supply": [], "camps": [[] for _ in range(n)],
        "next_die": 1, "boards": boards, "pig_used": False, "pending": None, "notices": [],
        "notice_seq": 0, "finished": False, "result": None, "solo_thresholds": thresholds,
        "tie_break": tie, "log": [], "animal_bank": tokens, "virtual_dice": bool(options.get("virtual_dice", False)),
    }
    first = options.get("first_player")
    if first is not None:
        if isinstance(first, str):
            if first not in s["names"]:
                raise _bad("first_player", "a seat or a player's name")
            first = s["names"].index(first)
        _int(first, "first_player", 0, n - 1)
        _set_first(s, first)
        _enter(s, "draw")
    return s


# -- helpers over the state --------------------------------------------------------------------------
def _n(s: dict) -> int:
    return len(s["boards"])


def _humans(s: dict) -> list[int]:
    return [i for i, b in enumerate(s["boards"]) if not b["bot"]]


def _note(s: dict, key: str, seat: int | None = None, **params: Any) -> None:
    s["notice_seq"] += 1
    s["notices"].append({"n": s["notice_seq"], "key": key, "seat": seat, "params": params})
    del s["notices"][:-12]


def holder(s: dict, animal: str) -> int | None:
    """The seat with the strictly largest count of ``animal`` (a tie or zero: nobody)."""
    counts = [b["animals"][animal] for b in s["boards"]]
    best = max(counts)
    if best == 0 or counts.count(best) > 1:
        return None
    return counts.index(best)


def _power(s: dict, animal: str, seat: int) -> bool:
    """Does ``seat`` hold the power now? Lakis only ever uses the horse (§2.3)."""
    if s["boards"][seat]["bot"] and animal != "horse":
        return False
    return holder(s, animal) == seat


def hand_limit(s: dict, seat: int) -> int:
    ed = s["edition"]
    return ed["hand_chicken"] if _power(s, "chicken", seat) else ed["hand"]


def villager_counts(board: dict) -> dict:
    return {**board["villagers"], "guard": len(board["guards"])}


def extra_dice(s: dict, seat: int) -> int:
    """The round's extra dice for a player: the tracker's number + 1 per Royal Chambers."""
    base = s["edition"]["rounds"][str(s["round"])]["extra"]
    chambers = sum(1 for c in s["boards"][seat]["built"] if c.get("effect") == "extra_die")
    return base + chambers


def _set_first(s: dict, first: int) -> None:
    s["first"] = first
    if s["round"] == 1:
        s["start_player"] = first
    s["order"] = [(first + i) % _n(s) for i in range(_n(s))]
    s["turn"] = 0


def current(s: dict) -> int | None:
    """The seat whose turn it is in a sequential step (None in simultaneous steps)."""
    if s["finished"] or s["step"] not in SEQUENTIAL or s["step"] == "first_player":
        return None
    if s["pending"]:
        return s["pending"]["seat"]
    return s["order"][s["turn"]] if s["turn"] < len(s["order"]) else None


def _die_faces(s: dict, typ: str) -> list[str]:
    return s["edition"]["dice"][typ]["faces"]


def dice_total(s: dict) -> int:
    """Bank + pools + supply + camps: always the edition total."""
    return (sum(s["bank"].values()) + sum(sum(b["pool"].values()) for b in s["boards"])
            + len(s["supply"]) + sum(len(c) for c in s["camps"]))


# -- step machinery (inside apply: deterministic) ----------------------------------------------------
def _enter(s: dict, step: str) -> None:
    s["step"] = step
    s["turn"] = 0
    s["pending"] = None
    for b in s["boards"]:
        b["done"] = False
    if step == "draw":
        if not _skip_bots(s):
            _enter(s, "choose_dice")
    elif step == "choose_dice":
        fixed = s["edition"]["rounds"][str(s["round"])]["fixed"]
        for seat in s["order"]:
            for typ, k in fixed.items():
                got = min(k, s["bank"][typ])
                if got < k:
                    _note(s, "castle.note.bank_short", seat, die="@castle.die." + typ, n=k - got)
                s["bank"][typ] -= got
                b = s["boards"][seat]
                b["pool"][typ] = b["pool"].get(typ, 0) + got
    elif step == "roll":
        for b in s["boards"]:
            b["rolled"] = sum(b["pool"].values()) == 0
        if all(b["rolled"] for b in s["boards"]):
            _enter(s, "gather")
    elif step == "gather":
        _gather_next(s, first=True)
    elif step == "market":
        if s["round"] in s["edition"]["feast_rounds"]:
            for seat in _humans(s):
                b = s["boards"][seat]
                sets = min(b["animals"].values())
                if sets:
                    for a in ANIMALS:
                        b["animals"][a] -= sets
                        _return_animals(s, a, sets)
                    b["market_cards"] += sets
                    _note(s, "castle.note.feast", seat, name=b["name"], n=sets)
            if s["bot"] is not None:
                s["boards"][s["bot"]]["market_cards"] += 1
                _note(s, "castle.note.bot_market", s["bot"], name=BOT_NAME)
        if not _skip_bots(s):
            _enter(s, "workers")
    elif step == "workers":
        for seat in _humans(s):
            b = s["boards"][seat]
            for r in RES[: b["villagers"]["worker"]]:
                _add_res(s, seat, r, 1)
        _enter(s, "merchants")
    elif step == "merchants":
        for b in s["boards"]:
            b["merchants_used"] = 0
            b["done"] = b["bot"] or b["villagers"]["merchant"] == 0
        if all(b["done"] for b in s["boards"]):
            _enter(s, "build")
    elif step == "build":
        for b in s["boards"]:
            b["done"] = b["bot"]
    elif step == "raid":
        _raid(s)


def _skip_bots(s: dict) -> bool:
    """Moves the turn past Lakis in steps he sits out; False when nobody is left."""
    while s["turn"] < len(s["order"]) and s["boards"][s["order"][s["turn"]]]["bot"]:
        s["turn"] += 1
    return s["turn"] < len(s["order"])


def _advance_seq(s: dict) -> None:
    """The next player's turn in draw / choose_dice / market; the next step after the last."""
    s["turn"] += 1
    step = s["step"]
    if step in ("draw", "market"):
        if _skip_bots(s):
            return
        _enter(s, "choose_dice" if step == "draw" else "workers")
    elif step == "choose_dice":
        if s["turn"] < len(s["order"]):
            return
        cow = holder(s, "cow")
        if cow is not None and not s["boards"][cow]["bot"] and sum(villager_counts(s["boards"][cow]).values()):
            s["pending"] = {"kind": "cow", "seat": cow}
            return
        _enter(s, "roll")


def _gather_next(s: dict, first: bool = False) -> None:
    """Passes the pick to the next player still gathering; ends the draft when the supply is empty."""
    s["pending"] = None
    if not first:
        s["turn"] = (s["turn"] + 1) % len(s["order"])
    if not s["supply"]:
        _enter(s, "market")
        return
    for _ in range(len(s["order"])):
        if not s["boards"][s["order"][s["turn"]]]["pork_out"]:
            return
        s["turn"] = (s["turn"] + 1) % len(s["order"])
    # everybody stopped gathering (Pork Chops): the rest goes back to the bank
    for d in s["supply"]:
        s["bank"][d["type"]] += 1
    s["supply"] = []
    _enter(s, "market")


def _add_res(s: dict, seat: int, r: str, k: int) -> int:
    """Adds ``k`` of resource ``r`` (capped at 9); returns the units lost to the cap, with a notice."""
    b = s["boards"][seat]
    if b["bot"]:
        return 0  # Lakis's resources are not tracked (§2.3)
    cap = s["edition"]["res_max"]
    new = min(cap, b["res"][r] + k)
    lost = b["res"][r] + k - new
    b["res"][r] = new
    if lost:
        _note(s, "castle.note.cap_loss", seat, name=b["name"], n=lost, res="@castle.res." + r, cap=cap)
    return lost


def _credit(s: dict, seat: int, face: str, steal_from: int | None = None) -> None:
    kind, k = gain(face)
    b = s["boards"][seat]
    if kind in RES:
        _add_res(s, seat, kind, k)
        _note(s, "castle.note.took_res", seat, name=b["name"], n=k, res="@castle.res." + kind)
    else:
        _gain_animal(s, seat, kind, steal_from)


def _gain_animal(s: dict, seat: int, kind: str, steal_from: int | None = None) -> None:
    """One animal token from the bank; when the bank has none of that kind (only when the table
    counts its tokens: option ``animal_tokens``), one from an opponent of the player's choice
    (default: whoever has the most of it) [SEED FAQ]."""
    b = s["boards"][seat]
    bank = s.get("animal_bank")
    if bank is not None and bank[kind] <= 0:
        others = [i for i in s["order"] if i != seat and s["boards"][i]["animals"][kind] > 0]
        if steal_from not in others:
            steal_from = max(others, key=lambda i: s["boards"][i]["animals"][kind]) if others else None
        if steal_from is None:
            _note(s, "castle.note.no_animal", seat, name=b["name"], animal="@castle.animal." + kind)
            return
        s["boards"][steal_from]["animals"][kind] -= 1
        b["animals"][kind] += 1
        _note(s, "castle.note.stole", seat, name=b["name"], animal="@castle.animal." + kind,
              other=s["names"][steal_from])
        return
    if bank is not None:
        bank[kind] -= 1
    b["animals"][kind] += 1
    _note(s, "castle.note.took_animal", seat, name=b["name"], animal="@castle.animal." + kind)


def _return_animals(s: dict, kind: str, n: int) -> None:
    if s.get("animal_bank") is not None:
        s["animal_bank"][kind] += n


def _raid(s: dict) -> None:
    for seat, b in enumerate(s["boards"]):
        camp = s["camps"][seat]
        if camp and not b["bot"]:
            loss = raid_losses(b["res"], b["guards"], len(camp))
            for r in RES:
                b["res"][r] -= loss[r]
            total = sum(loss.values())
            _note(s, "castle.note.raid", seat, name=b["name"], n=len(camp), lost=total)
        for d in camp:
            s["bank"][d["type"]] += 1
        s["camps"][seat] = []
    _end_round(s)


def _finish(s: dict) -> None:
    s["finished"] = True
    s["step"] = "end"
    s["result"] = score(s)
    s["pending"] = None


def _end_round(s: dict) -> None:
    for d in s["supply"]:
        s["bank"][d["type"]] += 1
    s["supply"] = []
    if s["round"] >= 7:  # scoring: the players reveal their Bards, then the game ends (§6)
        s["step"] = "scoring"
        s["pending"] = None
        for b in s["boards"]:
            b["done"] = b["bot"]
        return
    s["round"] += 1
    s["pig_used"] = False
    for b in s["boards"]:
        b.update(pork_out=False, farmer_used=False, merchants_used=0, bot_choices=[], first_roll=None)
    horse = holder(s, "horse")
    first = horse if horse is not None else (s["first"] + 1) % _n(s)
    _set_first(s, first)
    _note(s, "castle.note.first", first, name=s["names"][first],
          why="@castle.why." + ("horse" if horse is not None else "rotate"))
    _enter(s, "draw")


# -- scoring (§6) ------------------------------------------------------------------------------------
def score(s: dict) -> dict:
    """The score of every player as logged parts; ``total`` is always their sum.

    Castle parts' printed VP + 1 per Bard + 1 for the sole most animals + 1 for the sole most
    villagers (a tie: nobody); solo: -1 per market card Lakis holds. Winner: highest total, then
    most iron (then land, gold, stone, wood [INF]); still tied: a shared win."""
    humans = _humans(s)
    animals = {i: sum(s["boards"][i]["animals"].values()) for i in range(_n(s))}
    villagers = {i: sum(villager_counts(s["boards"][i]).values()) for i in humans}

    def sole(counts: dict) -> int | None:
        best = max(counts.values())
        tops = [i for i, v in counts.items() if v == best]
        return tops[0] if best > 0 and len(tops) == 1 else None

    most_animals, most_villagers = sole(animals), sole(villagers)
    players = []
    for i in humans:
        b = s["boards"][i]
        parts = [{"kind": "castle", "card": c["id"], "name": c["name"], "vp": c["vp"]}
                 for c in b["built"] if c["vp"]]
        if b["bards"]:
            parts.append({"kind": "bards", "count": b["bards"], "vp": b["bards"]})
        if most_animals == i:
            parts.append({"kind": "most_animals", "count": animals[i], "vp": 1})
        if most_villagers == i:
            parts.append({"kind": "most_villagers", "count": villagers[i], "vp": 1})
        if s["bot"] is not None and s["boards"][s["bot"]]["market_cards"]:
            k = s["boards"][s["bot"]]["market_cards"]
            parts.append({"kind": "lakis_market", "count": k, "vp": -k})
        players.append({"seat": i, "name": b["name"], "parts": parts, "total": sum(p["vp"] for p in parts),
                        "res": dict(b["res"]), "animals": animals[i], "villagers": villagers[i]})
    tie_order = s.get("tie_break", list(TIE_BREAK))
    best = max(p["total"] for p in players)
    tied = [p for p in players if p["total"] == best]
    broke_by = None
    for r in tie_order:
        if len(tied) == 1:
            break
        top = max(p["res"][r] for p in tied)
        if any(p["res"][r] != top for p in tied):
            broke_by = r
        tied = [p for p in tied if p["res"][r] == top]
    out = {"players": players, "winners": [p["seat"] for p in tied], "tie_broken_by": broke_by,
           "shared": len(tied) > 1, "most_animals": most_animals, "most_villagers": most_villagers}
    if s["bot"] is not None:
        label = None
        th = s.get("solo_thresholds") or []
        if len(th) == 4:
            label = ("big_loss", "loss", "win", "big_win", "epic_win")[sum(players[0]["total"] >= x for x in th)]
        out["solo_result"] = label
    return out


# -- decide: actions -> events -------------------------------------------------------------------------
def _seat_of(s: dict, action: dict, actor: Actor, default: int | None = None) -> int:
    """The seat an action is for: a player acts for itself; the host and the table for anyone."""
    seat = action.get("seat", actor.seat if actor.role == "player" else default)
    if actor.role == "player":
        bot = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < _n(s) and s["boards"][seat]["bot"]
        if seat is not None and seat != actor.seat and not bot:  # anyone may roll for Lakis
            raise NotAllowed("castle.err.not_for_others")
        seat = seat if bot else actor.seat
    elif actor.role not in ("host", "device"):
        raise NotAllowed("err.spectator")
    if seat is None:
        raise BadAction("err.missing_field", field="seat")
    return _int(seat, "seat", 0, _n(s) - 1)


def _turn_seat(s: dict, actor: Actor) -> int:
    """The seat whose turn it is; a player may act only on their own turn."""
    seat = current(s)
    if seat is None:
        raise RuleError("castle.err.no_turn")
    if actor.role == "player" and actor.seat != seat and not s["boards"][seat]["bot"]:
        raise NotAllowed("castle.err.not_your_turn", who=s["names"][seat])  # anyone may run Lakis's turn
    if actor.role not in ("player", "host", "device"):
        raise NotAllowed("err.spectator")
    return seat


def _need_step(s: dict, *steps: str) -> None:
    if s["finished"]:
        raise RuleError("err.game_over")
    if s["step"] not in steps:
        raise RuleError("castle.err.wrong_step", step="@castle.step." + s["step"],
                        need="@castle.step." + steps[0])


def _no_pending(s: dict) -> None:
    p = s["pending"]
    if p:
        raise RuleError("castle.err.pending_" + p["kind"], name=s["names"][p["seat"]])


def _roll_face(s: dict, typ: str, rng: random.Random) -> str:
    return rng.choice(_die_faces(s, typ))


def _check_face(s: dict, typ: str, face: Any) -> str:
    if face not in _die_faces(s, typ):
        raise RuleError("castle.err.no_such_face", die="@castle.die." + typ, face=str(face),
                        faces=", ".join(sorted(set(_die_faces(s, typ)))))
    return face


def _parse_roll(s: dict, seat: int, action: dict, rng: random.Random) -> list[dict]:
    """The dice of one player's roll: given (camera / phone) or rolled virtually."""
    pool = dict(s["boards"][seat]["pool"])
    given = action.get("dice", action.get("faces"))
    if given is None:
        return [{"type": t, "face": _roll_face(s, t, rng)} for t in RES for _ in range(pool.get(t, 0))]
    if not isinstance(given, list):
        raise _bad("dice", "a list of dice")
    n_pool = sum(pool.values())
    if len(given) != n_pool:
        raise RuleError("castle.err.roll_count", name=s["names"][seat], n=len(given), need=n_pool)
    out, left = [], dict(pool)
    untyped = []
    for item in given:
        if isinstance(item, str) or item is None:
            item = {"face": item}
        if not isinstance(item, dict):
            raise _bad("dice", "each die is a face or {type, face}")
        typ, face = item.get("type"), item.get("face")
        if typ is None and face is not None:
            cands = [t for t in RES if left.get(t) and face in _die_faces(s, t)]
            if not cands:
                raise RuleError("castle.err.face_not_in_pool", face=str(face), name=s["names"][seat])
            typ = cands[0] if len(cands) == 1 else (next((t for t in cands if gain(face)[0] == t), None)
                                                    or max(cands, key=lambda t: left[t]))
        if typ is None:
            untyped.append(item)
            continue
        if typ not in RES or not left.get(typ):
            raise RuleError("castle.err.not_in_pool", die="@castle.die." + str(typ), name=s["names"][seat])
        left[typ] -= 1
        if face is not None:
            _check_face(s, typ, face)
        out.append({"type": typ, "face": face})
    for _item in untyped:  # seen but neither type nor face known: match what is left of the pool
        typ = next(t for t in RES if left.get(t))
        left[typ] -= 1
        out.append({"type": typ, "face": None})
    return out


def _find_die(s: dict, action: dict, where: str = "supply") -> dict:
    dice = s["supply"] if where == "supply" else [d for c in s["camps"] for d in c] + s["supply"]
    did = action.get("die")
    if did is not None:
        for d in dice:
            if d["id"] == did:
                return d
        raise RuleError("castle.err.no_die", die=str(did))
    face, typ = action.get("face"), action.get("type")
    cands = [d for d in dice if (typ is None or d["type"] == typ) and (face is None or d["face"] == face)]
    cands.sort(key=lambda d: d["face"] is None)
    if not cands or (face is None and typ is None):
        raise RuleError("castle.err.no_die", die=str(face or typ))
    return cands[0]


def _bot_choose_types(s: dict, rolls: list[str], count: int) -> list[str] | None:
    """Lakis's extra dice from the solo-die rolls (§2.3); None when every roll was a Barn."""
    types: list[str] = []
    waiting = 0
    for f in rolls[:count]:
        if f == "barn":
            if types:
                types.append(types[-1])
            else:
                waiting += 1
        else:
            types.append(f)
            types.extend([f] * waiting)
            waiting = 0
    if not types:
        extra = [f for f in rolls[count:] if f != "barn"]
        return [extra[0]] * count if extra else None
    while len(types) < count:  # a trailing barn waiting for a roll that never came
        types.append(types[-1])
    return types[:count]


def _bot_pick(s: dict, solo: str | None) -> tuple[dict, str | None]:
    """Lakis's gather choice (§2.3, digest §8 #23): ``(die, solo roll used or None)``."""
    bot = s["boards"][s["bot"]]
    known = [d for d in s["supply"] if d["face"] is not None]
    if not known:
        raise RuleError("castle.err.confirm_first")

    def res_dice(r: str) -> list[dict]:
        ds = [d for d in known if gain(d["face"])[0] == r]
        return sorted(ds, key=lambda d: -gain(d["face"])[1])

    def animal_die() -> dict | None:
        ani = [d for d in known if d["face"] in ANIMALS]
        if not ani:
            return None
        counts = bot["animals"]
        low = min(counts.values())
        lows = [a for a in ANIMALS if counts[a] == low]
        if len(lows) == 1:
            for d in ani:
                if d["face"] == lows[0]:
                    return d
        for a in BOT_ANIMAL_ORDER:
            for d in ani:
                if d["face"] == a:
                    return d
        return None

    if bot["priority"] and res_dice(bot["priority"]):
        return res_dice(bot["priority"])[0], None
    if solo is None:
        raise RuleError("castle.err.solo_die_needed")
    if solo == "barn":
        d = animal_die()
        if d:
            return d, solo
    elif res_dice(solo):
        return res_dice(solo)[0], solo
    multi = [d for d in known if gain(d["face"])[0] in RES and gain(d["face"])[1] >= 2]
    pool = multi or [d for d in known if gain(d["face"])[0] in RES]
    if pool:
        pool.sort(key=lambda d: (-RES.index(gain(d["face"])[0]), -gain(d["face"])[1]))
        return pool[0], solo
    return animal_die() or known[0], solo


def decide(state: dict, action: dict, actor: Actor, rng: random.Random) -> dict:
    """Turns an action into an event; rolls dice and the solo die with ``rng`` when asked to."""
    s = state
    kind = action.get("type")
    if kind == "draw" and actor.role == "device":  # the table's other button: the same one-tap "next"
        kind, action = "next", {**action, "type": "next"}
    if kind not in ACTIONS:
        raise BadAction("err.unknown_action", type=kind, game=NAME, known=", ".join(ACTIONS))
    if actor.role == "spectator":
        raise NotAllowed("err.spectator")
    if kind == "card_edit":
        if actor.role == "device":
            raise NotAllowed("err.not_host")
        cid = action.get("id")
        base = s["cards"].get(cid, {}) if isinstance(cid, str) else {}
        spec = {k: v for k, v in action.items() if k not in ("type", "id")}
        return {"type": "card_edit", "id": cid, "card": _clean_card(cid, {**base, **spec})}
    if kind == "adjust":
        return _decide_adjust(s, action, actor)
    if kind == "correct_die":
        return _decide_correct(s, action, actor)
    if s["finished"]:
        raise RuleError("err.game_over")
    if kind == "bards":
        seat = _seat_of(s, action, actor)
        count = _int(action.get("count"), "count", 0, 18)
        if count > s["boards"][seat]["market_cards"]:
            raise RuleError("castle.err.bards_more_than_cards", n=s["boards"][seat]["market_cards"])
        return {"type": "bards", "seat": seat, "count": count}
    if kind in ("first_roll", "set_first"):
        _need_step(s, "first_player")
        if kind == "set_first":
            if actor.role != "host":
                raise NotAllowed("err.not_host")
            return {"type": "set_first", "seat": _int(action.get("seat"), "seat", 0, _n(s) - 1)}
        seat = _seat_of(s, action, actor)
        if seat not in s["contenders"]:
            raise RuleError("castle.err.not_contender", name=s["names"][seat])
        if s["boards"][seat]["first_roll"] is not None:
            raise RuleError("castle.err.already_rolled", name=s["names"][seat])
        faces = action.get("faces")
        if faces is None and "wood" in action:
            return {"type": "first_roll", "seat": seat, "wood": _int(action["wood"], "wood", 0, 6)}
        if faces is None:
            faces = [_roll_face(s, "wood", rng) for _ in range(2)]
        if not isinstance(faces, list) or len(faces) != 2:
            raise _bad("faces", "the two wood dice")
        for f in faces:
            _check_face(s, "wood", f)
        wood = sum(gain(f)[1] for f in faces if gain(f)[0] == "wood")
        return {"type": "first_roll", "seat": seat, "faces": faces, "wood": wood}
    if kind in ("done", "next"):
        return _decide_next(s, action, actor, rng, kind)
    if kind == "skip":
        if not s["pending"]:
            raise RuleError("castle.err.nothing_to_skip")
        seat = s["pending"]["seat"]
        if actor.role == "player" and actor.seat != seat:
            raise NotAllowed("castle.err.not_your_turn", who=s["names"][seat])
        return {"type": "skip", "seat": seat, "what": s["pending"]["kind"]}
    if kind == "draw_cards":
        _need_step(s, "draw")
        seat = _turn_seat(s, actor)
        b = s["boards"][seat]
        discard = _int(action.get("discard", 0), "discard", 0, 20)
        castle = _int(action.get("castle", 0), "castle", 0, 6)
        village = _int(action.get("village", 0), "village", 0, 6)
        if discard > b["hand"]:
            raise RuleError("castle.err.discard_more", n=b["hand"])
        limit = hand_limit(s, seat)
        total = b["hand"] - discard + castle + village
        if total != limit:
            raise RuleError("castle.err.hand_total", limit=limit, n=total)
        return {"type": "draw_cards", "seat": seat, "discard": discard, "castle": castle, "village": village}
    if kind == "choose_dice":
        _need_step(s, "choose_dice")
        _no_pending(s)
        seat = _turn_seat(s, actor)
        if s["boards"][seat]["bot"]:
            raise RuleError("castle.err.bot_turn")
        dice = action.get("dice")
        if not isinstance(dice, dict) or any(t not in RES for t in dice):
            raise _bad("dice", "an object of die type: number")
        dice = {t: _int(dice[t], "dice", 0, 12) for t in RES if dice.get(t)}
        for t, k in dice.items():
            if s["bank"][t] < k:
                if s["bank"][t] == 0:
                    raise RuleError("castle.err.bank_empty", die="@castle.die." + t)
                raise RuleError("castle.err.bank_short", die="@castle.die." + t, n=s["bank"][t])
        need = min(extra_dice(s, seat), sum(s["bank"].values()))
        if sum(dice.values()) != need:
            raise RuleError("castle.err.extra_count", need=need, n=sum(dice.values()))
        return {"type": "choose_dice", "seat": seat, "dice": dice}
    if kind == "bot_choose":
        _need_step(s, "choose_dice")
        seat = _turn_seat(s, actor)
        return _decide_bot_choose(s, seat, action, rng)
    if kind == "villager_choice":
        p = s["pending"]
        if not p or p["kind"] != "cow":
            raise RuleError("castle.err.no_cow_now")
        if actor.role == "player" and actor.seat != p["seat"]:
            raise NotAllowed("castle.err.not_your_turn", who=s["names"][p["seat"]])
        b = s["boards"][p["seat"]]
        frm, to = action.get("from"), action.get("to")
        if frm not in VILLAGERS or to not in VILLAGERS or frm == to:
            raise _bad("from/to", "two different villager types")
        have = villager_counts(b)
        if not have[frm]:
            raise RuleError("castle.err.no_villager", villager="@castle.villager." + frm)
        caps = s["edition"]["caps"]
        if have[to] >= caps[to]:
            raise RuleError("castle.err.cap." + to, n=caps[to])
        ev = {"type": "villager_choice", "seat": p["seat"], "from": frm, "to": to}
        if frm == "guard":
            g = action.get("from_resource", b["guards"][-1])
            if g not in b["guards"]:
                raise RuleError("castle.err.no_guard_there", res="@castle.res." + str(g))
            ev["from_resource"] = g
        if to == "guard":
            free = [r for r in RES if r not in b["guards"] or r == ev.get("from_resource")]
            g = action.get("resource", free[0])
            if g not in free:
                raise RuleError("castle.err.guard_taken", res="@castle.res." + str(g))
            ev["resource"] = g
        return ev
    if kind == "roll":
        _need_step(s, "roll")
        default = next((i for i in s["order"] if not s["boards"][i]["rolled"]), None)
        seat = _seat_of(s, action, actor, default)
        if s["boards"][seat]["rolled"]:
            raise RuleError("castle.err.already_rolled", name=s["names"][seat])
        dice = _parse_roll(s, seat, action, rng)
        source = action.get("source", "virtual" if action.get("dice", action.get("faces")) is None else "manual")
        return {"type": "roll", "rolls": [{"seat": seat, "dice": dice}], "source": str(source)[:20]}
    if kind in ("take", "pork_chops"):
        _need_step(s, "gather")
        _no_pending(s)
        seat = _turn_seat(s, actor)
        if s["boards"][seat]["bot"]:
            raise RuleError("castle.err.bot_turn")
        die = _find_die(s, action)
        face = action.get("set_face", action.get("face") if action.get("die") is not None else None)
        ev: dict = {"type": kind, "seat": seat, "die": die["id"]}
        if kind == "pork_chops":
            source = action.get("source", "pig")
            if source not in ("pig", "daughter"):
                raise _bad("source", "pig or daughter")
            if source == "pig":
                if s["pig_used"]:
                    raise RuleError("castle.err.pig_used")
                if not _power(s, "pig", seat):
                    raise RuleError("castle.err.no_pig_power")
            face = action.get("set_face", action.get("face"))
            if face is None:
                raise BadAction("err.missing_field", field="face")
            ev["source"] = source
        if face is not None:
            ev["face"] = _check_face(s, die["type"], face)
            if kind == "take" and die["face"] is not None and face != die["face"]:
                raise RuleError("castle.err.face_differs", face=face_text(die["face"]))
        elif die["face"] is None:
            raise RuleError("castle.err.die_unsure")
        if (ev.get("face") or die["face"]) == "barbarian":
            raise RuleError("castle.err.take_barbarian")
        if action.get("source") == "camera":
            ev["source"] = "camera"
        if action.get("steal_from") is not None:
            ev["steal_from"] = _int(action["steal_from"], "steal_from", 0, _n(s) - 1)
        return ev
    if kind == "farmer_bonus":
        p = s["pending"]
        if not p or p["kind"] != "farmer":
            raise RuleError("castle.err.no_farmer_now")
        if actor.role == "player" and actor.seat != p["seat"]:
            raise NotAllowed("castle.err.not_your_turn", who=s["names"][p["seat"]])
        farmers = s["boards"][p["seat"]]["villagers"]["farmer"]
        animals = action.get("animals") or []
        if isinstance(animals, str):
            animals = [animals]
        need = {1: 0, 2: 1, 3: 2}[min(farmers, 3)]
        if farmers == 1:
            animals = [p["animal"]]
        if len(animals) != max(need, 1) or any(a not in ANIMALS for a in animals):
            raise RuleError("castle.err.farmer_animals", n=max(need, 1))
        ev = {"type": "farmer_bonus", "seat": p["seat"], "farmers": farmers, "animal": p["animal"],
              "animals": list(animals)}
        if action.get("steal_from") is not None:
            ev["steal_from"] = _int(action["steal_from"], "steal_from", 0, _n(s) - 1)
        return ev
    if kind == "sell_sets":
        _need_step(s, "market")
        seat = _turn_seat(s, actor)
        if s["round"] in s["edition"]["feast_rounds"]:
            raise RuleError("castle.err.feast_auto")
        b = s["boards"][seat]
        sets = _int(action.get("sets", 1), "sets", 1, 25)
        have = min(b["animals"].values())
        if sets > have:
            raise RuleError("castle.err.no_sets", n=have)
        return {"type": "sell_sets", "seat": seat, "sets": sets}
    if kind == "upgrade":
        _need_step(s, "merchants")
        seat = _seat_of(s, action, actor)
        b = s["boards"][seat]
        frm = action.get("from")
        if frm not in RES:
            raise _bad("from", "one of " + ", ".join(RES))
        if frm == "iron":
            raise RuleError("castle.err.iron_upgrade")
        if b["villagers"]["merchant"] == 0:
            raise RuleError("castle.err.no_merchants")
        if b["merchants_used"] >= b["villagers"]["merchant"]:
            raise RuleError("castle.err.merchants_used", n=b["villagers"]["merchant"])
        if b["res"][frm] < 1:
            raise RuleError("castle.err.no_resource", res="@castle.res." + frm)
        if b["done"]:
            raise RuleError("castle.err.already_done")
        return {"type": "upgrade", "seat": seat, "from": frm, "to": RES[RES.index(frm) + 1]}
    if kind == "build":
        _need_step(s, "build")
        seat = _seat_of(s, action, actor)
        return _decide_build(s, seat, action)
    raise BadAction("err.unknown_action", type=kind, game=NAME, known=", ".join(ACTIONS))


def _decide_build(s: dict, seat: int, action: dict) -> dict:
    b = s["boards"][seat]
    if b["done"]:
        raise RuleError("castle.err.already_done")
    cid = action.get("card")
    ev: dict = {"type": "build", "seat": seat, "card": cid}
    if isinstance(action.get("define"), dict):  # a card entered once at the table, then kept
        ev["define"] = _clean_card(cid, action["define"])
        card = ev["define"]
    elif isinstance(cid, str) and cid in s["cards"]:
        card = s["cards"][cid]
    else:
        raise RuleError("castle.err.unknown_card", card=str(cid))
    if card["deck"] == "market":  # market cards are played from the market pile, not the hand
        used = b["bards"] + sum(1 for c in b["built"] + b["played"] if c.get("deck") == "market")
        if b["market_cards"] <= used:
            raise RuleError("castle.err.no_market_card")
    missing = {r: k - b["res"][r] for r, k in card["cost"].items() if b["res"][r] < k}
    if missing:
        raise RuleError("castle.err.cost", card=card["name"], missing=_res_text(missing))
    if card["effect"] == "villager":
        v = card["villager"]
        caps = s["edition"]["caps"]
        have = villager_counts(b)
        if have[v] >= caps[v]:
            raise RuleError("castle.err.cap." + v, n=caps[v])
        if v == "guard":
            free = [r for r in RES if r not in b["guards"]]
            g = action.get("resource", free[0])
            if g not in RES:
                raise _bad("resource", "the resource the guard protects")
            if g in b["guards"]:
                raise RuleError("castle.err.guard_taken", res="@castle.res." + g)
            ev["resource"] = g
    return ev


def face_text(face: str | None) -> dict:
    """A die face in words, in both languages: ``wood2`` -> ``{"en": "2 Wood", "el": "2 Ξύλο"}``."""
    from companion.i18n import t

    if face is None:
        return {"en": "?", "el": "?"}
    kind, k = gain(face)
    if kind in RES:
        return {lang: f"{k} {t(lang, 'castle.res.' + kind)}" for lang in ("el", "en")}
    key = "castle.face.barbarian" if kind == "barbarian" else "castle.animal." + kind
    return {lang: t(lang, key) for lang in ("el", "en")}


def _res_text(amounts: dict) -> dict:
    """``{"wood": 2, "iron": 1}`` as a sentence part in both languages."""
    from companion.i18n import t

    return {lang: ", ".join(f"{k} {t(lang, 'castle.res.' + r)}" for r, k in amounts.items())
            for lang in ("el", "en")}


def _decide_bot_choose(s: dict, seat: int, action: dict, rng: random.Random) -> dict:
    if not s["boards"][seat]["bot"]:
        raise RuleError("castle.err.not_bot_turn")
    count = min(s["edition"]["rounds"][str(s["round"])]["extra"], sum(s["bank"].values()))
    rolls = action.get("solo")
    faces = s["edition"]["solo_faces"]
    if rolls is None:
        rolls = [rng.choice(faces) for _ in range(count)]
        while count and all(f == "barn" for f in rolls):
            rolls.append(rng.choice(faces))
            if rolls[-1] != "barn":
                break
    if not isinstance(rolls, list) or any(f not in faces for f in rolls):
        raise _bad("solo", "the solo-die faces rolled: " + ", ".join(faces))
    types = _bot_choose_types(s, rolls, count) if count else []
    if types is None:
        raise RuleError("castle.err.bot_all_barn")
    bank = dict(s["bank"])
    final = []
    for t in types:  # an exhausted type: the most plentiful in the bank instead [INF]
        if bank[t] == 0:
            t = max(RES, key=lambda x: (bank[x], RES.index(x)))
        bank[t] -= 1
        final.append(t)
    counts = {t: final.count(t) for t in set(final)}
    priority = None
    if counts:
        top = max(counts.values())
        priority = max((t for t in counts if counts[t] == top), key=RES.index)  # rarest among tied
    return {"type": "bot_choose", "seat": seat, "solo": list(rolls), "dice": final, "priority": priority}


def _decide_next(s: dict, action: dict, actor: Actor, rng: random.Random, kind: str) -> dict:
    """The one-tap "done" / the table's "next" button: ends what the step is waiting for."""
    step = s["step"]
    if s["pending"]:
        seat = s["pending"]["seat"]
        if actor.role == "player" and actor.seat != seat:
            raise NotAllowed("castle.err.not_your_turn", who=s["names"][seat])
        return {"type": "skip", "seat": seat, "what": s["pending"]["kind"]}
    if step in ("first_player", "roll") and actor.role == "device" and not s.get("virtual_dice"):
        raise RuleError("castle.err.roll_tray")  # a button press must not roll virtually over real dice
    if step == "first_player":
        if actor.role == "player":
            bot = s["bot"]
            mine_done = actor.seat not in s["contenders"] or s["boards"][actor.seat]["first_roll"] is not None
            if mine_done and bot in s["contenders"] and s["boards"][bot]["first_roll"] is None:
                return decide(s, {"type": "first_roll", "seat": bot}, actor, rng)
            return decide(s, {"type": "first_roll"}, actor, rng)
        rolls = {}
        for seat in s["contenders"]:
            b = s["boards"][seat]
            if b["first_roll"] is not None:
                rolls[seat] = b["first_roll"]
        while True:  # roll for whoever has not rolled; re-roll the tied until one is first
            for seat in s["contenders"]:
                if seat not in rolls:
                    faces = [_roll_face(s, "wood", rng) for _ in range(2)]
                    rolls[seat] = sum(gain(f)[1] for f in faces if gain(f)[0] == "wood")
            best = max(rolls.values())
            tops = [i for i, w in rolls.items() if w == best]
            if len(tops) == 1:
                return {"type": "set_first", "seat": tops[0], "rolls": {str(k): v for k, v in rolls.items()}}
            rolls = {}
            s = {**s, "contenders": tops}
    if step in ("draw", "choose_dice", "gather", "market"):
        seat = _turn_seat(s, actor)
        b = s["boards"][seat]
        if step == "draw":
            limit = hand_limit(s, seat)
            if b["hand"] > limit:
                return {"type": "draw_cards", "seat": seat, "discard": b["hand"] - limit, "castle": 0,
                        "village": 0}
            return {"type": "draw_cards", "seat": seat, "discard": 0, "castle": 0, "village": 0,
                    "unspecified": limit - b["hand"]}
        if step == "choose_dice":
            if b["bot"]:
                return _decide_bot_choose(s, seat, action, rng)
            raise RuleError("castle.err.choose_first", n=extra_dice(s, seat))
        if step == "gather":
            if b["bot"]:
                solo = action.get("solo")
                if solo is not None and solo not in s["edition"]["solo_faces"]:
                    raise _bad("solo", "a face of the solo die")
                try:
                    die, used = _bot_pick(s, solo)
                except RuleError as err:
                    if err.key != "castle.err.solo_die_needed":
                        raise
                    die, used = _bot_pick(s, rng.choice(s["edition"]["solo_faces"]))
                return {"type": "take", "seat": seat, "die": die["id"], "solo": used}
            raise RuleError("castle.err.take_first")
        return {"type": "done", "seat": seat}
    if step == "roll":
        if actor.role == "player":
            bot = s["bot"]
            if s["boards"][actor.seat]["rolled"] and bot is not None and not s["boards"][bot]["rolled"]:
                return decide(s, {"type": "roll", "seat": bot}, actor, rng)
            return decide(s, {"type": "roll", "seat": actor.seat}, actor, rng)
        rolls = [{"seat": i, "dice": _parse_roll(s, i, {}, rng)} for i in s["order"]
                 if not s["boards"][i]["rolled"]]
        return {"type": "roll", "rolls": rolls, "source": "virtual"}
    if step in ("merchants", "build", "scoring"):
        if actor.role == "player":
            if s["boards"][actor.seat]["done"]:
                raise RuleError("castle.err.already_done")
            return {"type": "done", "seat": actor.seat}
        return {"type": "end_step", "step": step}
    raise RuleError("castle.err.no_turn")


def _decide_adjust(s: dict, action: dict, actor: Actor) -> dict:
    """A hand correction of a board (logged as an event like everything else)."""
    if actor.role == "device":
        raise NotAllowed("err.not_host")
    seat = _seat_of(s, action, actor)
    field, key = action.get("field"), action.get("key")
    value = action.get("value")
    b = s["boards"][seat]
    if field == "res":
        if key not in RES:
            raise _bad("key", "a resource")
        value = _int(value, "value", 0, s["edition"]["res_max"])
    elif field == "animals":
        if key not in ANIMALS:
            raise _bad("key", "an animal")
        value = _int(value, "value", 0, 50)
        bank = s.get("animal_bank")
        if bank is not None and value - b["animals"][key] > bank[key]:
            raise RuleError("castle.err.animal_bank_short", animal="@castle.animal." + key, n=bank[key])
    elif field == "villagers":
        if key not in ("worker", "farmer", "merchant"):
            raise _bad("key", "worker, farmer or merchant (guards: field 'guards')")
        value = _int(value, "value", 0, s["edition"]["caps"][key])
    elif field == "guards":
        if not isinstance(value, list) or any(r not in RES for r in value) or len(set(value)) != len(value):
            raise _bad("value", "a list of guarded resources, each at most once")
        key = None
    elif field in ("hand", "market_cards"):
        value = _int(value, "value", 0, 20)
        key = None
    else:
        raise _bad("field", "res, animals, villagers, guards, hand or market_cards")
    return {"type": "adjust", "seat": seat, "field": field, "key": key, "value": value,
            "was": b[field][key] if key else b[field]}


def _decide_correct(s: dict, action: dict, actor: Actor) -> dict:
    """Confirms or corrects a die reading in the supply or a barbarian camp."""
    if s["finished"]:
        raise RuleError("err.game_over")
    if actor.role == "player" and actor.seat is None:
        raise NotAllowed("err.spectator")
    die = _find_die(s, {"die": action.get("die")}, where="all")
    face = _check_face(s, die["type"], action.get("face"))
    return {"type": "correct_die", "die": die["id"], "face": face, "was": die["face"]}


# -- apply: events -> state (pure, deterministic) ----------------------------------------------------
def apply(state: dict, event: dict) -> dict:
    """The state after ``event``. Pure: the input is not changed."""
    s = copy.deepcopy(state)
    kind = event["type"]
    seat = event.get("seat")
    b = s["boards"][seat] if isinstance(seat, int) else None
    if kind == "card_edit":
        s["cards"][event["id"]] = event["card"]
    elif kind == "adjust":
        if event["field"] == "animals" and s.get("animal_bank") is not None:  # tokens go to/from the bank
            s["animal_bank"][event["key"]] -= event["value"] - b["animals"][event["key"]]
        if event["key"]:
            b[event["field"]][event["key"]] = event["value"]
        else:
            b[event["field"]] = event["value"]
        _note(s, "castle.note.adjust", seat, name=b["name"])
    elif kind == "correct_die":
        _apply_correct(s, event)
    elif kind == "bards":
        b["bards"] = event["count"]
    elif kind == "first_roll":
        b["first_roll"] = event["wood"]
        rolled = {i: s["boards"][i]["first_roll"] for i in s["contenders"]}
        if all(v is not None for v in rolled.values()):
            best = max(rolled.values())
            tops = [i for i, v in rolled.items() if v == best]
            if len(tops) == 1:
                _start_after_first(s, tops[0])
            else:
                s["contenders"] = tops
                for i in tops:
                    s["boards"][i]["first_roll"] = None
                _note(s, "castle.note.reroll", None, names=", ".join(s["names"][i] for i in tops))
    elif kind == "set_first":
        _start_after_first(s, event["seat"])
    elif kind == "draw_cards":
        b["hand"] = b["hand"] - event["discard"] + event["castle"] + event["village"] + event.get("unspecified", 0)
        _advance_seq(s)
    elif kind == "choose_dice":
        for t, k in event["dice"].items():
            s["bank"][t] -= k
            b["pool"][t] = b["pool"].get(t, 0) + k
        _advance_seq(s)
    elif kind == "bot_choose":
        for t in event["dice"]:
            s["bank"][t] -= 1
            b["pool"][t] = b["pool"].get(t, 0) + 1
        b["priority"] = event["priority"]
        b["bot_choices"] = list(event["dice"])
        _advance_seq(s)
    elif kind == "villager_choice":
        _villager_change(b, event["from"], -1, event.get("from_resource"))
        _villager_change(b, event["to"], +1, event.get("resource"))
        _note(s, "castle.note.cow", seat, name=b["name"], frm="@castle.villager." + event["from"],
              to="@castle.villager." + event["to"])
        _enter(s, "roll")
    elif kind == "skip":
        if event["what"] == "cow":
            _enter(s, "roll")
        else:
            _gather_next(s)
    elif kind == "roll":
        for r in event["rolls"]:
            rb = s["boards"][r["seat"]]
            barbarians = 0
            for d in r["dice"]:
                die = {"id": s["next_die"], "type": d["type"], "face": d["face"], "owner": r["seat"]}
                s["next_die"] += 1
                rb["pool"][d["type"]] -= 1
                if d["face"] == "barbarian":
                    s["camps"][r["seat"]].append(die)
                    barbarians += 1
                else:
                    s["supply"].append(die)
            rb["pool"] = {t: k for t, k in rb["pool"].items() if k}
            rb["rolled"] = True
            unsure = sum(1 for d in r["dice"] if d["face"] is None)
            _note(s, "castle.note.rolled", r["seat"], name=rb["name"], n=len(r["dice"]), barbarians=barbarians,
                  unsure=unsure)
        if all(x["rolled"] for x in s["boards"]):
            _enter(s, "gather")
    elif kind in ("take", "pork_chops"):
        die = next(d for d in s["supply"] if d["id"] == event["die"])
        if event.get("face"):
            die["face"] = event["face"]
        s["supply"].remove(die)
        s["bank"][die["type"]] += 1
        _credit(s, seat, die["face"], event.get("steal_from"))
        if kind == "pork_chops":
            b["pork_out"] = True
            if event["source"] == "pig":
                s["pig_used"] = True
            _note(s, "castle.note.pork", seat, name=b["name"])
        if (die["face"] in ANIMALS and not b["bot"] and b["villagers"]["farmer"] and not b["farmer_used"]):
            s["pending"] = {"kind": "farmer", "seat": seat, "animal": die["face"]}
        else:
            _gather_next(s)
    elif kind == "farmer_bonus":
        if event["farmers"] >= 3 and b["animals"][event["animal"]] > 0:
            b["animals"][event["animal"]] -= 1
            _return_animals(s, event["animal"], 1)
        for a in event["animals"]:
            _gain_animal(s, seat, a, event.get("steal_from"))
        b["farmer_used"] = True
        _note(s, "castle.note.farmer", seat, name=b["name"])
        _gather_next(s)
    elif kind == "sell_sets":
        for a in ANIMALS:
            b["animals"][a] -= event["sets"]
            _return_animals(s, a, event["sets"])
        b["market_cards"] += event["sets"]
        _note(s, "castle.note.market", seat, name=b["name"], n=event["sets"])
    elif kind == "upgrade":
        b["res"][event["from"]] -= 1
        b["merchants_used"] += 1
        _add_res(s, seat, event["to"], 1)
        _note(s, "castle.note.upgrade", seat, name=b["name"], frm="@castle.res." + event["from"],
              to="@castle.res." + event["to"])
    elif kind == "build":
        _apply_build(s, event)
    elif kind == "done":
        if s["step"] in ("merchants", "build", "scoring"):
            b["done"] = True
            if all(x["done"] for x in s["boards"]):
                _after(s, s["step"])
        else:
            _advance_seq(s)
    elif kind == "end_step":
        _after(s, event["step"])
    else:
        raise ValueError(f"unknown event {kind!r}")
    return s


def _after(s: dict, step: str) -> None:
    """The end of a step everybody does at once."""
    if step == "scoring":
        _finish(s)
    else:
        _enter(s, "build" if step == "merchants" else "raid")


def _start_after_first(s: dict, first: int) -> None:
    for b in s["boards"]:
        b["first_roll"] = None
    s["contenders"] = list(range(_n(s)))
    _set_first(s, first)
    _note(s, "castle.note.first", first, name=s["names"][first], why="@castle.why.wood")
    _enter(s, "draw")


def _villager_change(b: dict, v: str, delta: int, resource: str | None) -> None:
    if v == "guard":
        if delta > 0:
            b["guards"].append(resource)
        else:
            b["guards"].remove(resource)
    else:  # a worker leaves its rarest slot; a new one fills the most common free slot [INF §8 #19]
        b["villagers"][v] += delta


def _apply_correct(s: dict, event: dict) -> None:
    for camp in s["camps"]:
        for d in camp:
            if d["id"] == event["die"]:
                d["face"] = event["face"]
                if event["face"] != "barbarian":  # not a barbarian after all: into the supply
                    camp.remove(d)
                    s["supply"].append(d)
                return
    for d in s["supply"]:
        if d["id"] == event["die"]:
            d["face"] = event["face"]
            if event["face"] == "barbarian":
                s["supply"].remove(d)
                s["camps"][d["owner"]].append(d)
                if s["step"] == "gather" and not s["supply"]:
                    _enter(s, "market")
            return


def _apply_build(s: dict, event: dict) -> None:
    seat = event["seat"]
    b = s["boards"][seat]
    if event.get("define"):
        s["cards"][event["card"]] = event["define"]
    card = s["cards"][event["card"]]
    for r, k in card["cost"].items():
        b["res"][r] -= k
    if card["deck"] != "market" and b["hand"] > 0:
        b["hand"] -= 1
    entry = {"id": event["card"], "name": card["name"], "vp": card["vp"], "effect": card["effect"],
             "deck": card["deck"]}
    if event["card"] == "bard":  # Bards are counted apart: 1 VP each at the end (§6)
        b["bards"] += 1
    elif card["effect"] == "villager":
        _villager_change(b, card["villager"], +1, event.get("resource"))
        b["played"].append(entry)
    elif card["effect"] in ("castle_part", "extra_die", "stays"):
        b["built"].append(entry)
    else:
        b["played"].append(entry)
    _note(s, "castle.note.built", seat, name=b["name"], card=card["name"], vp=card["vp"])


# -- view ------------------------------------------------------------------------------------------
def _prompt(s: dict, seat: int | None) -> dict:
    """What the step is, whose turn it is and what ``seat`` (None: a spectator) may do now."""
    step = s["step"]
    if s["finished"]:
        res = s["result"]
        names = ", ".join(s["names"][i] for i in res["winners"])
        return both("castle.prompt.end", winner=names)
    cur = current(s)
    p = s["pending"]
    params: dict[str, Any] = {"round": s["round"], "step": "@castle.step." + step}
    head = both("castle.prompt.head", **params)
    key = "castle.prompt." + step
    extra: dict[str, Any] = {}
    if p:
        key = "castle.prompt.pending_" + p["kind"]
        extra = {"name": s["names"][p["seat"]]}
        if p["kind"] == "farmer":
            extra["animal"] = "@castle.animal." + p["animal"]
            extra["farmers"] = s["boards"][p["seat"]]["villagers"]["farmer"]
        if seat == p["seat"]:
            key += ".you"
    elif step == "first_player":
        extra = {"names": ", ".join(s["names"][i] for i in s["contenders"])}
    elif cur is not None:
        b = s["boards"][cur]
        extra = {"name": b["name"]}
        if step == "draw":
            extra["limit"] = hand_limit(s, cur)
        if step == "choose_dice":
            extra["n"] = extra_dice(s, cur)
        if b["bot"]:
            key += ".bot"
        elif seat == cur:
            key += ".you"
    elif step in ("roll", "merchants", "build", "scoring"):
        waiting = [x["name"] for x in s["boards"] if not (x["rolled"] if step == "roll" else x["done"])]
        extra = {"names": ", ".join(waiting)}
        if seat is not None and not (s["boards"][seat]["rolled"] if step == "roll" else s["boards"][seat]["done"]):
            key += ".you"
            if step == "merchants":
                b = s["boards"][seat]
                extra["n"] = b["villagers"]["merchant"] - b["merchants_used"]
    body = both(key, **extra)
    return {lang: head[lang] + " " + body[lang] for lang in ("el", "en")}


def view(state: dict) -> dict:
    """The public state: the prompt for every phone, the live scoreboard, the tray and the end."""
    s = state
    live = score(s)
    totals = {p["seat"]: p for p in live["players"]}
    powers = {a: holder(s, a) for a in ANIMALS}
    boards = []
    for i, b in enumerate(s["boards"]):
        vc = villager_counts(b)
        boards.append({
            "seat": i, "name": b["name"], "bot": b["bot"], "res": dict(b["res"]), "animals": dict(b["animals"]),
            "villagers": vc, "villager_total": sum(vc.values()), "guards": list(b["guards"]),
            "worker_slots": list(RES[: b["villagers"]["worker"]]), "hand": b["hand"],
            "hand_limit": hand_limit(s, i), "market_cards": b["market_cards"], "bards": b["bards"],
            "built": b["built"], "played": b["played"], "pool": dict(b["pool"]),
            "barbarians": len(s["camps"][i]), "camp": s["camps"][i], "rolled": b["rolled"], "done": b["done"],
            "pork_out": b["pork_out"], "farmer_used": b["farmer_used"],
            "merchants_left": b["villagers"]["merchant"] - b["merchants_used"],
            "extra_dice": extra_dice(s, i), "priority": b["priority"],
            "vp": totals[i]["total"] if i in totals else None,
            "vp_parts": totals[i]["parts"] if i in totals else [],
            "powers": [a for a in ANIMALS if powers[a] == i],
        })
    cur = current(s)
    rnd = s["edition"]["rounds"].get(str(s["round"]), {})
    seats = list(range(_n(s)))
    return {
        "game": NAME,
        "round": s["round"], "rounds": 7, "step": s["step"], "steps": list(STEPS),
        "feast": s["round"] in s["edition"]["feast_rounds"],
        "first": s["first"], "start_player": s.get("start_player"), "order": list(s["order"]), "turn_seat": cur,
        "names": list(s["names"]), "solo": s["bot"] is not None, "bot_seat": s["bot"],
        "pending": s["pending"], "contenders": list(s["contenders"]),
        "prompt": _prompt(s, None),
        "prompts": {str(i): _prompt(s, i) for i in seats},
        "actions": {"host": legal_actions(s, Actor("host")),
                    **{str(i): legal_actions(s, Actor("player", i)) for i in _humans(s)}},
        "board": boards, "powers": powers, "pig_used": s["pig_used"],
        "supply": list(s["supply"]), "bank": dict(s["bank"]), "animal_bank": s.get("animal_bank"),
        "dice_total": s["edition"]["total"], "dice_accounted": dice_total(s),
        "round_dice": {"fixed": rnd.get("fixed", {}), "extra": rnd.get("extra", 0)},
        "die_faces": {t: list(s["edition"]["dice"][t]["faces"]) for t in RES},
        "solo_faces": list(s["edition"]["solo_faces"]),
        "cards": s["cards"],
        "notices": [{"n": x["n"], "seat": x["seat"], **both(x["key"], **x["params"])} for x in s["notices"]],
        "score": live,
        "finished": s["finished"], "result": s["result"],
        "winner": ([s["names"][i] for i in s["result"]["winners"]] if s["result"] else None),
    }


def legal_actions(state: dict, actor: Actor) -> list[str]:
    """The action types ``actor`` may send now (the phone shows these buttons)."""
    s = state
    if actor.role == "spectator":
        return []
    if s["finished"]:
        return []  # the table accepts nothing but an undo after the end
    mine = actor.role in ("host", "device")
    seat = actor.seat
    acts: list[str] = []
    p = s["pending"]
    cur = current(s)
    if p:
        if mine or seat == p["seat"]:
            acts += ["farmer_bonus" if p["kind"] == "farmer" else "villager_choice", "skip", "done"]
    else:
        step = s["step"]
        if step == "first_player":
            waiting = [i for i in s["contenders"] if s["boards"][i]["first_roll"] is None]
            if mine or seat in waiting or s["bot"] in waiting:
                acts += ["first_roll", "next"]
            if actor.role == "host":
                acts.append("set_first")
        elif step in ("draw", "choose_dice", "gather", "market") and (
                mine or seat == cur or (cur is not None and s["boards"][cur]["bot"])):
            bot = cur is not None and s["boards"][cur]["bot"]
            acts += {"draw": ["draw_cards", "done"],
                     "choose_dice": ["bot_choose", "next"] if bot else ["choose_dice"],
                     "gather": ["next"] if bot else ["take", "pork_chops"],
                     "market": ["sell_sets", "done"]}[step]
            if step == "gather" and not bot and not s["supply"]:
                acts.append("next")
        elif step == "roll" and (mine or (seat is not None and not all(
                s["boards"][i]["rolled"] for i in (seat, s["bot"]) if i is not None))):
            acts += ["roll", "next"]
        elif step in ("merchants", "build") and (mine or (seat is not None and not s["boards"][seat]["done"])):
            acts += (["upgrade"] if step == "merchants" else ["build"]) + ["done", "next"]
        elif step == "scoring" and (mine or (seat is not None and not s["boards"][seat]["done"])):
            acts += ["done", "next"]
    if s["supply"] or any(s["camps"]):
        acts.append("correct_die")
    if actor.role != "device":
        acts += ["bards", "adjust", "card_edit"]
    return acts


def undoable(event: dict) -> bool:
    """The table's hold-to-undo button may take back dice events (rolls, picks, corrections)."""
    return event["type"] in ("roll", "take", "pork_chops", "correct_die", "first_roll", "skip", "done",
                             "end_step", "set_first")
