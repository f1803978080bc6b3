"""`companion teach` listens to the table's draw/read button (gpiozero MockFactory pins driven by
the test) as well as to the keyboard: a press captures, a hold redoes the last face."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion.dicesets import crop_object, open_set
from companion.teach_cmd import teach
from vision import render

DRAW, UNDO = 17, 22
HOLD_S = 0.3



@pytest.fixture
def data_dir(tmp_path):
    """A companion data folder whose config puts the draw button on GPIO 17 with a short hold."""
    d = tmp_path / "data"
    d.mkdir()
    (d / "config.toml").write_text(
        f"[buttons]\ndraw = {DRAW}\nundo = {UNDO}\nhold_seconds = {HOLD_S}\nbounce_ms = 10\n", encoding="utf-8")
    return d


def _photos(folder: Path, faces: list[str], seed: int) -> list[Path]:
    """One photo of a wood die per entry of ``faces``, named in order (the flat --from-images mode)."""
    folder.mkdir()
    rng = np.random.default_rng(seed)
    out = []
    for i, face in enumerate(faces):
        p = folder / f"{i:02d}.png"
        cv2.imwrite(str(p), render.render_example(rng, "wood", face, crop=False))
        out.append(p)
    return out


class Hand:
    """Presses and holds the mock button once ``companion teach`` has claimed its pin."""

    def __init__(self, factory, gestures: list[str], pin: int = DRAW):
        self.factory, self.gestures, self.pin = factory, gestures, pin
        self.claimed = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        pin = self.factory.pin(self.pin)
        deadline = time.monotonic() + 30
        while pin.pull != "up":  # the Button pulls its pin up when it is created
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)
        self.claimed.set()
        time.sleep(0.2)
        for g in self.gestures:
            pin.drive_low()
            time.sleep(HOLD_S + 0.3 if g == "hold" else 0.05)
            pin.drive_high()
            time.sleep(0.08)


def _invoke(args, hand: Hand, input: str = ""):
    hand.thread.start()
    res = CliRunner().invoke(teach, args, input=input)
    hand.thread.join(5)
    return res


def _pngs(folder: Path) -> list[np.ndarray]:
    return [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in sorted(folder.glob("*.png"))]


def _sources(saved: list[np.ndarray], photos: list[Path]) -> list[int]:
    """Which photo each saved picture was cropped from: the nearest crop of a photo (the crop may move
    by a pixel from one run to the next, so nearest, not byte-equal)."""
    def thumb(img: np.ndarray) -> np.ndarray:
        return cv2.resize(img, (32, 32), interpolation=cv2.INTER_AREA).astype(np.float32)

    crops = [thumb(crop_object(cv2.imread(str(p), cv2.IMREAD_COLOR))[0]) for p in photos]
    out = []
    for img in saved:
        d = [float(np.abs(thumb(img) - c).mean()) for c in crops]
        assert min(d) < 12, d  # it is one of the photos
        out.append(int(np.argmin(d)))
    return out


@pytest.mark.timeout(120)
def test_button_press_captures_and_hold_redoes_the_last_face(tmp_path, mock_factory, data_dir):
    # the player first shows BARBARIAN three times for COW (a mistake), notices it when the companion
    # moves on, holds the button to redo COW, then shows COW three times and BARBARIAN three times
    photos = _photos(tmp_path / "photos", ["barbarian"] * 3 + ["cow"] * 3 + ["barbarian"] * 3, seed=21)
    out = tmp_path / "wood-set"
    hand = Hand(mock_factory, ["press"] * 3 + ["hold"] + ["press"] * 6)
    res = _invoke([str(out), "--face", "wood/cow", "--face", "wood/barbarian", "--from-images",
                   str(tmp_path / "photos"), "--per-face", "3", "--pins", "default", "--data", str(data_dir),
                   "--lang", "el"], hand)
    assert hand.claimed.is_set(), res.output
    assert res.exit_code == 0, res.output
    assert "Button on GPIO 17" in res.output
    assert "πατήστε το κουμπί" in res.output  # the prompt names the button
    assert "redo wood/cow" in res.output
    assert res.output.count("captured") == 9
    # the mistaken pictures are gone: COW holds photos 3-5, BARBARIAN photos 6-8, each cropped
    assert _sources(_pngs(out / "examples" / "wood" / "cow"), photos) == [3, 4, 5]
    assert _sources(_pngs(out / "examples" / "wood" / "barbarian"), photos) == [6, 7, 8]
    assert "Saved the set 'wood-set'" in res.output
    reader = open_set(out)
    assert sorted(reader.info.files) == [("wood", "barbarian"), ("wood", "cow")]
    img, _ = render.render_scene(np.random.default_rng(0), items=[("wood", "cow"), ("wood", "barbarian")],
                                 hard=False)
    assert sorted(d["face"] for d in reader.read(img)["dice"]) == ["barbarian", "cow"]


@pytest.mark.timeout(120)
def test_enter_and_button_both_capture_and_the_undo_button_redoes(tmp_path, mock_factory, data_dir):
    # Enter takes the first picture, the button the second; holding the undo button in the middle of
    # the face throws its pictures away, and three more presses give COW photos 2 to 4
    photos = _photos(tmp_path / "photos", ["barbarian", "barbarian", "cow", "cow", "cow"], seed=22)
    out = tmp_path / "cow-only"
    hand = Hand(mock_factory, ["press"], pin=DRAW)
    undo = Hand(mock_factory, ["hold"], pin=UNDO)
    press_more = Hand(mock_factory, ["press"] * 3, pin=DRAW)

    def sequence() -> None:
        hand.run()                      # Enter (queued first) + 1 press: two pictures
        time.sleep(0.3)
        undo.run()                      # hold undo: COW's pictures are thrown away
        time.sleep(0.3)
        press_more.run()                # three more presses: photos 2 to 4

    driver = threading.Thread(target=sequence, daemon=True)
    driver.start()
    res = CliRunner().invoke(teach, [str(out), "--face", "wood/cow", "--from-images", str(tmp_path / "photos"),
                                     "--per-face", "3", "--pins", "default", "--data", str(data_dir)],
                             input="\n")
    driver.join(5)
    assert res.exit_code == 0, res.output
    assert "no more keyboard input: waiting for the button" in res.output
    assert "redo wood/cow" in res.output
    assert res.output.count("captured") == 5
    assert _sources(_pngs(out / "examples" / "wood" / "cow"), photos) == [2, 3, 4]


def test_off_a_pi_the_mock_pins_do_not_block_the_keyboard(tmp_path):
    # --pins auto on this machine: gpiozero's MockFactory, nobody can press it; Enter still works and
    # the end of the keyboard input ends the teaching (and saves what was taken)
    photos = _photos(tmp_path / "photos", ["cow", "cow", "cow"], seed=23)
    out = tmp_path / "auto-pins"
    res = CliRunner().invoke(teach, [str(out), "--face", "wood/cow", "--from-images", str(tmp_path / "photos"),
                                     "--per-face", "5", "--data", str(tmp_path)], input="\n\n")
    assert res.exit_code == 0, res.output
    assert "mock pins" in res.output and "press Enter" in res.output
    assert "Stopped." in res.output
    assert _sources(_pngs(out / "examples" / "wood" / "cow"), photos) == [0, 1]


def test_a_button_held_by_another_program_leaves_the_keyboard(tmp_path, mock_factory, data_dir):
    from gpiozero import Button

    serving = Button(DRAW, pin_factory=mock_factory)  # `companion serve` owns the draw button
    try:
        photos = _photos(tmp_path / "photos", ["cow", "cow", "cow"], seed=24)
        out = tmp_path / "busy"
        res = CliRunner().invoke(teach, [str(out), "--face", "wood/cow", "--from-images", str(tmp_path / "photos"),
                                         "--per-face", "3", "--pins", "default", "--data", str(data_dir)],
                                 input="\n\n\n")
    finally:
        serving.close()
    assert res.exit_code == 0, res.output
    assert "The buttons cannot be used" in res.output and "companion serve" in res.output
    assert "then press Enter" in res.output  # the prompt does not promise a button
    assert _sources(_pngs(out / "examples" / "wood" / "cow"), photos) == [0, 1, 2]
