"""The herald's GPIO button through gpiozero's MockFactory: a press draws, a hold undoes."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion import config as config_mod
from companion.serve import wire_devices


@pytest.fixture
def factory():
    f = MockFactory()
    Device.pin_factory = f
    yield f
    Device.pin_factory.reset()
    Device.pin_factory = None


def wait_for(pred, timeout=3.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.01)
    return pred()


@pytest.fixture
def wired(table, factory, tmp_path):
    cfg = config_mod.load(tmp_path)
    cfg["buttons"]["hold_seconds"] = 0.3  # the real default is 2 s; shortened so the test is quick
    panel, speaker = wire_devices(table, cfg, factory)
    game = table.create_game("augustus", ["Άννα", "Ben"])
    yield table, game["id"], factory.pin(cfg["buttons"]["draw"]), factory.pin(cfg["buttons"]["led"]), speaker
    panel.close()


def draws(table, gid):
    return table.view(gid)["herald"]["draws"]


def test_a_press_draws_once_and_blinks_the_led(wired):
    table, gid, pin, led, speaker = wired
    pin.drive_low()
    time.sleep(0.05)
    pin.drive_high()
    assert wait_for(lambda: bool(led.state), timeout=1.0), "the LED did not light on the draw"
    assert wait_for(lambda: draws(table, gid) == 1)
    time.sleep(0.1)
    assert draws(table, gid) == 1  # one press, one draw
    ev = table.events(gid)[-1]
    assert ev["type"] == "draw" and ev["actor"]["role"] == "device"
    # the call is spoken (silently here: no sound card) in the configured language
    assert speaker.said and speaker.said[-1][1] == "el"


def test_a_hold_undoes_the_last_draw_and_does_not_draw(wired):
    table, gid, pin, _, _ = wired
    for _ in range(2):
        pin.drive_low()
        time.sleep(0.05)
        pin.drive_high()
        time.sleep(0.05)
    assert wait_for(lambda: draws(table, gid) == 2)
    pin.drive_low()
    time.sleep(0.6)  # longer than the hold time
    pin.drive_high()
    assert wait_for(lambda: draws(table, gid) == 1)
    time.sleep(0.1)
    assert draws(table, gid) == 1
    types = [e["type"] for e in table.events(gid)]
    assert types == ["setup", "draw", "draw", "undo"]


def test_the_button_cannot_undo_what_is_not_a_draw(wired):
    table, gid, pin, _, _ = wired
    pin.drive_low()
    time.sleep(0.6)
    pin.drive_high()
    time.sleep(0.1)
    assert [e["type"] for e in table.events(gid)] == ["setup"]  # nothing to undo: refused, nothing written


@pytest.mark.browser
def test_a_press_of_the_draw_button_shows_on_the_phones(tmp_path, factory, phone):
    """The companion as `companion serve` builds it (its event log, buttons, camera and web app) on
    a real HTTP server (werkzeug's, threaded, in this process so the test can drive the mock pins):
    a press of the physical draw button shows the drawn token on a phone page in a real browser,
    and a hold takes it back."""
    from werkzeug.serving import make_server

    from companion.serve import build

    cfg = config_mod.load(tmp_path)
    cfg["camera"]["source"] = "none"
    cfg["buttons"]["hold_seconds"] = 0.3
    app, table, panel, _speaker = build(tmp_path, cfg, factory)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    port = server.server_port
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        game = table.create_game("augustus", ["Άννα", "Ben"])
        page = phone("el-GR")
        page.goto(f"http://127.0.0.1:{port}/g/{game['id']}")
        page.wait_for_selector("#draw-count")
        assert page.inner_text("#draw-count") == "0"
        pin = factory.pin(cfg["buttons"]["draw"])
        pin.drive_low()
        time.sleep(0.05)
        pin.drive_high()
        page.wait_for_function("document.querySelector('#draw-count').textContent === '1'", timeout=5000)
        token = table.view(game["id"])["herald"]["last"]
        assert page.inner_text("#last-name") == table.view(game["id"])["tokens"][token]["el"]
        pin.drive_low()
        time.sleep(0.6)  # longer than the hold time: undo
        pin.drive_high()
        page.wait_for_function("document.querySelector('#draw-count').textContent === '0'", timeout=5000)
        assert page.errors == []
    finally:
        table.close_channels()  # the page's live channel ends, then the server stops
        server.shutdown()
        server.server_close()
        panel.close()
