"""Buttons and lights through gpiozero's MockFactory: press, hold, release, debounce, shut-down."""

from __future__ import annotations

import time

import pytest

from hardware.buttons import ROLES, SHUTDOWN_TEXT, ButtonPanel, make_pin_factory, pins_from_config, wire_extras
from hardware.speaker import SilentSpeaker

PINS = {"draw": 17, "next": 27, "undo": 22, "shutdown": 3}


def wait_for(pred, timeout=3.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.005)
    return False


@pytest.fixture
def panel(mock_factory):
    p = ButtonPanel(PINS, hold_seconds=0.15, shutdown_hold_seconds=0.4, bounce_ms=20, led_pin=18,
                    buzzer_pin=23, pin_factory=mock_factory)
    p.events = []
    for role in ROLES:
        for gesture in ("down", "press", "hold", "release", "warn", "cancel"):
            p.on(role, gesture, lambda r=role, g=gesture: p.events.append((r, g)))
    yield p
    p.close()


def tap(pin, down_s=0.03):
    pin.drive_low()
    time.sleep(down_s)
    pin.drive_high()


def test_press_is_a_press_not_a_hold(panel, mock_factory):
    tap(mock_factory.pin(17))
    assert wait_for(lambda: ("draw", "release") in panel.events)
    assert panel.events == [("draw", "down"), ("draw", "press"), ("draw", "release")]


def test_hold_is_a_hold_not_a_press(panel, mock_factory):
    pin = mock_factory.pin(22)
    pin.drive_low()
    assert wait_for(lambda: ("undo", "hold") in panel.events)
    assert panel.is_pressed("undo")
    pin.drive_high()
    assert wait_for(lambda: ("undo", "release") in panel.events)
    assert panel.events == [("undo", "down"), ("undo", "hold"), ("undo", "release")]


def test_contact_bounce_within_20ms_counts_once(panel, mock_factory):
    pin = mock_factory.pin(27)
    pin.drive_low()
    for _ in range(4):  # the contacts chatter for a few milliseconds
        pin.drive_high()
        pin.drive_low()
    time.sleep(0.05)
    pin.drive_high()
    pin.drive_low()
    pin.drive_high()
    time.sleep(0.06)
    assert panel.events == [("next", "down"), ("next", "press"), ("next", "release")]


def test_a_quick_tap_is_not_lost(panel, mock_factory):
    pin = mock_factory.pin(17)
    pin.drive_low()
    pin.drive_high()  # released within the debounce time: still one press, once it settles
    assert wait_for(lambda: ("draw", "release") in panel.events)
    assert panel.events.count(("draw", "press")) == 1


def test_two_separate_presses_count_twice(panel, mock_factory):
    pin = mock_factory.pin(17)
    tap(pin)
    time.sleep(0.03)
    tap(pin)
    assert wait_for(lambda: panel.events.count(("draw", "press")) == 2)


def test_shutdown_warns_first_then_runs_the_command(panel, mock_factory):
    speaker, ran = SilentSpeaker(), []
    cfg = {"server": {"lang": "el"}, "speech": {"enabled": True}, "buttons": {}}
    wire_extras(panel, speaker, cfg, run=ran.append)
    pin = mock_factory.pin(3)
    pin.drive_low()
    assert wait_for(lambda: speaker.said)  # the warning is spoken first ...
    assert speaker.said[0] == (SHUTDOWN_TEXT["warn"]["el"], "el")
    assert ran == []  # ... and nothing is shut down yet
    assert wait_for(lambda: ran)
    assert ran == [["systemctl", "poweroff"]]
    assert speaker.said[1] == (SHUTDOWN_TEXT["hold"]["el"], "el")
    pin.drive_high()
    time.sleep(0.05)
    assert len(ran) == 1


def test_letting_go_after_the_warning_cancels(panel, mock_factory):
    speaker, ran = SilentSpeaker(), []
    cfg = {"server": {"lang": "en"}, "speech": {"enabled": True},
           "buttons": {"shutdown_command": "/bin/true --test"}}
    wire_extras(panel, speaker, cfg, run=ran.append)
    pin = mock_factory.pin(3)
    pin.drive_low()
    assert wait_for(lambda: speaker.said)
    pin.drive_high()
    time.sleep(0.5)  # past the shut-down time
    assert ran == []
    assert [s for s, _ in speaker.said] == [SHUTDOWN_TEXT["warn"]["en"], SHUTDOWN_TEXT["cancel"]["en"]]


def test_a_short_press_of_shutdown_does_nothing(panel, mock_factory):
    ran = []
    wire_extras(panel, SilentSpeaker(), {"buttons": {}}, run=ran.append)
    tap(mock_factory.pin(3))
    time.sleep(0.5)
    assert ran == []


def test_led_blinks_and_buzzer_beeps(panel, mock_factory):
    led, buzzer = mock_factory.pin(18), mock_factory.pin(23)
    panel.blink()
    assert wait_for(lambda: led.state)
    panel.beep()
    assert wait_for(lambda: buzzer.state)
    assert wait_for(lambda: not buzzer.state)


def test_reconfigure_moves_the_buttons_and_keeps_the_handlers(panel, mock_factory):
    panel.reconfigure({"draw": 5, "next": 6, "undo": 0, "shutdown": 0, "led": 13, "hold_seconds": 0.2})
    tap(mock_factory.pin(17))  # the old pin does nothing now
    tap(mock_factory.pin(5))
    assert wait_for(lambda: ("draw", "release") in panel.events)
    assert panel.events.count(("draw", "press")) == 1
    assert set(panel.buttons) == {"draw", "next"} and panel.led is not None and panel.buzzer is None


def test_from_config_and_factories(mock_factory):
    p = ButtonPanel.from_config({"draw": 17, "next": 0, "led": 18, "bounce_ms": 20}, pin_factory=mock_factory)
    assert set(p.buttons) == {"draw"} and p.bounce_s == 0.02
    p.close()
    assert pins_from_config({"draw": "17"}) == {"draw": 17, "next": 0, "undo": 0, "shutdown": 0}
    assert type(make_pin_factory("mock")).__name__ == "MockFactory"
    assert make_pin_factory("default") is None  # gpiozero's own choice


def test_a_failing_handler_does_not_break_the_panel(panel, mock_factory):
    panel.on("next", "press", lambda: 1 / 0)
    tap(mock_factory.pin(27))
    tap(mock_factory.pin(17))
    assert wait_for(lambda: ("draw", "press") in panel.events)


def test_pin_factory_on_a_pi_prefers_lgpio_then_gpiozeros_choice(monkeypatch):
    import sys
    import types

    import hardware.buttons as buttons

    monkeypatch.setattr(buttons, "on_raspberry_pi", lambda *a: True)
    fake = types.ModuleType("gpiozero.pins.lgpio")

    class LGPIOFactory:  # stand-in: the real one needs /dev/gpiochip*
        pass

    fake.LGPIOFactory = LGPIOFactory
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", fake)
    assert isinstance(make_pin_factory("auto"), LGPIOFactory)
    assert isinstance(make_pin_factory("lgpio"), LGPIOFactory)
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)  # python3-lgpio missing
    assert make_pin_factory("auto") is None


def test_the_real_server_wiring_shuts_down_after_the_warning(tmp_path, mock_factory):
    from companion import config as config_mod
    from companion.serve import build

    cfg = config_mod.load(tmp_path)
    cfg["camera"]["source"] = "none"
    cfg["buttons"].update(hold_seconds=0.1, shutdown_hold_seconds=0.3,
                          shutdown_command=f"touch {tmp_path / 'powered-off'}")
    app, table, panel, speaker = build(tmp_path, cfg, mock_factory)
    try:
        assert app.extensions["panel"] is panel
        mock_factory.pin(3).drive_low()
        assert wait_for(lambda: (tmp_path / "powered-off").exists())
        if isinstance(speaker, SilentSpeaker):
            assert speaker.said[0][0] == SHUTDOWN_TEXT["warn"]["el"]
        mock_factory.pin(3).drive_high()
    finally:
        app.extensions["camera"].stop()
        panel.close()
        table.store.close()
