"""Real-bag mode: a camera read becomes a draw, bookkept like a virtual one; doubtful reads ask the herald."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games import Actor
from companion.herald_camera import make_resolver, read_token

FRAME = np.zeros((480, 640, 3), np.uint8)


class ScriptedReader:
    """Stands in for the token reader: returns the readings it is given, one per call."""

    def __init__(self, *readings):
        self.readings = list(readings)

    def read(self, image):
        assert image.shape == FRAME.shape
        return {"dice": [], "tokens": self.readings.pop(0)}


def tok(face, x=320, y=240, conf=0.95, reason=None):
    return {"x": x, "y": y, "w": 60, "h": 60, "type": "token", "face": face, "confidence": conf,
            **({"reason": reason} if reason else {})}


def test_a_confident_read_is_a_draw_and_the_token_nearest_the_mark_wins():
    bag = {"shield": 5, "joker": 2}
    action = read_token(FRAME, ScriptedReader([tok("joker", x=20, y=20), tok("shield")]), bag)
    assert action == {"type": "draw", "token": "shield", "source": "camera"}


@pytest.mark.parametrize("reading,read,why", [
    ([], None, "no token"),
    ([tok(None, reason="blurred")], None, "blurred"),
    ([tok("shield", conf=0.3)], "shield", "confidence"),
    ([tok("dagger")], "dagger", "no dagger"),
    ([tok("elephant")], None, "not a token"),
])
def test_doubtful_reads_ask_the_herald(reading, read, why):
    action = read_token(FRAME, ScriptedReader(reading), {"shield": 5, "dagger": 0, "joker": 2})
    assert action["type"] == "token_unsure" and action["read"] == read and why in action["reason"]


def test_a_readable_token_wins_over_a_doubtful_blob_nearer_the_mark():
    reading = [tok(None, reason="unreadable"), tok("chariot", x=500, y=400)]
    assert read_token(FRAME, ScriptedReader(reading), {"chariot": 4})["token"] == "chariot"


def test_no_picture_asks_the_herald():
    assert read_token(None, ScriptedReader(), {"joker": 1})["type"] == "token_unsure"


def test_real_bag_session_through_the_table(table):
    reader = ScriptedReader([tok("joker")], [tok("joker")], [tok("joker")], [tok("shield")])
    table.add_resolver("augustus", make_resolver(lambda: FRAME, lambda: reader))
    game = table.create_game("augustus", ["Ana", "Ben", "Cleo"], {"mode": "real", "bag": {"shield": 5, "joker": 2}})
    gid, button = game["id"], Actor("device")
    view = table.act(gid, button, {"type": "draw"})
    assert view["herald"]["last"] == "joker" and view["herald"]["herald"] == "Ben"  # joker rule applied
    assert view["herald"]["bag"] == {"shield": 5, "joker": 2}
    view = table.act(gid, button, {"type": "draw"})
    assert view["herald"]["herald"] == "Cleo" and view["herald"]["pending"] is None
    # a joker is read again, though the cycle has just restarted: still possible (2 in the bag) ...
    view = table.act(gid, button, {"type": "draw"})
    assert view["herald"]["herald"] == "Ana"
    view = table.act(gid, button, {"type": "draw"})
    assert view["herald"]["last"] == "shield" and view["herald"]["bag"]["shield"] == 4
    events = table.events(gid)
    assert [e.get("source") for e in events[1:]] == ["camera"] * 4


def test_a_third_joker_in_one_cycle_cannot_happen_and_is_asked(table):
    # with one joker in the bag, a joker read right after a joker would be the second in the cycle
    reader = ScriptedReader([tok("shield")], [tok("shield")])
    table.add_resolver("augustus", make_resolver(lambda: FRAME, lambda: reader))
    game = table.create_game("augustus", ["Ana", "Ben"], {"mode": "real", "bag": {"shield": 1, "joker": 1}})
    gid = game["id"]
    view = table.act(gid, Actor("device"), {"type": "draw"})
    assert view["herald"]["bag"]["shield"] == 0
    view = table.act(gid, Actor("device"), {"type": "draw"})  # a second shield cannot be in the bag
    pending = view["herald"]["pending"]
    assert pending == {"read": "shield", "reason": "no shield can be left in the bag"}
    assert view["herald"]["draws"] == 1  # nothing was bookkept
    # the herald looks again: it was the joker
    view = table.act(gid, Actor("host"), {"type": "confirm_token", "token": "joker"})
    assert view["herald"]["last"] == "joker" and view["herald"]["pending"] is None
    assert view["herald"]["bag"] == {"shield": 1, "joker": 1} and view["herald"]["herald"] == "Ben"


def test_virtual_mode_ignores_the_camera(table):
    table.add_resolver("augustus", make_resolver(lambda: FRAME, lambda: pytest.fail("no read in virtual mode")))
    game = table.create_game("augustus", ["Ana", "Ben"])
    assert table.act(game["id"], Actor("host"), {"type": "draw"})["herald"]["draws"] == 1


def test_the_token_set_is_learned_beside_a_new_game_not_in_the_first_draw(table, monkeypatch):
    """After an update the token set is learned again (seconds on a Pi): a new Augustus game starts
    it at once, beside the game, and the herald's first real-bag draw uses it without learning."""
    import threading
    import time
    from types import SimpleNamespace

    from companion import dicesets
    from companion.herald_camera import attach_real_bag

    gate, opened = threading.Event(), []

    def open_for_game(game, cfg, data_dir):
        assert game == "augustus"
        gate.wait(10)
        opened.append(ScriptedReader([tok("shield")]))
        return opened[-1]

    monkeypatch.setattr(dicesets, "open_for_game", open_for_game)
    monkeypatch.setattr(dicesets, "set_source", lambda game, cfg, data_dir: "augustus-tokens")
    camera = SimpleNamespace(read=lambda: FRAME)
    attach_real_bag(SimpleNamespace(extensions={"camera": camera}, config={}), table)
    t0 = time.monotonic()
    gid = table.create_game("augustus", ["Ana", "Ben"], {"mode": "real"})["id"]
    assert time.monotonic() - t0 < 2.0 and opened == []  # the game is on before the set is learned
    gate.set()
    deadline = time.monotonic() + 10
    while not opened and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(opened) == 1
    view = table.act(gid, Actor("device"), {"type": "draw"})
    assert view["herald"]["last"] == "shield" and len(opened) == 1  # not learned again in the draw
