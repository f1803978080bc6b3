"""The real server process: SIGKILL mid-session loses nothing; the live channel pushes every draw."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import requests


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def new_game(url, players=("Άννα", "Ben", "Γιώργος")):
    res = requests.post(f"{url}/api/games", json={"game": "augustus", "players": list(players)}, timeout=10)
    assert res.status_code == 201
    return res.json()


def test_sigkill_mid_session_then_restart_resumes_exactly(server_factory):
    srv = server_factory().start()
    game = new_game(srv.url)
    other = new_game(srv.url, ("X", "Y"))
    acts = f"{srv.url}/api/games/{game['id']}/actions"
    seat = requests.post(f"{srv.url}/api/join", json={"code": game["join_code"], "seat": 0}, timeout=10).json()
    acknowledged = []
    for i in range(40):
        res = requests.post(acts, json={"type": "draw"}, headers=bearer(seat["token"]), timeout=10)
        if res.status_code == 403:  # the herald moved on after a joker: the host keeps drawing
            res = requests.post(acts, json={"type": "draw"}, headers=bearer(game["host_token"]), timeout=10)
        assert res.status_code == 200
        acknowledged.append(res.json()["herald"]["draws"])
        if i == 20:
            requests.post(acts, json={"type": "undo"}, headers=bearer(game["host_token"]), timeout=10)
    # keep drawing in the background and kill the process in the middle of it
    stop = threading.Event()
    last_ack = {}

    def hammer():
        while not stop.is_set():
            try:
                res = requests.post(acts, json={"type": "draw"}, headers=bearer(game["host_token"]), timeout=5)
            except requests.RequestException:
                return
            if res.ok:
                last_ack["state"] = res.json()

    worker = threading.Thread(target=hammer)
    worker.start()
    time.sleep(0.5)
    before_state = requests.get(f"{srv.url}/api/games/{game['id']}", timeout=10).json()
    srv.kill()
    stop.set()
    worker.join(10)
    assert last_ack, "no draw was acknowledged while the server ran"

    # what the disk holds is at least every acknowledged action
    db = sqlite3.connect(srv.data_dir / "companion.sqlite3")
    (max_seq,) = db.execute("SELECT MAX(seq) FROM events WHERE game_id=?", (game["id"],)).fetchone()
    db.close()
    # (the GET and the last acknowledgement race each other, so each is compared with the disk alone)
    assert max_seq >= last_ack["state"]["version"], "an acknowledged draw is missing from the disk"
    assert max_seq >= before_state["version"], "a state that was served is missing from the disk"

    srv2 = server_factory().start()
    after_events = requests.get(f"{srv2.url}/api/games/{game['id']}/events", timeout=10).json()["events"]
    after_state = requests.get(f"{srv2.url}/api/games/{game['id']}", timeout=10).json()
    assert len(after_events) == max_seq + 1
    assert after_state["version"] == max_seq
    # the state equals the fold of the log: replay it by hand
    bag = dict(after_state["herald"]["full_bag"])
    drawn, herald, draws = [], 0, 0
    undone = {e["target"] for e in after_events if e["type"] == "undo"}
    for e in after_events[1:]:
        if e["type"] != "draw" or e["seq"] in undone:
            continue
        draws += 1
        bag[e["token"]] -= 1
        drawn.append(e["token"])
        if e["token"] == "joker":
            bag, drawn, herald = dict(after_state["herald"]["full_bag"]), [], (herald + 1) % 3
    assert after_state["herald"]["bag"] == bag and after_state["herald"]["drawn"] == drawn
    assert after_state["herald"]["draws"] == draws and after_state["herald"]["herald_seat"] == herald
    # the acknowledged state is a prefix of what was recovered
    if last_ack["state"]["version"] == max_seq:
        assert after_state["herald"] == last_ack["state"]["herald"]
    # seats, tokens and other games survive too
    acts = f"{srv2.url}/api/games/{game['id']}/actions"
    res = requests.post(acts, json={"type": "undo"}, headers=bearer(seat["token"]), timeout=10)
    assert res.status_code in (200, 403)  # the seat token is still known (403 = not their last action)
    assert res.status_code == 200 or "undo" in res.json()["error"].lower()
    games = requests.get(f"{srv2.url}/api/games", timeout=10).json()["games"]
    assert {g["id"] for g in games} == {game["id"], other["id"]}
    # and play goes on
    res = requests.post(acts, json={"type": "draw"}, headers=bearer(game["host_token"]), timeout=10)
    assert res.status_code == 200 and res.json()["herald"]["draws"] == draws + 1


def read_sse(url, states, stop, ready):
    try:
        _read_sse(url, states, stop, ready)
    except requests.RequestException:  # the server stopped at the end of the test
        pass


def _read_sse(url, states, stop, ready):
    with requests.get(url, stream=True, timeout=30) as res:
        ready.set()
        event = None
        for line in res.iter_lines(decode_unicode=True):
            if stop.is_set():
                return
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event == "state":
                states.append((time.monotonic(), json.loads(line[5:])))


def test_live_channel_sends_state_on_connect_and_after_every_draw(server):
    game = new_game(server.url)
    states, stop, ready = [], threading.Event(), threading.Event()
    t = threading.Thread(target=read_sse, args=(f"{server.url}/api/games/{game['id']}/stream", states, stop, ready),
                         daemon=True)
    t.start()
    ready.wait(10)
    deadline = time.monotonic() + 5
    while not states and time.monotonic() < deadline:
        time.sleep(0.05)
    assert states and states[0][1]["herald"]["draws"] == 0  # the current state on connect
    for _ in range(5):
        res = requests.post(f"{server.url}/api/games/{game['id']}/actions", json={"type": "draw"},
                            headers=bearer(game["host_token"]), timeout=10)
        sent = time.monotonic()
        draws = res.json()["herald"]["draws"]
        while not any(s["herald"]["draws"] == draws for _, s in states) and time.monotonic() - sent < 2:
            time.sleep(0.01)
        assert any(s["herald"]["draws"] == draws for _, s in states), f"draw {draws} not pushed within 2 s"
    stop.set()


def test_five_thousand_draws_through_the_api_keep_the_rules(server):
    """The judge's check: between jokers no symbol exceeds its count; after each joker the bag is full
    and the herald is the next player; the first draw after a refill follows 6:5:4:3:2:1:2."""
    game = new_game(server.url)
    full = {"swords": 6, "shield": 5, "chariot": 4, "catapult": 3, "standard": 2, "dagger": 1, "joker": 2}
    acts = f"{server.url}/api/games/{game['id']}/actions"
    session = requests.Session()
    session.headers.update(bearer(game["host_token"]))
    since_joker: Counter = Counter()
    firsts: Counter = Counter()
    herald, first = "Άννα", True
    players = ["Άννα", "Ben", "Γιώργος"]
    for _ in range(5000):
        h = session.post(acts, json={"type": "draw"}, timeout=10).json()["herald"]
        if first:
            firsts[h["last"]] += 1
        first = h["last"] == "joker"
        if h["last"] == "joker":
            assert h["bag"] == full and h["drawn"] == []
            herald = players[(players.index(herald) + 1) % 3]
            since_joker.clear()
        else:
            since_joker[h["last"]] += 1
            assert all(n <= full[t] for t, n in since_joker.items())
        assert h["herald"] == herald
    n = sum(firsts.values())
    chi2 = sum((firsts[t] - n * c / 23) ** 2 / (n * c / 23) for t, c in full.items())
    assert chi2 < 22.458, (chi2, firsts)


@pytest.mark.parametrize("camera", ["none", "synthetic"])
def test_sigterm_ends_open_live_channels_and_stops_at_once(server_factory, camera):
    """Phones keep live channels open; stopping the companion (SIGTERM from systemd, Ctrl-C at
    ``make run``) must not wait for them to hang up."""
    srv = server_factory(("--camera", camera)).start()
    game = new_game(srv.url)
    paths = [f"/api/games/{game['id']}/stream", "/api/camera/events"]
    if camera != "none":
        paths.append("/api/camera/preview.mjpg")
    held = [requests.get(srv.url + p, stream=True, timeout=10) for p in paths]
    assert all(r.status_code == 200 for r in held)
    for r in held:  # each channel has started: its first lines are in
        next(r.iter_content(16))
    srv.proc.terminate()
    try:
        code = srv.proc.wait(15)
    finally:
        for r in held:
            r.close()
    assert code == 0
    srv.log.flush()
    log = Path(srv.log.name).read_text()
    # waitress waits 5 s for busy threads, then gives up with this warning (it did, before the
    # channels ended on stop: each open page held a thread)
    assert "still running" not in log, log[-400:]
