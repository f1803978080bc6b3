"""BG Stats JSON and CSV export of a finished Castle Dice game."""

from __future__ import annotations

import csv
import doctest
import io
import json
import random

import pytest

from companion.games import Actor
from companion.games import castle_dice as cd
from companion.games import castle_dice_export as ex

HOST = Actor("host")


def finished_game(names=("Ana", "Ben", "Cat"), seed=5) -> dict:
    r = random.Random(seed)
    s = cd.setup(list(names), {})
    for _ in range(3000):
        if s["finished"]:
            return s
        cur = cd.current(s)
        if s["step"] == "choose_dice" and not s["pending"] and not s["boards"][cur]["bot"]:
            a = {"type": "choose_dice", "dice": {"gold": cd.extra_dice(s, cur)}}
            if s["bank"]["gold"] < cd.extra_dice(s, cur):
                a = {"type": "choose_dice", "dice": {"wood": cd.extra_dice(s, cur)}}
        elif s["step"] == "gather" and not s["pending"] and not s["boards"][cur]["bot"] and s["supply"]:
            a = {"type": "take", "die": r.choice(s["supply"])["id"]}
        elif s["step"] == "build" and r.random() < 0.5:
            a = {"type": "build", "seat": r.randrange(s["humans"]), "card": r.choice(["wall", "royal_chambers", "gate_house"])}
        else:
            a = {"type": "next"}
        try:
            s = cd.apply(s, cd.decide(s, a, HOST, r))
        except cd.RuleError:
            s = cd.apply(s, cd.decide(s, {"type": "next"}, HOST, r))
    raise AssertionError("not finished")


def test_doctests():
    assert doctest.testmod(ex).failed == 0


def test_bgstats_json_from_state_and_view_agree():
    s = finished_game()
    a = ex.export_bgstats(s, when="2026-11-29 21:00:00", game_id="g1")
    b = ex.export_bgstats(cd.view(s), when="2026-11-29 21:00:00", game_id="g1")
    assert a == b
    json.dumps(a)  # JSON-able
    play = a["plays"][0]
    assert a["games"][0]["name"] == "Castle Dice" and play["gameRefId"] == 1
    assert len(play["playerScores"]) == 3 == len(a["players"])
    winners = [x for x in play["playerScores"] if x["winner"]]
    assert winners and all(x["rank"] == 1 for x in winners)
    by_ref = {p["id"]: p["name"] for p in a["players"]}
    for ps, p in zip(play["playerScores"], s["result"]["players"], strict=True):
        assert by_ref[ps["playerRefId"]] == p["name"] and int(ps["score"]) == p["total"]
    assert sum(x["startPlayer"] for x in play["playerScores"]) == 1


def test_csv_rows_sum_to_the_score():
    s = finished_game(seed=9)
    rows = list(csv.DictReader(io.StringIO(ex.export_csv(s, when="2026-11-29 21:00:00"))))
    assert [r["player"] for r in rows] == ["Ana", "Ben", "Cat"]
    for r in rows:
        assert int(r["score"]) == sum(int(r[k]) for k in ex.PART_KINDS)
    assert sum(int(r["winner"]) for r in rows) >= 1


def test_solo_export_marks_lakis():
    s = finished_game(names=("Ana",), seed=2)
    out = ex.export_bgstats(s, when="2026-11-29 21:00:00")
    assert len(out["plays"][0]["playerScores"]) == 1 and "Lakis" in out["plays"][0]["comments"]


def test_a_running_game_exports_its_live_score_marked_unfinished():
    s = cd.setup(["Ana", "Ben"], {"first_player": 0})
    out = ex.export_bgstats(s, when="2026-11-29 21:00:00")
    assert out["plays"][0]["ignored"] and "unfinished" in out["plays"][0]["comments"]
    rows = list(csv.DictReader(io.StringIO(ex.export_csv(cd.view(s)))))
    assert [r["finished"] for r in rows] == ["0", "0"]
    with pytest.raises(ex.NotFinished):
        ex.export_bgstats({"names": ["Ana"]})


def test_export_routes_of_the_api(tmp_path):
    from companion.store import EventStore
    from companion.table import Table
    from web import create_app

    table = Table(EventStore(tmp_path / "db.sqlite3"))
    c = create_app(table).test_client()
    created = c.post("/api/games", json={"game": "castle-dice", "players": ["Ana", "Ben"]}).get_json()
    gid = created["id"]
    live = table._load(gid)
    live.state = finished_game(("Ana", "Ben"), seed=4)  # a finished game behind the same id
    r = c.get(f"/api/games/{gid}/export/bgstats.json")
    assert r.status_code == 200 and r.get_json()["plays"][0]["playerScores"]
    r = c.get(f"/api/games/{gid}/export/csv")
    assert r.status_code == 200 and r.data.decode().startswith("game,date,player")
