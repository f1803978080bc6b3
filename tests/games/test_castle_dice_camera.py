"""Camera glue for Castle Dice, fed with hand-made roll-watcher updates through a real Table."""

from __future__ import annotations

import doctest
import time
from types import SimpleNamespace

import pytest

from companion.games import Actor
from companion.games import castle_dice_camera as cam
from companion.store import EventStore
from companion.table import Table

HOST = Actor("host")


@pytest.fixture
def table(tmp_path):
    return Table(EventStore(tmp_path / "db.sqlite3"))


def to_roll(table, gid):
    for _ in range(50):
        s = table.state(gid)
        if s["step"] == "roll":
            return s
        if s["step"] == "choose_dice":
            seat = s["order"][s["turn"]]
            if s["boards"][seat]["bot"]:
                table.act(gid, HOST, {"type": "next"})
            else:
                table.act(gid, HOST, {"type": "choose_dice", "dice": {"gold": 2}})
        else:
            table.act(gid, HOST, {"type": "next"})
    raise AssertionError(s["step"])


def faces_for(pool, pattern):
    """One reading entry per die of a pool, faces chosen from ``pattern[type]``."""
    out = []
    for typ, n in pool.items():
        for i in range(n):
            out.append({"type": typ, "face": pattern[typ][i % len(pattern[typ])], "x": 10.0 * i, "y": 5.0})
    return out


PATTERN = {"wood": ["wood2", "barbarian", "cow"], "stone": ["stone1", "chicken"], "gold": ["gold2", "horse"],
           "land": ["land1"], "iron": ["iron2"]}


def test_doctests():
    assert doctest.testmod(cam).failed == 0


def test_rolls_then_picks_from_camera(table):
    gid = table.create_game("castle-dice", ["Ana", "Ben"], {"first_player": 0})["id"]
    glue = cam.CastleCamera(table, gid)
    s = to_roll(table, gid)
    tray: list[dict] = []
    glue.on_update({"state": "settled", "reading": [], "changes": {}})
    barbarians = {}
    for seat in s["order"]:
        pool = table.state(gid)["boards"][seat]["pool"]
        rolled = faces_for(pool, PATTERN)
        if seat == 1:
            rolled[0]["face"] = None  # an unsure die
        tray = tray + rolled
        barbarians[seat] = sum(1 for d in rolled if d["face"] == "barbarian")
        glue.on_update(SimpleNamespace(state="settled", reading=tray, changes={"added": rolled}))
        assert glue.last_error is None, glue.last_error
        # the roller carries the barbarians to the camp
        tray = [d for d in tray if d["face"] != "barbarian"]
        glue.on_reading(tray)
    s = table.state(gid)
    assert s["step"] == "gather"
    assert {seat: len(s["camps"][seat]) for seat in barbarians} == barbarians
    unsure = [d for d in s["supply"] if d["face"] is None]
    assert len(unsure) == 1
    # confirm the unsure die on the phone, and tell the camera glue what is now in the tray
    table.act(gid, Actor("player", 1), {"type": "correct_die", "die": unsure[0]["id"], "face": "wood1"})
    for d in tray:
        if d["face"] is None:
            d["face"] = "wood1"
            break
    glue.previous = cam.die_entries(tray)
    # picks: each die that leaves the tray is credited to whoever's turn it is
    for _ in range(200):
        s = table.state(gid)
        if s["step"] != "gather":
            break
        if s["pending"]:
            table.act(gid, HOST, {"type": "skip"})
            continue
        cur = s["order"][s["turn"]]
        gone = next(d for d in tray if d["face"] == s["supply"][0]["face"] and d["type"] == s["supply"][0]["type"])
        before = table.view(gid)["board"][cur]
        tray.remove(gone)
        glue.on_reading(tray)
        assert glue.last_error is None, glue.last_error
        after = table.view(gid)["board"][cur]
        assert after != before or table.events(gid)[-1]["seat"] == cur  # the picker was credited
    assert table.state(gid)["step"] != "gather" and not tray
    events = [e for e in table.events(gid) if e["type"] in ("roll", "take")]
    assert any(e["type"] == "take" and e.get("source") == "camera" for e in events)
    assert all(e["actor"]["role"] == "device" for e in events if e.get("source") == "camera")


def test_face_change_is_a_logged_correction(table):
    gid = table.create_game("castle-dice", ["Ana", "Ben"], {"first_player": 0})["id"]
    glue = cam.CastleCamera(table, gid)
    s = to_roll(table, gid)
    table.act(gid, HOST, {"type": "next"})  # everybody rolls virtually
    s = table.state(gid)
    tray = [{"type": d["type"], "face": d["face"]} for d in s["supply"]]
    glue.previous = cam.die_entries(tray)
    d0 = s["supply"][0]
    other = next(f for f in s["edition"]["dice"][d0["type"]]["faces"] if f not in (d0["face"], "barbarian"))
    tray[0] = {"type": d0["type"], "face": other}
    glue.on_reading(tray)
    ev = table.events(gid)[-1]
    assert ev["type"] == "correct_die" and ev["die"] == d0["id"] and ev["face"] == other and ev["was"] == d0["face"]


def test_first_player_from_two_wood_dice(table):
    gid = table.create_game("castle-dice", ["Ana", "Ben"], {})["id"]
    glue = cam.CastleCamera(table, gid)
    glue.on_reading([{"type": "wood", "face": "wood3"}, {"type": "wood", "face": "wood2"}])
    glue.on_reading([])
    glue.on_reading([{"type": "wood", "face": "wood1"}, {"type": "wood", "face": "cow"}])
    s = table.state(gid)
    assert s["step"] == "draw" and s["first"] == 0


def test_solo_die_for_lakis(table):
    gid = table.create_game("castle-dice", ["Ana"], {"first_player": 0})["id"]
    glue = cam.CastleCamera(table, gid)
    for _ in range(20):
        s = table.state(gid)
        if s["step"] == "choose_dice" and s["order"][s["turn"]] == 1:
            break
        if s["step"] == "choose_dice":
            table.act(gid, HOST, {"type": "choose_dice", "dice": {"gold": 2}})
        else:
            table.act(gid, HOST, {"type": "next"})
    need = s["edition"]["rounds"]["1"]["extra"]
    rolls = ["barn", "iron"] + ["stone"] * (need - 2)
    for f in rolls:
        glue.on_reading([{"type": "solo", "face": f}])
    s = table.state(gid)
    assert s["boards"][1]["bot_choices"][:2] == ["iron", "iron"]


def test_refusals_are_kept_not_raised(table):
    gid = table.create_game("castle-dice", ["Ana", "Ben"], {"first_player": 0})["id"]
    glue = cam.CastleCamera(table, gid)
    to_roll(table, gid)
    glue.on_reading([{"type": "wood", "face": "wood1"}] * 30)  # far too many dice for one player
    assert glue.last_error and table.state(gid)["step"] == "roll"


def test_other_games_are_ignored(table):
    gid = table.create_game("augustus", ["Ana", "Ben"], {})["id"]
    glue = cam.CastleCamera(table, gid)
    glue.on_reading([{"type": "wood", "face": "wood1"}])
    assert glue.sent == []


def test_camera_fed_seven_round_game_three_players_over_http(tmp_path):
    """Every roll and every pick of a whole 3-player game comes from (hand-made) roll-watcher
    updates of a simulated tray; the phones do the rest through the HTTP API."""
    from web import create_app

    table = Table(EventStore(tmp_path / "db.sqlite3"))
    client = create_app(table).test_client()
    r = client.post("/api/games", json={"game": "castle-dice", "players": ["Άννα", "Ben", "Γιώργος"]})
    created = r.get_json()
    gid, host = created["id"], created["host_token"]
    tokens = [client.post("/api/join", json={"code": created["join_code"], "seat": i}).get_json()["token"]
              for i in range(3)]
    glue = cam.CastleCamera(table)  # follows the table's active game

    def view():
        return client.get(f"/api/games/{gid}").get_json()

    def act(seat, action):
        res = client.post(f"/api/games/{gid}/actions", json=action,
                          headers={"Authorization": "Bearer " + (host if seat is None else tokens[seat])})
        assert res.status_code == 200, (action, res.get_json())
        return res.get_json()

    tray: list[dict] = []
    k = 0
    # round 1: two wood dice each, read by the camera
    for pair in (["wood3", "wood2"], ["wood1", "cow"], ["wood2", "barbarian"]):
        glue.on_reading([{"type": "wood", "face": f} for f in pair])
        glue.on_reading([])
    assert view()["first"] == 0
    for _ in range(4000):
        v = view()
        if v["finished"]:
            break
        step, cur, p = v["step"], v["turn_seat"], v["pending"]
        if p and p["kind"] == "cow":
            act(p["seat"], {"type": "skip"})
        elif p:
            act(p["seat"], {"type": "farmer_bonus", "animals": ["cow", "pig"][: 2 if v["board"][p["seat"]]["villagers"]["farmer"] >= 3 else 1]})
        elif step == "draw":
            act(cur, {"type": "done"})
        elif step == "choose_dice":
            n = v["board"][cur]["extra_dice"]
            pick, bank = {}, dict(v["bank"])
            for i in range(min(n, sum(bank.values()))):
                typ = max(["iron", "land", "gold", "stone", "wood"], key=lambda t: (bank[t], i % 2 == 0 and t == "iron"))
                bank[typ] -= 1
                pick[typ] = pick.get(typ, 0) + 1
            act(cur, {"type": "choose_dice", "dice": pick})
        elif step == "roll":
            seat = next(i for i in v["order"] if not v["board"][i]["rolled"])
            rolled = []
            for typ, n in v["board"][seat]["pool"].items():
                for _ in range(n):
                    k += 7
                    rolled.append({"type": typ, "face": v["die_faces"][typ][k % 6]})
            tray = tray + rolled
            glue.on_update({"state": "settled", "reading": list(tray), "changes": {"added": rolled}})
            after = view()
            assert after["board"][seat]["rolled"], glue.last_error
            assert after["board"][seat]["barbarians"] == sum(d["face"] == "barbarian" for d in rolled)
            tray = [d for d in tray if d["face"] != "barbarian"]  # carried to the camp
            glue.on_reading(list(tray))
        elif step == "gather":
            assert len(tray) == len(v["supply"])
            best = max(v["supply"], key=lambda d: (d["face"][-1].isdigit() and int(d["face"][-1]), d["id"]))
            entry = next(d for d in tray if d["type"] == best["type"] and d["face"] == best["face"])
            n_events = len(table.events(gid))
            tray.remove(entry)
            glue.on_reading(list(tray))
            assert glue.last_error is None, glue.last_error
            took = table.events(gid)[n_events]
            assert took["type"] == "take" and took["seat"] == cur and took["actor"]["role"] == "device"
            assert len(view()["supply"]) == len(v["supply"]) - 1
        elif step == "market":
            act(cur, {"type": "done"})
        elif step in ("merchants", "build"):
            for b in v["board"]:
                if b["done"]:
                    continue
                if step == "build":
                    for cid in ("worker", "guard", "merchant", "gate_house", "wall"):
                        card = v["cards"][cid]
                        vil = card.get("villager")
                        if all(b["res"][r] >= n for r, n in card["cost"].items()) and not (
                                vil and b["villagers"][vil] >= {"worker": 5, "guard": 5, "merchant": 3}[vil]):
                            a = {"type": "build", "card": cid}
                            if vil == "guard":
                                a["resource"] = next(r for r in ("iron", "land", "gold", "stone", "wood") if r not in b["guards"])
                            act(b["seat"], a)
                            break
                    else:
                        act(b["seat"], {"type": "done"})
                else:
                    frm = next((r for r in ("wood", "stone", "gold", "land") if b["res"][r]), None)
                    if frm and b["merchants_left"]:
                        act(b["seat"], {"type": "upgrade", "from": frm})
                    else:
                        act(b["seat"], {"type": "done"})
                break
        else:
            act(None, {"type": "next"})
    v = view()
    assert v["finished"] and v["status"] == "finished" and v["winner"]
    events = client.get(f"/api/games/{gid}/events").get_json()["events"]
    camera = [e for e in events if e["actor"]["role"] == "device"]
    rolls = [e for e in camera if e["type"] == "roll"]
    takes = [e for e in camera if e["type"] == "take"]
    assert len(rolls) == 7 * 3 and len(takes) > 7 * 3 * 4
    assert not [e for e in events if e["type"] == "roll" and e["actor"]["role"] != "device"]


def test_attach_wires_readings_and_switches_the_reader(table):
    class FakeRuntime:
        def __init__(self):
            self.listeners, self.readers = [], []

        def on_reading(self, fn):
            self.listeners.append(fn)

        def set_reader(self, fn):
            self.readers.append(fn)

    class FakeReader:
        def read(self, image):
            return {"dice": [], "tokens": []}

    app = SimpleNamespace(extensions={"camera": FakeRuntime()})
    glue = cam.attach(app, table, reader_factory=FakeReader)
    runtime = app.extensions["camera"]
    assert glue is app.extensions["castle_camera"] and runtime.listeners == [glue.on_reading]
    assert runtime.readers == []  # no Castle Dice game yet
    gid = table.create_game("castle-dice", ["Ana", "Ben"], {"first_player": 0})["id"]
    table.act(gid, HOST, {"type": "next"})
    assert glue.reader_ready(timeout=30)  # (the set is opened beside the game, not in the action)
    assert len(runtime.readers) == 1 and runtime.readers[0]({}) == {"dice": [], "tokens": []}
    table.act(gid, HOST, {"type": "next"})
    assert len(runtime.readers) == 1
    assert cam.attach(SimpleNamespace(extensions={}), table) is None


def test_a_new_castle_game_switches_the_reader_before_its_first_action(table):
    """The first roll of a game (who plays first) may come from the camera, before any action:
    the tray must be read with the Castle Dice set by then, not with pip dice."""
    readers = []

    class FakeReader:
        def read(self, image):
            return {"dice": [], "tokens": []}

    runtime = SimpleNamespace(on_reading=lambda fn: None, set_reader=readers.append)
    glue = cam.attach(SimpleNamespace(extensions={"camera": runtime}), table, reader_factory=FakeReader)
    table.create_game("augustus", ["Ana", "Ben"])
    assert glue.reader_ready(timeout=30) and readers == []  # not for another game
    table.create_game("castle-dice", ["Ana", "Ben"], {"first_player": 0})
    assert glue.reader_ready(timeout=30)
    assert len(readers) == 1


def test_a_slow_set_does_not_hold_up_the_first_action(table):
    """Learning the Castle Dice set takes seconds (more on a Pi, the first time after an
    update): the action that brings the game on is answered at once, the reader comes later."""
    import threading
    import time

    gate = threading.Event()

    class SlowReader:
        def __init__(self):
            gate.wait(10)

        def read(self, image):
            return {"dice": [], "tokens": []}

    readers = []
    runtime = SimpleNamespace(on_reading=lambda fn: None, set_reader=readers.append)
    glue = cam.attach(SimpleNamespace(extensions={"camera": runtime}), table, reader_factory=SlowReader)
    gid = table.create_game("castle-dice", ["Ana", "Ben"], {"first_player": 0})["id"]
    t0 = time.monotonic()
    table.act(gid, HOST, {"type": "next"})
    assert time.monotonic() - t0 < 2.0 and readers == [] and not glue.reader_ready(timeout=0)
    gate.set()
    assert glue.reader_ready(timeout=10) and len(readers) == 1


def test_the_tray_reads_with_the_set_the_settings_choose(table, tmp_path, monkeypatch):
    """Players who taught their own Castle Dice printing choose it in the settings: the tray is
    read with it from then on (and with the built-in set again when they switch back)."""
    from companion.dicesets import write_rendered_set
    from vision import render

    monkeypatch.setenv("COMPANION_CACHE_DIR", str(tmp_path / "cache"))
    spec = {"kind": "dice", "types": {t: v for t, v in render.CASTLE_DICE["types"].items() if t == "wood"}}
    write_rendered_set(tmp_path / "sets" / "our-wood", spec, per_face=3, seed=5, style="glyph")
    readers = []
    runtime = SimpleNamespace(on_reading=lambda fn: None, set_reader=readers.append)
    cfg = {"sets": {"castle-dice": "our-wood"}}
    app = SimpleNamespace(extensions={"camera": runtime}, config={"CONFIG": cfg, "DATA_DIR": str(tmp_path)})
    glue = cam.attach(app, table)
    gid = table.create_game("castle-dice", ["Ana", "Ben"], {"first_player": 0})["id"]
    assert glue.reader_ready(timeout=120)
    assert [r.__self__.name for r in readers] == ["our-wood"]
    table.act(gid, HOST, {"type": "next"})
    assert glue.reader_ready(timeout=120) and len(readers) == 1  # not opened again for each action
    cfg["sets"]["castle-dice"] = "castle-dice"
    glue.ensure_reader()
    assert glue.reader_ready(timeout=120)
    assert [r.__self__.name for r in readers] == ["our-wood", "castle-dice"]


def test_the_demo_camera_rolls_castle_dice_once_a_castle_game_is_on(table):
    """`make run` off a Pi has the demo camera, which rolls pip dice: the Castle Dice set cannot read
    those (a lone pip is not a Castle Dice face). Once a Castle Dice game is at the table, the demo
    camera rolls Castle Dice (``vision.render``) instead, and keeps doing so when it is reopened."""
    pytest.importorskip("vision.render")
    from hardware.camera import CameraService, SyntheticCamera

    opened = []

    def opener(_spec):
        opened.append(SyntheticCamera(fps=20, seed=len(opened), empty_s=0.05, rolling_s=0.05,
                                      settled_s=0.1, realtime=True))
        return opened[-1]

    class FakeReader:
        def read(self, image):
            return {"dice": [], "tokens": []}

    hub = CameraService("synthetic", opener=opener, fps=20).start()
    try:
        runtime = SimpleNamespace(hub=hub, on_reading=lambda fn: None, set_reader=lambda fn: None)
        glue = cam.attach(SimpleNamespace(extensions={"camera": runtime}), table, reader_factory=FakeReader)

        def truth_types(camera, timeout=20.0):
            """The die types of the next roll the camera shows."""
            rolls, end = camera.rolls, time.monotonic() + timeout
            while time.monotonic() < end and camera.rolls == rolls:
                time.sleep(0.02)
            return {d["type"] for d in camera.truth}

        assert hub.wait_frame(0, timeout=10) is not None
        assert truth_types(opened[-1]) == {"d6"}  # pip dice while no Castle Dice game is on
        table.create_game("castle-dice", ["Ana", "Ben"], {"first_player": 0})
        assert glue.reader_ready(timeout=30)
        types = truth_types(opened[-1])
        assert types and types <= set(cam.RES)  # wood, stone, gold, land, iron: Castle Dice
        hub.restart()  # the settings page reopens the camera: still Castle Dice
        assert hub.wait_frame(0, timeout=10) is not None and len(opened) == 2
        types = truth_types(opened[-1])
        assert types and types <= set(cam.RES)
    finally:
        hub.stop()
