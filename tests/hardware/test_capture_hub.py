"""The one capture thread: consumers, a camera that fails mid-stream, recovery, auto."""

from __future__ import annotations

import threading
import time

import numpy as np

from hardware.camera import Camera, CameraError, CameraService


def wait_for(pred, timeout=5.0, step=0.01):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(step)
    return False


class CountingCamera(Camera):
    kind = "counting"

    def __init__(self, fail_after: int | None = None, give_none_after: int | None = None,
                 block_after: int | None = None) -> None:
        self.reads = 0
        self.fail_after = fail_after
        self.give_none_after = give_none_after
        self.block_after = block_after
        self.unblock = threading.Event()
        self.closed = False

    def read(self):
        time.sleep(0.005)
        if self.fail_after is not None and self.reads >= self.fail_after:
            raise CameraError("cable pulled out")
        if self.give_none_after is not None and self.reads >= self.give_none_after:
            return None
        if self.block_after is not None and self.reads >= self.block_after:
            self.unblock.wait(10)
        self.reads += 1
        frame = np.zeros((8, 8, 3), np.uint8)
        frame[0, 0, 0] = self.reads % 256
        return frame

    def close(self):
        self.closed = True
        self.unblock.set()


def test_two_consumers_share_one_capture_thread():
    camera = CountingCamera()
    hub = CameraService("test", opener=lambda spec: camera, lock=False).start()
    got: dict[str, list[int]] = {"watcher": [], "preview": []}

    def consume(name):
        seq = 0
        while len(got[name]) < 20:
            frame = hub.wait_frame(seq, timeout=2)
            assert frame is not None
            assert frame.seq > seq
            seq = frame.seq
            got[name].append(seq)

    threads = [threading.Thread(target=consume, args=(n,)) for n in got]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    hub.stop()
    assert len(got["watcher"]) == 20 and len(got["preview"]) == 20
    capture_threads = [t for t in threading.enumerate() if t.name == "camera-capture"]
    assert not capture_threads  # stopped
    # one read per frame, whoever watches: the frame numbers are the camera's reads
    assert max(got["watcher"][-1], got["preview"][-1]) <= camera.reads
    assert camera.closed
    assert hub.status()["frames"] == hub.latest().seq


def test_a_failing_camera_is_lost_then_recovers():
    cameras: list[CountingCamera] = []
    plugged = {"in": True}

    def opener(spec):
        if not plugged["in"]:
            raise CameraError("no camera at /dev/video0")
        cam = CountingCamera(fail_after=10 if not cameras else None)
        cameras.append(cam)
        return cam

    states: list[str] = []
    hub = CameraService("usb:0", opener=opener, retry_every=0.05, lost_after=0.5, lock=False)
    hub.on_status(lambda s: states.append(s["state"]))
    hub.start()
    assert wait_for(lambda: hub.status()["state"] == "ok")
    plugged["in"] = False
    assert wait_for(lambda: hub.status()["state"] == "lost")
    lost = hub.status()
    assert lost["error"] and lost["message"]["en"].startswith("Camera lost")
    assert "χάθηκε" in lost["message"]["el"]
    time.sleep(0.2)
    assert hub.status()["retries"] >= 2  # it keeps trying
    plugged["in"] = True
    assert wait_for(lambda: hub.status()["state"] == "ok")
    seq = hub.latest().seq
    assert hub.wait_frame(seq, timeout=2) is not None  # frames flow again
    hub.stop()
    assert states[:3] == ["ok", "lost", "ok"]
    assert cameras[0].closed


def test_frames_that_stop_coming_mean_lost():
    cam = CountingCamera(give_none_after=3)
    hub = CameraService("x", opener=lambda s: cam, lost_after=0.2, retry_every=5, lock=False).start()
    assert wait_for(lambda: hub.status()["state"] == "lost", timeout=3)
    assert "stopped" in hub.status()["error"]
    hub.stop()


def test_a_driver_stuck_in_read_shows_lost_at_once():
    cam = CountingCamera(block_after=3)
    hub = CameraService("x", opener=lambda s: cam, lost_after=0.2, lock=False).start()
    assert wait_for(lambda: hub.status()["state"] == "ok")
    assert wait_for(lambda: hub.status()["state"] == "lost", timeout=3)
    hub.stop()


def test_auto_stays_with_the_camera_it_found(fake_picamera2):
    hub = CameraService("auto", size=(64, 48), retry_every=0.05, lock=False).start()
    assert wait_for(lambda: hub.status()["state"] == "ok")
    assert hub.status()["backend"] == "picamera2:0" and not hub.status()["demo"]
    fake_picamera2.fail_after = 0  # the ribbon cable is out
    fake_picamera2.cameras = []
    assert wait_for(lambda: hub.status()["state"] == "lost")
    time.sleep(0.2)
    st = hub.status()
    assert st["state"] == "lost" and not st["demo"]  # not silently swapped for the demo camera
    fake_picamera2.cameras = [{"Model": "imx708"}]
    fake_picamera2.fail_after = None
    assert wait_for(lambda: hub.status()["state"] == "ok")
    assert hub.status()["backend"] == "picamera2:0"
    hub.stop()


def test_exposure_and_white_balance_are_locked_after_settling(fake_picamera2, monkeypatch):
    hub = CameraService("picamera2", size=(64, 48), lock=True)
    monkeypatch.setattr(time, "monotonic", _fast_clock())
    hub.start()
    assert wait_for(lambda: hub.status()["locked"] == {"exposure": True, "white_balance": True})
    assert fake_picamera2.instances[-1].controls["AeEnable"] is False
    hub.stop()


def _fast_clock():
    real = time.monotonic
    start = real()
    return lambda: start + (real() - start) * 20  # 2 s of settling pass in 0.1 s


def test_restart_switches_source_and_none_is_off():
    hub = CameraService("synthetic", fps=50).start()
    assert wait_for(lambda: hub.status()["state"] == "ok")
    hub.restart("none")
    assert hub.status()["state"] == "off" and hub.latest() is None
    hub.restart("synthetic:pips")
    assert wait_for(lambda: hub.status()["state"] == "ok")
    assert hub.status()["backend"] == "synthetic"
    hub.stop()


def test_relock_adapts_to_the_light_then_locks_again(fake_picamera2, monkeypatch):
    hub = CameraService("picamera2", size=(64, 48), lock=True)
    monkeypatch.setattr(time, "monotonic", _fast_clock())
    hub.start()
    assert wait_for(lambda: hub.status()["locked"].get("exposure"))
    cam = fake_picamera2.instances[-1]
    seen = []
    real_set = cam.set_controls
    monkeypatch.setattr(cam, "set_controls", lambda c: (seen.append(dict(c)), real_set(c)))
    hub.relock()
    assert wait_for(lambda: hub.status()["locked"].get("exposure") and len(seen) >= 3)
    assert seen[0] == {"AeEnable": True, "AwbEnable": True}
    assert seen[1]["AeEnable"] is False and seen[2]["AwbEnable"] is False
    hub.stop()
