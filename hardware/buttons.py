"""Physical buttons and an LED on GPIO, through gpiozero.

A :class:`ButtonPanel` maps roles ("draw", "next", "undo", "shutdown") to BCM pins and tells a
*press* (pressed and released before the hold time) from a *hold* (kept down for the hold time).
A button that does both never fires a press when it was held.

Off a Raspberry Pi the panel uses gpiozero's ``MockFactory``; tests drive its pins with
``pin.drive_low()`` / ``pin.drive_high()``. On a Pi the lgpio factory is preferred (the only one
that works on a Pi 5); ``--pins default`` leaves the choice to gpiozero.

Wiring: each button between its BCM pin and GND (internal pull-up, active low); the LED and
the buzzer from their pin through a resistor / transistor to GND (see deploy/README.md).
"""

from __future__ import annotations

import logging
import shlex
import subprocess
import threading
import time
from pathlib import Path
from collections.abc import Callable

from gpiozero import LED, Button, Buzzer, Device

log = logging.getLogger(__name__)
ROLES = ("draw", "next", "undo", "shutdown")


def on_raspberry_pi(model: Path = Path("/proc/device-tree/model")) -> bool:
    try:
        return "Raspberry Pi" in model.read_text(errors="ignore")
    except OSError:
        return False


def make_pin_factory(kind: str = "auto"):
    """The pin factory: gpiozero's own choice on a Pi (lgpio on a Pi 5), else mock pins."""
    if kind == "mock" or (kind == "auto" and not on_raspberry_pi()):
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if kind == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory  # the Pi 5 (RP1); also fine on a Pi 4

        return LGPIOFactory()
    if kind == "auto":
        try:  # Bookworm ships python3-lgpio; it drives every Pi model
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        except Exception as err:
            log.info("lgpio pin factory unavailable (%s); gpiozero chooses", err)
    return None  # gpiozero's default search order


class ButtonPanel:
    """The companion's buttons, its optional LED and optional buzzer.

    Gestures per role: ``down`` (at once), ``press`` (released before the hold time), ``hold``
    (kept down for the hold time), ``release`` (every release). The ``shutdown`` button first
    gives ``warn`` after ``hold_seconds`` and ``hold`` only after ``shutdown_hold_seconds``; letting
    go in between gives ``cancel``.
    """

    def __init__(self, pins: dict[str, int], *, hold_seconds: float = 2.0, bounce_ms: int = 20,
                 shutdown_hold_seconds: float = 5.0, led_pin: int | None = None,
                 buzzer_pin: int | None = None, pin_factory=None) -> None:
        self.factory = pin_factory if pin_factory is not None else Device.pin_factory
        self._handlers: dict[tuple[str, str], Callable[[], None]] = {}
        self._lock = threading.RLock()
        self._build(pins, hold_seconds=hold_seconds, bounce_ms=bounce_ms,
                    shutdown_hold_seconds=shutdown_hold_seconds, led_pin=led_pin, buzzer_pin=buzzer_pin)

    @classmethod
    def from_config(cls, buttons: dict, pin_factory=None) -> ButtonPanel:
        """A panel from the ``[buttons]`` table of the config."""
        return cls(pins_from_config(buttons), pin_factory=pin_factory, **_options(buttons))

    def _build(self, pins: dict[str, int], *, hold_seconds: float, bounce_ms: int,
               shutdown_hold_seconds: float, led_pin: int | None, buzzer_pin: int | None) -> None:
        self.pins = {role: int(pin) for role, pin in pins.items() if pin}
        self.hold_seconds = hold_seconds
        self.bounce_s = max(0, bounce_ms) / 1000
        self.shutdown_hold_seconds = max(shutdown_hold_seconds, hold_seconds)
        self.buttons: dict[str, Button] = {}
        self._state: dict[str, _RoleState] = {}
        for role, pin in self.pins.items():
            # debouncing is done here, the same way on every pin factory (MockFactory has none)
            btn = Button(pin, pull_up=True, bounce_time=None, pin_factory=self.factory)
            btn.when_pressed = lambda r=role: self._edge(r)
            btn.when_released = lambda r=role: self._edge(r)
            self.buttons[role] = btn
            self._state[role] = _RoleState()
        self.led = LED(led_pin, pin_factory=self.factory) if led_pin else None
        self.buzzer = Buzzer(buzzer_pin, pin_factory=self.factory) if buzzer_pin else None

    def reconfigure(self, buttons: dict) -> None:
        """A new pin map (from the settings page): the pins are released and claimed afresh;
        the handlers stay."""
        with self._lock:
            self._release_pins()
            self._build(pins_from_config(buttons), **_options(buttons))
        log.info("buttons rewired: %s", self.pins)

    def on(self, role: str, gesture: str, fn: Callable[[], None]) -> None:
        """Runs ``fn`` on ``gesture`` ("down", "press", "hold", "release"; for shutdown also
        "warn" and "cancel") of the button ``role``."""
        self._handlers[(role, gesture)] = fn

    def is_pressed(self, role: str) -> bool:
        st = self._state.get(role)
        return bool(st and st.pressed)

    # -- debouncing: the first edge counts at once, then the pin is looked at again after
    # ``bounce_ms``; edges in between are contact bounce and are ignored.
    def _edge(self, role: str) -> None:
        gestures: list[str] = []
        with self._lock:
            st, btn = self._state.get(role), self.buttons.get(role)
            if st is None or btn is None:
                return
            now = time.monotonic()
            if now < st.lockout_until:
                self._schedule_reconcile(role, st, st.lockout_until - now)
                return
            actual = bool(btn.is_pressed)
            if actual != st.pressed:
                gestures = self._accept(role, st, actual, now)
        self._emit(role, gestures)

    def _schedule_reconcile(self, role: str, st: _RoleState, delay: float) -> None:
        if st.reconcile is None or not st.reconcile.is_alive():
            st.reconcile = _timer(delay, self._reconcile, role)

    def _reconcile(self, role: str) -> None:
        gestures: list[str] = []
        with self._lock:
            st, btn = self._state.get(role), self.buttons.get(role)
            if st is None or btn is None:
                return
            st.reconcile = None
            actual = bool(btn.is_pressed)
            if actual != st.pressed:
                gestures = self._accept(role, st, actual, time.monotonic())
        self._emit(role, gestures)

    def _accept(self, role: str, st: _RoleState, pressed: bool, now: float) -> list[str]:
        st.pressed = pressed
        if self.bounce_s:
            st.lockout_until = now + self.bounce_s
            self._schedule_reconcile(role, st, self.bounce_s + 0.001)
        if pressed:
            st.press_id += 1
            st.held = st.warned = False
            st.hold_timer = _timer(self.hold_seconds, self._hold_reached, role, st.press_id)
            return ["down"]
        st.cancel_timers()
        if not st.held:
            out = ["press"]
        elif st.warned:
            out = ["cancel"]
        else:
            out = []
        st.held = st.warned = False
        return [*out, "release"]

    def _hold_reached(self, role: str, press_id: int) -> None:
        with self._lock:
            st = self._state.get(role)
            if st is None or not st.pressed or st.press_id != press_id:
                return
            st.held = True
            if role == "shutdown":  # a spoken warning first; shut down only if still held
                st.warned = True
                rest = max(0.0, self.shutdown_hold_seconds - self.hold_seconds)
                st.shutdown_timer = _timer(rest, self._shutdown_reached, role, press_id)
                gesture = "warn"
            else:
                gesture = "hold"
        self._emit(role, [gesture])

    def _shutdown_reached(self, role: str, press_id: int) -> None:
        with self._lock:
            st = self._state.get(role)
            if st is None or not st.pressed or st.press_id != press_id or not st.warned:
                return
            st.warned = False  # done: letting go now is not a "cancel"
        self._emit(role, ["hold"])

    def _emit(self, role: str, gestures: list[str]) -> None:
        for gesture in gestures:
            self._call(role, gesture)

    def _call(self, role: str, gesture: str) -> None:
        fn = self._handlers.get((role, gesture))
        if fn is None:
            return
        try:
            fn()
        except Exception:  # a failed action must not kill gpiozero's event thread
            log.exception("button %s %s failed", role, gesture)

    def blink(self, times: int = 1) -> None:
        if self.led is not None:
            self.led.blink(on_time=0.15, off_time=0.15, n=times, background=True)

    def beep(self, times: int = 1, on_time: float = 0.06) -> None:
        if self.buzzer is not None:
            self.buzzer.beep(on_time=on_time, off_time=0.08, n=times, background=True)

    def _release_pins(self) -> None:
        for st in self._state.values():
            st.cancel_timers()
            if st.reconcile is not None:
                st.reconcile.cancel()
        self._state = {}
        for dev in [*self.buttons.values(), self.led, self.buzzer]:
            if dev is not None:
                try:
                    dev.close()
                except Exception:
                    log.debug("closing %r failed", dev, exc_info=True)
        self.buttons = {}
        self.led = self.buzzer = None

    def close(self) -> None:
        with self._lock:
            self._release_pins()


class _RoleState:
    """The debounced state of one button and its pending timers."""

    def __init__(self) -> None:
        self.pressed = False
        self.held = False
        self.warned = False
        self.press_id = 0
        self.lockout_until = 0.0
        self.reconcile: threading.Timer | None = None
        self.hold_timer: threading.Timer | None = None
        self.shutdown_timer: threading.Timer | None = None

    def cancel_timers(self) -> None:
        for timer in (self.hold_timer, self.shutdown_timer):
            if timer is not None:
                timer.cancel()
        self.hold_timer = self.shutdown_timer = None


def _timer(delay: float, fn: Callable, *args) -> threading.Timer:
    timer = threading.Timer(delay, fn, args=args)
    timer.daemon = True
    timer.start()
    return timer


def _options(buttons: dict) -> dict:
    return {
        "hold_seconds": float(buttons.get("hold_seconds", 2.0)),
        "bounce_ms": int(buttons.get("bounce_ms", 20)),
        "shutdown_hold_seconds": float(buttons.get("shutdown_hold_seconds", 5.0)),
        "led_pin": int(buttons.get("led") or 0) or None,
        "buzzer_pin": int(buttons.get("buzzer") or 0) or None,
    }


SHUTDOWN_TEXT = {
    "warn": {"en": "Keep holding to shut the companion down. Let go to cancel.",
             "el": "Κρατήστε πατημένο για να σβήσει ο βοηθός. Αφήστε το κουμπί για ακύρωση."},
    "hold": {"en": "Shutting down. Unplug only when the green light on the board stops blinking.",
             "el": "Τερματισμός. Βγάλτε το καλώδιο μόνο όταν σταματήσει να αναβοσβήνει το πράσινο φως."},
    "cancel": {"en": "Shut down cancelled.", "el": "Ο τερματισμός ακυρώθηκε."},
}


def wire_extras(panel: ButtonPanel, speaker, cfg: dict,
                run: Callable[[list[str]], object] | None = None) -> None:
    """The shut-down button (spoken warning, then ``systemctl poweroff``), the buzzer on each
    press and the buzzer's pin from the config. ``run`` runs the command (tests pass a fake)."""
    bcfg = cfg.setdefault("buttons", {})
    buzzer_pin = int(bcfg.get("buzzer") or 0) or None
    if buzzer_pin and panel.buzzer is None and buzzer_pin not in panel.pins.values():
        panel.buzzer = Buzzer(buzzer_pin, pin_factory=panel.factory)
    runner = run or (lambda argv: subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def say(key: str) -> None:
        lang = cfg.get("server", {}).get("lang", "el")
        if speaker is not None and cfg.get("speech", {}).get("enabled", True):
            speaker.say(SHUTDOWN_TEXT[key].get(lang) or SHUTDOWN_TEXT[key]["en"], lang)

    def warn() -> None:
        say("warn")
        panel.beep(2)
        if panel.led is not None:
            panel.led.blink(on_time=0.1, off_time=0.1, background=True)

    def cancel() -> None:
        say("cancel")
        if panel.led is not None:
            panel.led.off()

    def shutdown() -> None:
        say("hold")
        panel.beep(1, on_time=0.4)
        argv = shlex.split(str(bcfg.get("shutdown_command") or "systemctl poweroff"))
        log.warning("shutdown button held: running %s", argv)
        try:
            runner(argv)
        except OSError as err:
            log.error("could not shut down: %s", err)

    panel.on("shutdown", "warn", warn)
    panel.on("shutdown", "cancel", cancel)
    panel.on("shutdown", "hold", shutdown)
    for role in ("draw", "next", "undo"):
        if (role, "down") not in panel._handlers:
            panel.on(role, "down", lambda: panel.beep(1))


def pins_from_config(buttons: dict) -> dict[str, int]:
    return {role: int(buttons.get(role) or 0) for role in ROLES}


