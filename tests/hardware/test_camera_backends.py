"""Camera backends through their fakes: replay, synthetic, the picamera2 stand-in, USB, auto."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware import camera as cam_mod
from hardware.camera import (CameraError, NoCamera, OpenCVCamera, Picamera2Camera, ReplayCamera,
                             SyntheticCamera, open_camera, parse_spec)

COLOURS = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]


@pytest.fixture
def image_dir(tmp_path):
    folder = tmp_path / "tray"
    folder.mkdir()
    for i, colour in enumerate(COLOURS):
        img = np.zeros((48, 64, 3), np.uint8)
        img[:] = colour
        cv2.imwrite(str(folder / f"{i:02d}.png"), img)
    (folder / "notes.txt").write_text("not an image")
    return folder


def colour_of(frame) -> tuple[int, int, int]:
    return tuple(int(v) for v in frame[10, 10])


def test_replay_folder_loops_in_name_order(image_dir):
    cam = ReplayCamera(image_dir, fps=100, hold=0.01, realtime=False)
    seen = [colour_of(cam.read()) for _ in range(7)]
    assert seen == [COLOURS[0], COLOURS[1], COLOURS[2], COLOURS[0], COLOURS[1], COLOURS[2], COLOURS[0]]
    cam.close()


def test_replay_holds_each_still_so_a_roll_can_settle(image_dir):
    cam = open_camera(f"replay:{image_dir}?fps=10&hold=0.3", realtime=False)
    seen = [colour_of(cam.read()) for _ in range(7)]
    assert seen == [COLOURS[0]] * 3 + [COLOURS[1]] * 3 + [COLOURS[2]]


def test_replay_paces_frames_at_its_fps(image_dir):
    import time

    cam = ReplayCamera(image_dir, fps=50, hold=1)
    cam.read()
    start = time.monotonic()
    for _ in range(10):
        cam.read()
    assert 0.12 < time.monotonic() - start < 1.0  # ~0.2 s for 10 frames at 50 fps


def test_replay_video_file(tmp_path):
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for colour in COLOURS:
        img = np.zeros((48, 64, 3), np.uint8)
        img[:] = colour
        writer.write(img)
    writer.release()
    cam = open_camera(f"replay:{path}", realtime=False)
    frames = [cam.read() for _ in range(5)]  # 3 frames, then it loops
    assert all(f is not None and f.shape == (48, 64, 3) for f in frames)
    assert np.argmax(frames[0][10, 10]) == 0 and np.argmax(frames[3][10, 10]) == 0  # looped to blue
    cam.close()


def test_replay_of_nothing_says_so(tmp_path):
    with pytest.raises(CameraError, match="no images"):
        ReplayCamera(tmp_path)
    with pytest.raises(CameraError, match="neither"):
        ReplayCamera(tmp_path / "missing")


def test_synthetic_camera_rolls_and_settles():
    cam = SyntheticCamera(fps=10, seed=3, empty_s=0.5, rolling_s=0.5, settled_s=1.0, realtime=False,
                          use_renderer=False)
    phases, frames = [], []
    for _ in range(20):
        frames.append(cam.read())
        phases.append(cam.phase)
    assert phases[:5] == ["empty"] * 5 and phases[5:10] == ["rolling"] * 5 and phases[10:20] == ["settled"] * 10
    assert all(f.shape == (480, 640, 3) and f.dtype == np.uint8 for f in frames)
    assert 1 <= len(cam.truth) <= 5 and all(1 <= d["value"] <= 6 for d in cam.truth)
    assert np.array_equal(frames[10], frames[19])  # settled: the tray is still
    assert not np.array_equal(frames[5], frames[6])  # rolling: it moves
    assert frames[10].std() > frames[0].std()  # dice on the felt


def test_synthetic_uses_the_renderer_when_present():
    pytest.importorskip("vision.render")
    cam = open_camera("synthetic:render", realtime=False)
    assert cam._render is not None
    for _ in range(15):
        frame = cam.read()
    assert frame is not None and cam.rolls == 1 and cam.truth
    assert cam.demo


def test_picamera2_backend_against_the_stand_in(fake_picamera2):
    cam = open_camera("picamera2", size=(320, 240), fps=15)
    assert isinstance(cam, Picamera2Camera)
    fake = fake_picamera2.instances[-1]
    assert fake.config["main"] == {"size": (320, 240), "format": "RGB888"}
    assert fake.config["controls"]["FrameRate"] == 15.0
    frame = cam.read()
    assert frame.shape == (240, 320, 3) and frame[0, 0, 0] == 200  # BGR order kept
    assert cam.lock_exposure() and cam.lock_white_balance()
    assert fake.controls == {"AeEnable": False, "ExposureTime": 16000, "AnalogueGain": 2.5,
                             "AwbEnable": False, "ColourGains": (1.8, 1.6)}
    cam.close()
    cam.close()  # twice is fine
    assert fake.closed and not fake.started


def test_picamera2_without_a_camera_module(fake_picamera2):
    fake_picamera2.cameras = []
    with pytest.raises(CameraError, match="no camera module"):
        open_camera("picamera2")


def test_picamera2_timeout_becomes_camera_error(fake_picamera2):
    fake_picamera2.fail_after = 1
    cam = open_camera("picamera2", size=(64, 48))
    cam.read()
    with pytest.raises(CameraError, match="stopped"):
        cam.read()


def test_picamera2_not_installed(no_picamera2):
    with pytest.raises(CameraError, match="not available"):
        Picamera2Camera()


class FakeCapture:
    def __init__(self, frames: int) -> None:
        self.left = frames
        self.props: dict = {}
        self.released = False

    def isOpened(self):
        return True

    def set(self, prop, value):
        self.props[prop] = value
        return True

    def get(self, prop):
        return self.props.get(prop, 0.0)

    def read(self):
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, np.zeros((48, 64, 3), np.uint8)

    def release(self):
        self.released = True


def test_usb_backend_reads_then_reports_unplugged():
    cap = FakeCapture(2)
    cam = OpenCVCamera(1, size=(64, 48), capture_factory=lambda i: cap)
    assert cap.props[cv2.CAP_PROP_FRAME_WIDTH] == 64 and cap.props[cv2.CAP_PROP_BUFFERSIZE] == 1
    assert cam.read().shape == (48, 64, 3) and cam.read() is not None
    with pytest.raises(CameraError, match="/dev/video1"):
        cam.read()
    assert cam.lock_exposure() and cap.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 1
    assert cam.lock_white_balance() and cap.props[cv2.CAP_PROP_AUTO_WB] == 0
    cam.close()
    assert cap.released


def test_usb_missing_device():
    with pytest.raises(CameraError):
        open_camera("usb:63")


def test_auto_prefers_the_camera_module(fake_picamera2):
    assert isinstance(open_camera("auto", size=(64, 48)), Picamera2Camera)


def test_auto_falls_back_to_the_demo_camera(no_picamera2, monkeypatch):
    monkeypatch.setattr(cam_mod.glob, "glob", lambda pattern: [])
    cam = open_camera("auto")
    assert isinstance(cam, SyntheticCamera) and cam.demo


def test_none_and_specs():
    assert isinstance(open_camera("none"), NoCamera) and open_camera("none").read() is None
    assert parse_spec("usb:2").arg == "2"
    assert parse_spec("replay:/x/y?fps=5&hold=1").options == {"fps": "5", "hold": "1"}
    for bad in ("usb:front", "replay:", "webcam"):
        with pytest.raises(ValueError):
            parse_spec(bad)


def test_auto_tries_each_webcam_node(no_picamera2, monkeypatch):
    monkeypatch.setattr(cam_mod.glob, "glob", lambda pattern: ["/dev/video10", "/dev/video0", "/dev/video2"])
    tried = []

    class Fake(OpenCVCamera):
        def __init__(self, index, **kw):
            tried.append(index)
            if index == 0:
                raise CameraError("not a capture device")
            super().__init__(index, capture_factory=lambda i: FakeCapture(5), **kw)

    monkeypatch.setattr(cam_mod, "OpenCVCamera", Fake)
    cam = open_camera("auto")
    assert tried == [0, 2] and cam.describe() == "usb:2"


def test_older_picamera2_without_wait(fake_picamera2, monkeypatch):
    real = fake_picamera2.capture_array

    def old_capture_array(self, name="main"):
        return real(self, name)

    monkeypatch.setattr(fake_picamera2, "capture_array", old_capture_array)
    cam = open_camera("picamera2", size=(32, 24))
    assert cam.read().shape == (24, 32, 3) and cam.read() is not None
