"""/api/camera: status, "camera lost" while play goes on, the MJPEG preview with its overlay."""

from __future__ import annotations

import shutil
import sys
import time
import types

import cv2
import numpy as np
import pytest

from companion import config as config_mod
from companion.camera_service import attach_camera, camera_status


def wait_for(pred, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.02)
    return False


class FakeUpdate:
    def __init__(self, state, reading=None):
        self.state, self.reading = state, reading


class FakeWatcher:
    """Settles every 5 frames and reads one die there."""

    def __init__(self, reader=None):
        self.n, self.reader = 0, reader

    def feed(self, frame):
        self.n += 1
        if self.n % 5 == 0:
            return FakeUpdate("settled", {"dice": [{"x": 20.0, "y": 20.0, "w": 10.0, "h": 10.0, "face": "5",
                                                     "value": 5, "confidence": 0.9}], "tokens": []})
        return FakeUpdate("rolling" if self.n % 5 < 3 else "settled")


@pytest.fixture
def vision_fakes(monkeypatch):
    calls = []
    watcher_mod = types.ModuleType("vision.watcher")
    watcher_mod.RollWatcher = FakeWatcher
    overlay_mod = types.ModuleType("vision.overlay")

    def draw_overlay(image, dice, tokens, reasons=True):
        calls.append((image.shape, dice, tokens, reasons))
        out = image.copy()
        out[:10, :10] = (0, 0, 255)
        return out

    overlay_mod.draw_overlay = draw_overlay
    monkeypatch.setitem(sys.modules, "vision.watcher", watcher_mod)
    monkeypatch.setitem(sys.modules, "vision.overlay", overlay_mod)
    return calls


@pytest.fixture
def tray(tmp_path):
    folder = tmp_path / "tray"
    folder.mkdir()
    for i in range(3):
        img = np.full((120, 160, 3), 60 + 40 * i, np.uint8)
        cv2.imwrite(str(folder / f"{i}.png"), img)
    return folder


def make_cfg(tmp_path, source):
    cfg = config_mod.load(tmp_path)
    cfg["camera"].update(source=source, fps=50, preview_fps=30, watch_fps=50, lost_after_s=0.5, retry_every_s=0.1)
    return cfg


@pytest.fixture
def camera_app(app, table, tmp_path):
    runtimes = []

    def make(source):
        app.config["DATA_DIR"] = str(tmp_path)
        rt = attach_camera(app, table, make_cfg(tmp_path, source))
        runtimes.append(rt)
        return rt

    yield make
    for rt in runtimes:
        rt.stop()


def test_status_and_readings_reach_the_phones(camera_app, app, tray, vision_fakes):
    rt = camera_app(f"replay:{tray}?hold=0.1")
    client = app.test_client()
    assert wait_for(lambda: client.get("/api/camera").json["reading"] is not None)
    body = client.get("/api/camera").json
    assert body["state"] == "ok" and body["ok"] and body["backend"].startswith("replay:")
    assert body["reading"]["dice"][0]["value"] == 5
    assert body["watcher"] in ("rolling", "settled")
    assert body["message"]["el"] and body["message"]["en"]
    small = camera_status(app)
    assert small["state"] == "ok" and small["preview"] == "/api/camera/preview.mjpg"
    assert rt.encoded == 0  # nobody watches the preview: nothing is encoded


def test_camera_pulled_mid_game_is_lost_while_play_goes_on(camera_app, app, tray):
    rt = camera_app(f"replay:{tray}?hold=0.05")
    client = app.test_client()
    game = client.post("/api/games", json={"game": "augustus", "players": ["Ana", "Ben"]}).json
    auth = {"Authorization": f"Bearer {game['host_token']}"}
    assert wait_for(lambda: client.get("/api/camera").json["state"] == "ok")
    shutil.rmtree(tray)  # the camera is unplugged
    assert wait_for(lambda: client.get("/api/camera").json["state"] == "lost")
    lost = client.get("/api/camera").json
    assert lost["message"]["en"].startswith("Camera lost") and lost["error"]
    r = client.post(f"/api/games/{game['id']}/actions", json={"type": "draw"}, headers=auth)
    assert r.status_code == 200  # the herald still draws by hand
    assert camera_status(app)["state"] == "lost"
    tray.mkdir()
    cv2.imwrite(str(tray / "0.png"), np.zeros((120, 160, 3), np.uint8))
    assert wait_for(lambda: client.get("/api/camera").json["state"] == "ok")  # plugged back in
    assert rt.hub.status()["retries"] >= 1


def test_preview_is_mjpeg_with_the_overlay_and_only_while_watched(camera_app, app, tray, vision_fakes):
    rt = camera_app(f"replay:{tray}?hold=0.1")
    client = app.test_client()
    assert wait_for(lambda: rt.readings > 0)
    time.sleep(0.2)
    assert rt.encoded == 0
    resp = client.get("/api/camera/preview.mjpg?frames=6")
    assert resp.status_code == 200
    assert resp.mimetype == "multipart/x-mixed-replace"
    parts = [p for p in resp.data.split(b"--frame\r\n") if p]
    assert len(parts) == 6
    head, _, jpeg = parts[0].partition(b"\r\n\r\n")
    assert b"Content-Type: image/jpeg" in head
    image = cv2.imdecode(np.frombuffer(jpeg.rstrip(b"\r\n"), np.uint8), cv2.IMREAD_COLOR)
    assert image is not None and image.shape[:2] == (120, 160)
    assert rt.encoded > 0 and rt.clients == 0
    assert vision_fakes  # the overlay drew the reading on settled frames
    # ... without the English reasons (OpenCV's font has no Greek; the page says them)
    assert all(call[3] is False for call in vision_fakes)
    encoded = rt.encoded
    time.sleep(0.3)
    assert rt.encoded == encoded  # the viewer left: encoding stopped


def test_preview_of_a_lost_camera_says_so(camera_app, app, tmp_path):
    rt = camera_app(f"replay:{tmp_path / 'nothing'}")
    assert wait_for(lambda: rt.hub.status()["state"] == "lost")
    resp = app.test_client().get("/api/camera/preview.mjpg?frames=1")
    assert resp.status_code == 200 and b"image/jpeg" in resp.data


def test_status_events_stream(camera_app, app):
    camera_app("synthetic:pips")
    resp = app.test_client().get("/api/camera/events?once=1")
    text = resp.data.decode()
    assert "event: camera" in text and '"state"' in text


def test_no_camera(camera_app, app):
    camera_app("none")
    client = app.test_client()
    assert client.get("/api/camera").json["state"] == "off"
    assert camera_status(app)["state"] == "off"


def test_without_attach_the_status_is_off(app):
    assert camera_status(app)["state"] == "off"


def test_while_a_dice_set_is_learned_the_tray_says_so_and_reads_nothing(camera_app, app, table, tray,
                                                                         vision_fakes):
    """The Castle Dice set is learned again after each update (up to a minute on a Pi). Until then
    the old reader would read the castle dice as pips ("6 · 4", a roll refused): the tray is not
    read, the old reading is gone, and the page says the companion is learning, in both languages."""
    import threading

    from companion.games import castle_dice_camera

    gate = threading.Event()

    class SlowReader:
        def __init__(self):
            gate.wait(20)

        def read(self, image):
            return {"dice": [], "tokens": []}

    rt = camera_app(f"replay:{tray}?hold=0.1")
    glue = castle_dice_camera.attach(app, table, reader_factory=SlowReader)
    client = app.test_client()
    assert wait_for(lambda: client.get("/api/camera").json["reading"] is not None)
    seen = []
    rt.on_reading(seen.append)
    table.create_game("castle-dice", ["Ana", "Ben"], {"first_player": 0})
    body = client.get("/api/camera").json
    assert body["watcher"] == "learning" and body["reading"] is None
    assert "Learning" in body["watcher_message"]["en"] and "μαθαίνει" in body["watcher_message"]["el"]
    time.sleep(1.0)  # five settled trays' worth of frames: none is read
    assert seen == [] and client.get("/api/camera").json["watcher"] == "learning"
    gate.set()
    assert glue.reader_ready(timeout=20)
    assert rt.watcher.reader is not None  # the new reader's watcher
    assert wait_for(lambda: seen != [])  # reads again
    assert client.get("/api/camera").json["watcher"] in ("rolling", "settled")
