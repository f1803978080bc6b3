"""Physical buttons and an LED on GPIO, through gpiozero.

A :class:`ButtonPanel` maps roles ("draw", "next", "undo", "shutdown") to BCM pins and tells a
*press* (pressed and released before the hold time) from a *hold* (kept down for the hold time).
A button that does both never fires a press when it was held.

Off a Raspberry Pi the panel uses gpiozero's ``MockFactory``; tests drive its pins with
``pin.drive_low()`` / ``pin.drive_high()``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable

from gpiozero import LED, Button, Device

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
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    return None  # gpiozero's default search order


class ButtonPanel:
    """The companion's buttons and its optional LED."""

    def __init__(self, pins: dict[str, int], *, hold_seconds: float = 2.0, bounce_ms: int = 20,
                 shutdown_hold_seconds: float = 5.0, led_pin: int | None = None, pin_factory=None) -> None:
        self.factory = pin_factory if pin_factory is not None else Device.pin_factory
        self.buttons: dict[str, Button] = {}
        self._handlers: dict[tuple[str, str], Callable[[], None]] = {}
        self._held: dict[str, bool] = {}
        for role, pin in pins.items():
            if not pin:
                continue
            hold = shutdown_hold_seconds if role == "shutdown" else hold_seconds
            btn = Button(pin, pull_up=True, bounce_time=bounce_ms / 1000 if bounce_ms else None,
                         hold_time=hold, pin_factory=self.factory)
            btn.when_pressed = lambda r=role: self._pressed(r)
            btn.when_held = lambda r=role: self._fire(r, "hold")
            btn.when_released = lambda r=role: self._released(r)
            self.buttons[role] = btn
            self._held[role] = False
        self.led = LED(led_pin, pin_factory=self.factory) if led_pin else None

    def on(self, role: str, gesture: str, fn: Callable[[], None]) -> None:
        """Runs ``fn`` on ``gesture`` ("press", "hold" or "down") of the button ``role``."""
        self._handlers[(role, gesture)] = fn

    def _pressed(self, role: str) -> None:
        self._held[role] = False
        self._call(role, "down")

    def _fire(self, role: str, gesture: str) -> None:
        self._held[role] = True
        self._call(role, gesture)

    def _released(self, role: str) -> None:
        if not self._held.get(role):
            self._call(role, "press")
        self._held[role] = False

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

    def close(self) -> None:
        for btn in self.buttons.values():
            btn.close()
        if self.led is not None:
            self.led.close()


def pins_from_config(buttons: dict) -> dict[str, int]:
    return {role: int(buttons.get(role) or 0) for role in ROLES}


