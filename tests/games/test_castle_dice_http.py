"""A full scripted 7-round Castle Dice game for 3 players through the real HTTP API: each phone acts
with its own seat token, rolls are typed in (as a phone does), dice are drafted in turn order, cards
built, merchants used, and the end screen checked. Run on the Flask test client and once against a
real ``python -m companion serve`` process."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.store import EventStore
from companion.table import Table

RES = ["wood", "stone", "gold", "land", "iron"]
ANIMALS = ["horse", "pig", "cow", "chicken"]
ROOT = Path(__file__).resolve().parents[2]


class FlaskClient:
    def __init__(self, app):
        self.c = app.test_client()

    def get(self, path):
        r = self.c.get(path)
        return r.status_code, r.get_json()

    def post(self, path, body, token=None, lang="en"):
        headers = {"X-Lang": lang}
        if token:
            headers["Authorization"] = "Bearer " + token
        r = self.c.post(path, json=body, headers=headers)
        return r.status_code, r.get_json()


class HttpClient:
    def __init__(self, base):
        import requests

        self.base, self.s = base, requests.Session()

    def get(self, path):
        r = self.s.get(self.base + path, timeout=10)
        return r.status_code, r.json()

    def post(self, path, body, token=None, lang="en"):
        headers = {"X-Lang": lang}
        if token:
            headers["Authorization"] = "Bearer " + token
        r = self.s.post(self.base + path, json=body, headers=headers, timeout=10)
        return r.status_code, r.json()


def face_for(faces: list[str], k: int) -> str:
    return faces[k % len(faces)]


def play_scripted_game(client, names=("Άννα", "Ben", "Γιώργος")) -> dict:
    """Plays a whole game; returns the final view. Asserts what the phones show at every step."""
    code, created = client.post("/api/games", {"game": "castle-dice", "players": list(names), "lang": "el"})
    assert code == 201, created
    gid, host = created["id"], created["host_token"]
    tokens = []
    for seat in range(len(names)):
        code, res = client.post("/api/join", {"code": created["join_code"], "seat": seat})
        assert code == 200, res
        tokens.append(res["token"])

    def view():
        code, v = client.get(f"/api/games/{gid}")
        assert code == 200
        assert v["dice_accounted"] == v["dice_total"] == 63
        return v

    def act(seat, action, expect=200):
        token = host if seat is None else tokens[seat]
        code, body = client.post(f"/api/games/{gid}/actions", action, token)
        assert code == expect, (action, body)
        return body

    v = view()
    assert v["step"] == "first_player" and "Ξύλου" in v["prompt"]["el"]
    # Round 1: everybody rolls two wood dice (typed in on the phone); Άννα rolls most wood
    act(0, {"type": "first_roll", "faces": ["wood3", "wood2"]})
    act(1, {"type": "first_roll", "faces": ["wood1", "cow"]})
    v = act(2, {"type": "first_roll", "faces": ["wood2", "barbarian"]})
    assert v["step"] == "draw" and v["first"] == 0

    # a player may not act out of turn, and the refusal is a sentence in the player's language
    code, body = client.post(f"/api/games/{gid}/actions", {"type": "draw_cards", "village": 5}, tokens[1], "el")
    assert code == 403 and "σειρά" in body["error"]

    k = 0
    seen_steps = set()
    checked_refusals = False
    for _ in range(3000):
        v = view()
        if v["finished"]:
            break
        step, cur, p = v["step"], v["turn_seat"], v["pending"]
        seen_steps.add(step)
        if cur is not None and not v["board"][cur]["bot"]:
            assert v["prompts"][str(cur)]["en"].split(":", 1)[1].strip()  # every phone has a prompt
        if p:
            b = v["board"][p["seat"]]
            if p["kind"] == "farmer":
                n = 2 if b["villagers"]["farmer"] >= 3 else 1
                act(p["seat"], {"type": "farmer_bonus", "animals": ["horse", "pig"][:n]})
            else:
                act(p["seat"], {"type": "skip"})
            continue
        if step == "draw":
            b = v["board"][cur]
            need = b["hand_limit"] - b["hand"]
            if need < 0:
                act(cur, {"type": "draw_cards", "discard": -need})
            else:
                act(cur, {"type": "draw_cards", "castle": need // 2, "village": need - need // 2})
        elif step == "choose_dice":
            b = v["board"][cur]
            want, bank = b["extra_dice"], dict(v["bank"])
            pick: dict[str, int] = {}
            order = ["gold", "land", "iron", "stone", "wood"]
            i = v["round"] + cur
            while sum(pick.values()) < min(want, sum(bank.values())):
                typ = order[i % 5]
                i += 1
                if bank[typ] > 0:
                    bank[typ] -= 1
                    pick[typ] = pick.get(typ, 0) + 1
            act(cur, {"type": "choose_dice", "dice": pick})
        elif step == "roll":
            for seat in v["order"]:
                b = v["board"][seat]
                if b["rolled"]:
                    continue
                dice = []
                for typ, n in b["pool"].items():
                    for _ in range(n):
                        k += 1
                        dice.append({"type": typ, "face": face_for(v["die_faces"][typ], k)})
                after = act(seat, {"type": "roll", "dice": dice, "source": "manual"})
                barbarians = sum(1 for d in dice if d["face"] == "barbarian")
                assert after["board"][seat]["barbarians"] == barbarians
                break
        elif step == "gather":
            b = v["board"][cur]
            sup = v["supply"]
            if v["powers"]["pig"] == cur and not v["pig_used"] and sup:
                d = sup[0]
                best = max((f for f in v["die_faces"][d["type"]] if f[-1].isdigit()), key=lambda f: int(f[-1]))
                before = b["res"][d["type"]]
                after = act(cur, {"type": "pork_chops", "die": d["id"], "face": best})
                assert after["board"][cur]["pork_out"]
                assert after["board"][cur]["res"][d["type"]] == min(9, before + int(best[-1]))
                continue

            def value(d):
                f = d["face"]
                if f in ANIMALS:
                    return 2.5
                return int(f[-1]) + RES.index(f[:-1]) * 0.3

            d = max(sup, key=value)
            act(cur, {"type": "take", "die": d["id"]})
        elif step == "market":
            b = v["board"][cur]
            if not v["feast"] and min(b["animals"].values()) > 0:
                act(cur, {"type": "sell_sets", "sets": 1})
            if b["market_cards"]:
                act(cur, {"type": "bards", "count": 1})
            act(cur, {"type": "done"})
        elif step == "merchants":
            for b in v["board"]:
                if b["done"]:
                    continue
                if not checked_refusals and b["res"]["iron"] == 0:
                    code, body = client.post(f"/api/games/{gid}/actions", {"type": "upgrade", "from": "iron"},
                                             tokens[b["seat"]], "en")
                    assert code == 409 and body["error"].startswith("Iron cannot be upgraded")
                    checked_refusals = True
                for _ in range(b["merchants_left"]):
                    frm = next((r for r in RES[:4] if b["res"][r] > 0), None)
                    if frm is None:
                        break
                    b = act(b["seat"], {"type": "upgrade", "from": frm})["board"][b["seat"]]
                act(b["seat"], {"type": "done"})
                break
        elif step == "build":
            for b in v["board"]:
                if b["done"]:
                    continue
                plan = ["worker", "merchant", "guard", "farmer", "tall_keep", "strong_tower", "great_hall",
                        "gate_house", "deep_moat", "royal_chambers", "wall"]
                built_any = True
                while built_any:
                    built_any = False
                    for cid in plan:
                        card = v["cards"][cid]
                        if any(b["res"][r] < n for r, n in card["cost"].items()):
                            continue
                        vil = card.get("villager")
                        if vil and b["villagers"][vil] >= {"worker": 5, "farmer": 3, "merchant": 3, "guard": 5}[vil]:
                            continue
                        action = {"type": "build", "card": cid}
                        if vil == "guard":
                            action["resource"] = next(r for r in reversed(RES) if r not in b["guards"])
                        v = act(b["seat"], action)
                        b = v["board"][b["seat"]]
                        built_any = True
                        break
                act(b["seat"], {"type": "done"})
                break
        else:
            act(None, {"type": "next"})
    else:
        raise AssertionError("the game did not end")

    assert seen_steps >= {"draw", "choose_dice", "roll", "gather", "market", "build"}
    v = view()
    assert v["status"] == "finished" and v["finished"] and v["round"] == 7
    res = v["result"]
    for p in res["players"]:
        assert p["total"] == sum(x["vp"] for x in p["parts"])
    assert v["winner"] == [names[i] for i in res["winners"]]
    assert v["winner"][0] in v["prompt"]["el"] and "Νικητής" in v["prompt"]["el"]
    code, log = client.get(f"/api/games/{gid}/events")
    assert code == 200 and len(log["events"]) > 100
    types = {e["type"] for e in log["events"]}
    assert {"roll", "take", "choose_dice", "draw_cards", "build", "done"} <= types
    return v


def test_scripted_seven_round_game_three_players_flask(tmp_path):
    from web import create_app

    app = create_app(Table(EventStore(tmp_path / "db.sqlite3")))
    v = play_scripted_game(FlaskClient(app))
    assert any(p["parts"] for p in v["result"]["players"])


def test_undo_of_a_pick_through_the_api(tmp_path):
    from web import create_app

    app = create_app(Table(EventStore(tmp_path / "db.sqlite3")))
    c = FlaskClient(app)
    _, created = c.post("/api/games", {"game": "castle-dice", "players": ["A", "B"],
                                       "options": {"first_player": 0}})
    gid, host = created["id"], created["host_token"]
    for _ in range(40):
        _, v = c.get(f"/api/games/{gid}")
        if v["step"] == "gather":
            break
        if v["step"] == "choose_dice":
            c.post(f"/api/games/{gid}/actions", {"type": "choose_dice", "dice": {"wood": 2}}, host)
        else:
            c.post(f"/api/games/{gid}/actions", {"type": "next"}, host)
    assert v["step"] == "gather"
    d = v["supply"][0]
    code, after = c.post(f"/api/games/{gid}/actions", {"type": "take", "die": d["id"]}, host)
    assert code == 200 and len(after["supply"]) == len(v["supply"]) - 1
    code, back = c.post(f"/api/games/{gid}/actions", {"type": "undo"}, host)
    assert code == 200 and back["supply"] == v["supply"] and back["board"] == v["board"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_scripted_game_against_a_real_server(tmp_path):
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--data", str(tmp_path / "data"), "--pins", "mock", "--camera", "none"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        import requests

        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                if requests.get(base + "/api/health", timeout=1).ok:
                    break
            except requests.RequestException:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not start: " + proc.stderr.read(2000).decode(errors="replace"))
        play_scripted_game(HttpClient(base))
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_solo_game_against_lakis_played_from_the_players_phone(tmp_path):
    """Solo mode (§2.3): one phone plays the whole game, running Lakis's turns with one tap each."""
    from web import create_app

    c = FlaskClient(create_app(Table(EventStore(tmp_path / "db.sqlite3"))))
    _, created = c.post("/api/games", {"game": "castle-dice", "players": ["Άννα"],
                                       "options": {"first_player": 0, "solo_thresholds": [0, 3, 6, 9]}})
    gid = created["id"]
    _, me = c.post("/api/join", {"code": created["join_code"], "seat": 0})
    tok = me["token"]
    for _ in range(2000):
        _, v = c.get(f"/api/games/{gid}")
        if v["finished"]:
            break
        assert v["solo"] and v["names"] == ["Άννα", "Lakis"]
        cur = v["turn_seat"]
        if v["step"] == "choose_dice" and not v["pending"] and cur == 0:
            n, bank, pick = v["board"][0]["extra_dice"], dict(v["bank"]), {}
            for _ in range(min(n, sum(bank.values()))):
                typ = max(bank, key=bank.get)
                bank[typ] -= 1
                pick[typ] = pick.get(typ, 0) + 1
            action = {"type": "choose_dice", "dice": pick}
        elif v["step"] == "gather" and not v["pending"] and cur == 0 and v["supply"]:
            action = {"type": "take", "die": v["supply"][0]["id"]}
        else:
            action = {"type": "next"}
        code, body = c.post(f"/api/games/{gid}/actions", action, tok)
        assert code == 200, (v["step"], action, body)
    assert v["finished"] and v["result"]["solo_result"] in ("big_loss", "loss", "win", "big_win", "epic_win")
    assert v["board"][1]["market_cards"] == 3  # one per feast round
    assert {"kind": "lakis_market", "count": 3, "vp": -3} in v["result"]["players"][0]["parts"]
