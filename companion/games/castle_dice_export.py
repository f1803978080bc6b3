"""Export a finished Castle Dice game: BG Stats JSON (the app's import/export file layout) and CSV.

Pure functions over the game's view (``GET /api/games/<id>``) or its raw state: both carry
``result`` (the score breakdown) and ``names``. Nothing here computes a score: it copies the one the
rules module logged.

>>> from companion.games import castle_dice as cd
>>> s = cd.setup(["Ana", "Ben"], {"first_player": 0})
>>> s["boards"][1]["res"]["iron"] = 2
>>> s["result"], s["finished"] = cd.score(s), True
>>> out = export_bgstats(s, when="2026-01-02 20:00:00", game_id="abc")
>>> [p["name"] for p in out["players"]], out["plays"][0]["playDate"]
(['Ana', 'Ben'], '2026-01-02 20:00:00')
>>> [(x["playerRefId"], x["winner"], x["rank"]) for x in out["plays"][0]["playerScores"]]
[(1, False, 2), (2, True, 1)]
>>> print(export_csv(s, when="2026-01-02 20:00:00").splitlines()[0])
game,date,player,seat,start_player,score,winner,rank,castle,bards,most_animals,most_villagers,lakis_market,wood,stone,gold,land,iron,animals,villagers,finished
"""

from __future__ import annotations

import csv
import io
import time
import uuid
from typing import Any

GAME_NAME = "Castle Dice"
PART_KINDS = ("castle", "bards", "most_animals", "most_villagers", "lakis_market")
RES = ("wood", "stone", "gold", "land", "iron")
_NS = uuid.UUID("6c1d2a5e-3b7f-4c3a-9a51-0c1a57ed1ce0")


class NotFinished(ValueError):
    """The data holds no score at all (neither a final nor a live one)."""


def _result(game: dict) -> dict:
    """The logged final score; for a game still running, the rules' live score (marked unfinished)."""
    res = game.get("result")
    if game.get("finished") and res:
        return res
    live = game.get("score")  # a view carries the live score
    if not isinstance(live, dict) or "players" not in live:
        if "boards" not in game:
            raise NotFinished("neither a final nor a live score in this game")
        from companion.games.castle_dice import score

        live = score(game)
    return {**live, "unfinished": True}


def _ranks(players: list[dict], winners: list[int]) -> dict[int, int]:
    """Rank 1 for the winner(s) (tie-break applied), then by total; equal totals share a rank."""
    ranks = {}
    others = sorted((p for p in players if p["seat"] not in winners), key=lambda p: -p["total"])
    for p in players:
        if p["seat"] in winners:
            ranks[p["seat"]] = 1
    rank = len(winners) + 1
    prev = None
    for i, p in enumerate(others):
        if prev is None or p["total"] != prev:
            rank = len(winners) + 1 + i
        ranks[p["seat"]] = rank
        prev = p["total"]
    return ranks


def export_bgstats(game: dict, *, when: str | None = None, game_id: str | None = None,
                   duration_min: int | None = None, bgg_id: int | None = None,
                   location: str | None = None) -> dict[str, Any]:
    """The finished game as a BG Stats import file: ``{"games", "players", "locations", "plays"}``.

    ``when`` is the play date as "YYYY-MM-DD HH:MM:SS" (default: now, local time); ``bgg_id`` the
    BoardGameGeek id of Castle Dice if known (BG Stats links the game by it)."""
    res = _result(game)
    players = res["players"]
    names = game.get("names") or [p["name"] for p in players]
    start = game.get("start_player")
    ranks = _ranks(players, res["winners"])
    key = str(game_id or game.get("id") or "")
    play_uuid = str(uuid.uuid5(_NS, "play:" + key + ":" + (when or ""))) if key else str(uuid.uuid4())
    out_players = [{"id": i + 1, "name": p["name"], "isAnonymous": False,
                    "uuid": str(uuid.uuid5(_NS, "player:" + p["name"]))} for i, p in enumerate(players)]
    ref = {p["seat"]: i + 1 for i, p in enumerate(players)}
    scores = []
    for p in players:
        parts = ", ".join(f"{x['kind']} {x['vp']:+d}" for x in p["parts"])
        scores.append({
            "playerRefId": ref[p["seat"]], "score": str(p["total"]), "winner": p["seat"] in res["winners"],
            "rank": ranks[p["seat"]], "seatOrder": p["seat"] + 1, "startPlayer": p["seat"] == start,
            "newPlayer": False, "role": "", "team": "", "notes": parts,
        })
    board = "solo vs Lakis" if game.get("bot_seat") is not None or game.get("bot") is not None else ""
    notes = []
    if res.get("tie_broken_by"):
        notes.append(f"tie broken by most {res['tie_broken_by']}")
    if res.get("shared"):
        notes.append("shared win")
    if res.get("solo_result"):
        notes.append(f"solo result: {res['solo_result']}")
    if len(names) > len(players):
        notes.append("opponent: Lakis (solo bot)")
    if res.get("unfinished"):
        notes.append(f"unfinished: exported during round {game.get('round', '?')}")
    play = {
        "uuid": play_uuid, "gameRefId": 1,
        "playDate": when or time.strftime("%Y-%m-%d %H:%M:%S"),
        "entryDate": when or time.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": int(duration_min or 0), "ignored": bool(res.get("unfinished")), "manualWinner": False, "rounds": 7,
        "usesTeams": False, "board": board, "scoringSetting": 0, "comments": "; ".join(notes),
        "playerScores": scores,
    }
    out: dict[str, Any] = {
        "games": [{"id": 1, "name": GAME_NAME, "bggName": GAME_NAME, "bggId": bgg_id or 0,
                   "uuid": str(uuid.uuid5(_NS, "game:castle-dice")), "highestWins": True, "cooperative": False,
                   "noPoints": False, "usesTeams": False, "minPlayerCount": 1, "maxPlayerCount": 4}],
        "players": out_players,
        "locations": [],
        "plays": [play],
        "userInfo": {"meRefId": None},
    }
    if location:
        out["locations"] = [{"id": 1, "name": location, "uuid": str(uuid.uuid5(_NS, "loc:" + location))}]
        play["locationRefId"] = 1
    return out


def export_csv(game: dict, *, when: str | None = None) -> str:
    """One row per player: score, winner, rank, every logged score part, final resources."""
    res = _result(game)
    players = res["players"]
    ranks = _ranks(players, res["winners"])
    start = game.get("start_player")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["game", "date", "player", "seat", "start_player", "score", "winner", "rank", *PART_KINDS, *RES,
                "animals", "villagers", "finished"])
    date = when or time.strftime("%Y-%m-%d %H:%M:%S")
    for p in players:
        parts = {k: sum(x["vp"] for x in p["parts"] if x["kind"] == k) for k in PART_KINDS}
        w.writerow([GAME_NAME, date, p["name"], p["seat"] + 1, int(p["seat"] == start), p["total"],
                    int(p["seat"] in res["winners"]), ranks[p["seat"]], *(parts[k] for k in PART_KINDS),
                    *(p["res"][r] for r in RES), p["animals"], p["villagers"], int(not res.get("unfinished"))])
    return buf.getvalue()
