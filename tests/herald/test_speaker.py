"""Spoken calls on the Pi: espeak-ng really speaks Greek and English; no sound card means silence."""

from __future__ import annotations

import shutil
import time

import pytest

from hardware.speaker import EspeakSpeaker, SilentSpeaker, audio_output_present, make_speaker


@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed (make test installs it)")
@pytest.mark.parametrize("text,lang", [("Ασπίδα!", "el"), ("Shield!", "en")])
def test_espeak_renders_the_call_to_audio(tmp_path, text, lang):
    wav = tmp_path / f"{lang}.wav"
    speaker = EspeakSpeaker(extra_args=("-w", str(wav)))
    speaker.say(text, lang)
    end = time.monotonic() + 10
    while time.monotonic() < end and (not wav.exists() or wav.stat().st_size < 2000):
        time.sleep(0.05)
    time.sleep(0.2)
    assert wav.read_bytes()[:4] == b"RIFF" and wav.stat().st_size > 2000  # real speech samples


def test_no_sound_card_means_silence(tmp_path):
    cards = tmp_path / "cards"
    cards.write_text("--- no soundcards ---\n")
    assert not audio_output_present(cards)
    assert not audio_output_present(tmp_path / "missing")
    cards.write_text(" 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n")
    assert audio_output_present(cards)
    assert isinstance(make_speaker(enabled=False), SilentSpeaker)
