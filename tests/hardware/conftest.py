"""Fixtures for the hardware tests: gpiozero's MockFactory (reset after each test) and a
stand-in for the ``picamera2`` module, which cannot be imported off a Raspberry Pi."""

from __future__ import annotations

import sys
import threading
import types

import numpy as np
import pytest



class FakePicamera2:
    """The slice of picamera2's API the backend uses, with the same names and arguments."""

    cameras = [{"Model": "imx708", "Location": 2, "Rotation": 180, "Id": "/base/soc/i2c0mux/i2c@1/imx708@1a"}]
    instances: list[FakePicamera2] = []
    fail_after: int | None = None  # raise after this many frames (a cable pulled out)

    def __init__(self, camera_num: int = 0) -> None:
        if not self.cameras:
            raise IndexError("list index out of range")  # what picamera2 does with no camera
        self.camera_num = camera_num
        self.config = None
        self.started = False
        self.closed = False
        self.controls: dict = {}
        self.frames = 0
        self.lock = threading.Lock()
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info():
        return list(FakePicamera2.cameras)

    def create_video_configuration(self, main=None, lores=None, raw=None, transform=None, colour_space=None,
                                   buffer_count=6, controls=None, display="main", encode="main",
                                   queue=True, sensor=None, use_case="video"):
        return {"use_case": use_case, "main": dict(main or {}), "controls": dict(controls or {}),
                "buffer_count": buffer_count}

    def configure(self, camera_config=None):
        self.config = camera_config

    def start(self, config=None, show_preview=False):
        assert self.config is not None, "configure() before start()"
        self.started = True

    def capture_array(self, name="main", wait=None, signal_function=None):
        if not self.started:
            raise RuntimeError("Camera must be started before capture")
        if self.fail_after is not None and self.frames >= self.fail_after:
            raise TimeoutError("Frontend has timed out!")
        self.frames += 1
        w, h = self.config["main"]["size"]
        # picamera2's RGB888 is B, G, R in memory: a blue-ish frame has a high channel 0
        frame = np.zeros((h, w, 3), np.uint8)
        frame[:, :, 0] = 200
        frame[0, 0, 1] = self.frames % 256
        return frame

    def capture_metadata(self, wait=None, signal_function=None):
        return {"ExposureTime": 16000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.6), "Lux": 300.0}

    def set_controls(self, controls):
        self.controls.update(controls)

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    FakePicamera2.instances = []
    FakePicamera2.fail_after = None
    FakePicamera2.cameras = [{"Model": "imx708", "Location": 2}]
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    yield FakePicamera2
    FakePicamera2.cameras = [{"Model": "imx708", "Location": 2}]
    FakePicamera2.fail_after = None


@pytest.fixture
def no_picamera2(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 -> ImportError
