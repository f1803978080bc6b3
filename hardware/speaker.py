"""Spoken calls on the Pi: espeak-ng when a speaker is present, silence when it is not."""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from pathlib import Path

log = logging.getLogger(__name__)

VOICES = {"el": "el", "en": "en"}


class Speaker:
    """The interface: ``say(text, lang)`` returns at once; speech happens in the background."""

    available = False

    def say(self, text: str, lang: str = "en") -> None:  # pragma: no cover - interface
        raise NotImplementedError


class SilentSpeaker(Speaker):
    """No speaker: remembers what it would have said (tests read ``said``)."""

    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []

    def say(self, text: str, lang: str = "en") -> None:
        self.said.append((text, lang))


class EspeakSpeaker(Speaker):
    """espeak-ng through ALSA. Calls are queued one at a time so they never talk over each other."""

    available = True

    def __init__(self, binary: str = "espeak-ng", extra_args: tuple[str, ...] = ()) -> None:
        self.binary = binary
        self.extra_args = extra_args
        self._lock = threading.Lock()

    def command(self, text: str, lang: str) -> list[str]:
        return [self.binary, "-v", VOICES.get(lang, "en"), "-s", "150", *self.extra_args, text]

    def say(self, text: str, lang: str = "en") -> None:
        threading.Thread(target=self._run, args=(text, lang), daemon=True).start()

    def _run(self, text: str, lang: str) -> None:
        with self._lock:
            try:
                subprocess.run(self.command(text, lang), check=False, timeout=30,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            except (OSError, subprocess.TimeoutExpired):
                log.warning("espeak-ng failed for %r", text)


def audio_output_present(cards: Path = Path("/proc/asound/cards")) -> bool:
    """True when ALSA lists a sound card (a Pi with HDMI audio, a USB or I2S speaker)."""
    try:
        text = cards.read_text()
    except OSError:
        return False
    return bool(text.strip()) and "no soundcards" not in text


def make_speaker(enabled: bool = True) -> Speaker:
    """espeak-ng if it is installed and a sound card exists; otherwise silence."""
    if enabled and shutil.which("espeak-ng") and audio_output_present():
        return EspeakSpeaker()
    return SilentSpeaker()
