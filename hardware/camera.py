"""Cameras: one small interface, several backends, one capture thread shared by every consumer.

A :class:`Camera` has ``read() -> BGR numpy image | None`` and ``close()``; it may also lock its
exposure and white balance (``lock_exposure()``, ``lock_white_balance()``) so that readings stay
stable when the light in the room changes. Backends, chosen by a *spec* string:

========================  ====================================================================
``picamera2[:N]``         a Raspberry Pi camera module (libcamera), imported lazily
``usb:N``                 a USB webcam through OpenCV ``VideoCapture`` (``/dev/videoN``)
``replay:PATH``           a folder of images or a video file, looping (``?fps=10&hold=3``)
``synthetic[:render]``    a demo tray with pip dice (``:render``: custom dice from ``vision.render``)
``none``                  no camera: dice are entered by hand
``auto``                  picamera2, then ``usb:0``, then the demo camera
========================  ====================================================================

:class:`CameraService` is the single capture thread (in the spirit of flask-video-streaming): it
keeps the latest frame, wakes every consumer (roll watcher, previews) on each new frame, reports
"lost" when the backend raises or frames stop, retries every few seconds and recovers by itself.
"""

from __future__ import annotations

import glob
import logging
import os
import random
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable
from urllib.parse import parse_qs

import numpy as np

log = logging.getLogger(__name__)

IMAGE_EXTS = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
DEFAULT_SIZE = (1024, 768)


class CameraError(RuntimeError):
    """The camera cannot be opened or has stopped working (said in words a host understands)."""


# -- the interface -----------------------------------------------------------------------------------
class Camera:
    """The interface every backend implements."""

    kind = "camera"
    demo = False  # True for cameras that do not look at the real table

    def read(self) -> np.ndarray | None:  # pragma: no cover - interface
        """The next frame (BGR, uint8, HxWx3), or None when none is ready yet. Raises
        :class:`CameraError` (or anything else) when the camera is gone."""
        raise NotImplementedError

    def close(self) -> None:
        """Releases the device. Safe to call twice."""

    def lock_exposure(self) -> bool:
        """Freezes exposure and gain at their current values. False when unsupported."""
        return False

    def lock_white_balance(self) -> bool:
        """Freezes the white balance at its current gains. False when unsupported."""
        return False

    def unlock(self) -> bool:
        """Automatic exposure and white balance again (before locking them anew)."""
        return False

    def describe(self) -> str:
        return self.kind


class _Pacer:
    """Sleeps so that a file-backed camera gives frames at ``fps`` (0: as fast as asked)."""

    def __init__(self, fps: float, realtime: bool = True) -> None:
        self.period = 1.0 / fps if fps and fps > 0 else 0.0
        self.realtime = realtime
        self._next = time.monotonic()

    def wait(self) -> None:
        if not self.realtime or not self.period:
            return
        now = time.monotonic()
        if self._next > now:
            time.sleep(self._next - now)
            self._next += self.period
        else:  # late: do not try to catch up with a burst
            self._next = now + self.period


class NoCamera(Camera):
    """``none``: there is no camera; manual entry only."""

    kind = "none"

    def read(self) -> None:
        return None


# -- files ---------------------------------------------------------------------------------------------
class ReplayCamera(Camera):
    """``replay:PATH``: a folder of still images (each held for ``hold`` seconds, so a roll
    watcher sees it settle) or a video file, looping forever at ``fps``."""

    kind = "replay"

    def __init__(self, path: str | Path, fps: float = 10.0, hold: float = 3.0, loop: bool = True,
                 realtime: bool = True) -> None:
        self.path = Path(path).expanduser()
        self.fps = fps
        self.loop = loop
        self._pacer = _Pacer(fps, realtime)
        self._video = None
        self._images: list[Path] = []
        if self.path.is_dir():
            self._images = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_EXTS)
            if not self._images:
                raise CameraError(f"no images in {self.path}")
        elif self.path.is_file():
            self._open_video()
        else:
            matches = sorted(glob.glob(str(self.path)))
            self._images = [Path(m) for m in matches if Path(m).suffix.lower() in IMAGE_EXTS]
            if not self._images:
                raise CameraError(f"{self.path} is neither a folder of images nor a video file")
        self.frames_per_image = max(1, round(hold * fps)) if fps else 1
        self._index = 0
        self._count = 0
        self._current: np.ndarray | None = None
        self.current_path: Path | None = None

    def _open_video(self) -> None:
        import cv2

        self._video = cv2.VideoCapture(str(self.path))
        if not self._video.isOpened():
            raise CameraError(f"cannot open the video {self.path}")

    def read(self) -> np.ndarray | None:
        self._pacer.wait()
        if self._video is not None:
            ok, frame = self._video.read()
            if not ok:
                if not self.loop:
                    return None
                self._video.release()
                self._open_video()
                ok, frame = self._video.read()
                if not ok:
                    raise CameraError(f"the video {self.path} has no frames")
            return frame
        if self._current is None or self._count >= self.frames_per_image:
            self._current = self._load_next()
            self._count = 0
        self._count += 1
        return self._current

    def _load_next(self) -> np.ndarray | None:
        import cv2

        for _ in range(len(self._images)):
            if self._index >= len(self._images):
                if not self.loop:
                    return None
                self._index = 0
            path = self._images[self._index]
            self._index += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is not None:
                self.current_path = path
                return image
            log.warning("replay: cannot read %s, skipped", path)
        raise CameraError(f"none of the images in {self.path} can be read")

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None

    def describe(self) -> str:
        return f"replay:{self.path}"


# -- the demo camera -------------------------------------------------------------------------------
PIPS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _draw_tray(size: tuple[int, int], rng: random.Random) -> np.ndarray:
    import cv2

    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (40, 95, 30)  # green felt (BGR)
    noise = np.random.default_rng(rng.randrange(1 << 30)).integers(0, 14, (h, w, 1), dtype=np.uint8)
    img = cv2.add(img, np.repeat(noise, 3, axis=2))
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (30, 60, 100), max(4, w // 40))  # wooden rim
    return img


def draw_die(img: np.ndarray, cx: float, cy: float, side: float, value: int, angle: float) -> None:
    """Draws a white pip die seen from above (used by the demo camera and by tests)."""
    import cv2

    rect = ((float(cx), float(cy)), (float(side), float(side)), float(angle))
    box = cv2.boxPoints(rect).astype(np.int32)
    cv2.fillConvexPoly(img, box, (235, 235, 230), lineType=cv2.LINE_AA)
    cv2.polylines(img, [box], True, (150, 150, 150), 1, cv2.LINE_AA)
    rad = np.deg2rad(angle)
    ca, sa = np.cos(rad), np.sin(rad)
    step = side * 0.25
    for px, py in PIPS[value]:
        x = cx + (px * ca - py * sa) * step
        y = cy + (px * sa + py * ca) * step
        cv2.circle(img, (int(round(x)), int(round(y))), max(2, int(side * 0.09)), (25, 25, 25), -1,
                   cv2.LINE_AA)


def draw_scene(rng: random.Random, size: tuple[int, int] = (640, 480), n_dice: int | None = None
               ) -> tuple[np.ndarray, list[dict]]:
    """A tray with a few pip dice; returns the image and the truth ``[{x, y, value}]``."""
    import cv2

    w, h = size
    img = _draw_tray(size, rng)
    n = n_dice if n_dice is not None else rng.randint(2, 5)
    side = min(w, h) * 0.12
    truth: list[dict] = []
    tries = 0
    while len(truth) < n and tries < 200:
        tries += 1
        x = rng.uniform(side * 1.2, w - side * 1.2)
        y = rng.uniform(side * 1.2, h - side * 1.2)
        if any((x - d["x"]) ** 2 + (y - d["y"]) ** 2 < (side * 1.6) ** 2 for d in truth):
            continue
        value = rng.randint(1, 6)
        draw_die(img, x, y, side, value, rng.uniform(0, 90))
        truth.append({"x": round(x, 1), "y": round(y, 1), "value": value, "type": "d6"})
    return cv2.GaussianBlur(img, (5, 5), 0), truth  # a lens is never pin-sharp


def _renderer() -> Callable | None:
    try:
        from vision.render import render_scene  # the custom-dice engineer's renderer
    except Exception:  # absent or broken: draw our own dice
        return None
    return render_scene


class SyntheticCamera(Camera):
    """``synthetic``: the demo camera. It cycles through an empty tray, a roll (dice moving) and
    a settled tray, like a real table; ``truth`` holds what the settled dice show."""

    kind = "synthetic"
    demo = True

    def __init__(self, fps: float = 10.0, size: tuple[int, int] = (640, 480), seed: int | None = None,
                 empty_s: float = 1.0, rolling_s: float = 1.0, settled_s: float = 4.0,
                 realtime: bool = True, use_renderer: bool = False) -> None:
        self.fps = fps or 10.0
        self.size = size
        self.rng = random.Random(seed)
        self._pacer = _Pacer(self.fps, realtime)
        self.phases = [("empty", empty_s), ("rolling", rolling_s), ("settled", settled_s)]
        self._render = _renderer() if use_renderer else None
        self._tray = _draw_tray(size, self.rng)
        self._frame_no = 0
        self.phase = "empty"
        self.truth: list = []
        self.rolls = 0
        self._scene: np.ndarray | None = None

    def _phase_at(self, t: float) -> tuple[str, int]:
        period = sum(d for _, d in self.phases)
        cycle = int(t // period) if period else 0
        t = t % period if period else 0
        for name, dur in self.phases:
            if t < dur:
                return name, cycle
            t -= dur
        return self.phases[-1][0], cycle

    def _new_scene(self) -> tuple[np.ndarray, list]:
        if self._render is not None:
            try:
                np_rng = np.random.default_rng(self.rng.randrange(1 << 31))
                image, truth = self._render(np_rng, self.rng.randint(2, 5), size=self.size, hard=False)
                if image is not None and image.ndim == 3:
                    return np.ascontiguousarray(image[:, :, :3]), truth
            except Exception:
                log.exception("vision.render failed; the demo camera draws its own dice")
                self._render = None
        return draw_scene(self.rng, self.size)

    def show_custom_dice(self) -> None:
        """From the next roll on, the demo tray shows the custom dice of ``vision.render`` (the
        game at the table reads Castle Dice, not pip dice)."""
        if self._render is None:
            self._render = _renderer()

    def read(self) -> np.ndarray:
        self._pacer.wait()
        t = self._frame_no / self.fps
        self._frame_no += 1
        phase, _ = self._phase_at(t)
        if phase == "rolling" and self.phase != "rolling":
            self._scene, self.truth = self._new_scene()
            self.rolls += 1
        self.phase = phase
        if phase == "empty" or self._scene is None:
            return self._tray.copy()
        if phase == "rolling":  # the dice tumble: the scene jumps about
            import cv2

            h, w = self._scene.shape[:2]
            dx, dy = self.rng.uniform(-0.15, 0.15) * w, self.rng.uniform(-0.15, 0.15) * h
            m = np.float32([[1, 0, dx], [0, 1, dy]])
            return cv2.warpAffine(self._scene, m, (w, h), borderMode=cv2.BORDER_REFLECT)
        return self._scene.copy()


# -- real cameras ------------------------------------------------------------------------------------
class OpenCVCamera(Camera):
    """``usb:N``: a USB webcam (UVC) through OpenCV's V4L2 backend."""

    kind = "usb"

    def __init__(self, index: int = 0, size: tuple[int, int] = DEFAULT_SIZE, fps: float = 10.0,
                 capture_factory: Callable | None = None) -> None:
        import cv2

        self.index = index
        factory = capture_factory or (lambda i: cv2.VideoCapture(i, cv2.CAP_V4L2)
                                      if os.name == "posix" else cv2.VideoCapture(i))
        self.cap = factory(index)
        if self.cap is None or not self.cap.isOpened():
            raise CameraError(f"no USB camera at /dev/video{index}")
        self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        if fps:
            self.cap.set(cv2.CAP_PROP_FPS, fps)
        self.cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the latest frame, not a stale queue

    def read(self) -> np.ndarray:
        if self.cap is None:
            raise CameraError("the USB camera is closed")
        ok, frame = self.cap.read()
        if not ok or frame is None:
            raise CameraError(f"the USB camera /dev/video{self.index} stopped giving frames")
        return frame

    def lock_exposure(self) -> bool:
        import cv2

        exposure = self.cap.get(cv2.CAP_PROP_EXPOSURE)
        ok = bool(self.cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1))  # V4L2: 1 = manual
        if exposure:
            self.cap.set(cv2.CAP_PROP_EXPOSURE, exposure)
        return ok

    def lock_white_balance(self) -> bool:
        import cv2

        temperature = self.cap.get(cv2.CAP_PROP_WB_TEMPERATURE)
        ok = bool(self.cap.set(cv2.CAP_PROP_AUTO_WB, 0))
        if temperature:
            self.cap.set(cv2.CAP_PROP_WB_TEMPERATURE, temperature)
        return ok

    def unlock(self) -> bool:
        import cv2

        ok = bool(self.cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 3))  # V4L2: 3 = aperture priority (auto)
        self.cap.set(cv2.CAP_PROP_AUTO_WB, 1)
        return ok

    def close(self) -> None:
        if self.cap is not None:
            self.cap.release()
            self.cap = None

    def describe(self) -> str:
        return f"usb:{self.index}"


class Picamera2Camera(Camera):
    """``picamera2[:N]``: a Raspberry Pi camera module through libcamera's Python binding.

    ``RGB888`` in picamera2 gives arrays in B, G, R order, which is what OpenCV expects.
    """

    kind = "picamera2"

    def __init__(self, index: int = 0, size: tuple[int, int] = DEFAULT_SIZE, fps: float = 10.0,
                 timeout_s: float = 3.0) -> None:
        try:
            from picamera2 import Picamera2
        except Exception as err:  # not a Pi, or python3-picamera2 not installed
            raise CameraError(f"picamera2 is not available ({err})") from err
        if not Picamera2.global_camera_info():
            raise CameraError("no camera module is connected to the Pi's camera port")
        self.index = index
        self.timeout_s = timeout_s
        self._has_wait = True
        self.cam = Picamera2(index)
        try:
            controls = {"FrameRate": float(fps)} if fps else {}
            config = self.cam.create_video_configuration(
                main={"size": tuple(size), "format": "RGB888"}, controls=controls, buffer_count=2)
            self.cam.configure(config)
            self.cam.start()
        except Exception as err:
            self.close()
            raise CameraError(f"the camera module did not start ({err})") from err

    def read(self) -> np.ndarray:
        if self.cam is None:
            raise CameraError("the camera module is closed")
        try:
            if self._has_wait:
                frame = self.cam.capture_array("main", wait=self.timeout_s)
            else:
                frame = self.cam.capture_array("main")
        except TypeError:
            if not self._has_wait:
                raise
            self._has_wait = False  # an older picamera2 without the wait= timeout
            frame = self.cam.capture_array("main")
        except TimeoutError as err:
            raise CameraError("the camera module stopped giving frames") from err
        return frame[:, :, :3] if frame.ndim == 3 and frame.shape[2] == 4 else frame

    def _metadata(self) -> dict:
        return self.cam.capture_metadata() or {}

    def lock_exposure(self) -> bool:
        md = self._metadata()
        controls: dict[str, Any] = {"AeEnable": False}
        for key in ("ExposureTime", "AnalogueGain"):
            if key in md:
                controls[key] = md[key]
        self.cam.set_controls(controls)
        return True

    def lock_white_balance(self) -> bool:
        md = self._metadata()
        controls: dict[str, Any] = {"AwbEnable": False}
        if "ColourGains" in md:
            controls["ColourGains"] = tuple(md["ColourGains"])
        self.cam.set_controls(controls)
        return True

    def unlock(self) -> bool:
        self.cam.set_controls({"AeEnable": True, "AwbEnable": True})
        return True

    def close(self) -> None:
        cam, self.cam = getattr(self, "cam", None), None
        if cam is None:
            return
        for step in (cam.stop, cam.close):
            try:
                step()
            except Exception:  # closing a camera that has gone must never raise
                log.debug("picamera2 %s failed", step.__name__, exc_info=True)

    def describe(self) -> str:
        return f"picamera2:{self.index}"


# -- choosing a backend --------------------------------------------------------------------------------
@dataclass
class CameraSpec:
    kind: str
    arg: str = ""
    options: dict | None = None


def parse_spec(spec: str) -> CameraSpec:
    """``"usb:1"`` -> CameraSpec("usb", "1"); ``"replay:/x?fps=5"`` -> options {"fps": "5"}."""
    spec = (spec or "auto").strip()
    kind, _, arg = spec.partition(":")
    kind = kind.lower()
    options: dict = {}
    if kind == "replay" and "?" in arg:
        arg, _, query = arg.rpartition("?")
        options = {k: v[-1] for k, v in parse_qs(query).items()}
    if kind not in ("auto", "picamera2", "usb", "replay", "synthetic", "demo", "none", "off"):
        raise ValueError(f"unknown camera {spec!r}: use auto, picamera2, usb:N, replay:PATH, synthetic or none")
    if kind == "usb" and arg and not arg.isdigit():
        raise ValueError(f"usb:N needs a number (the N of /dev/videoN), not {arg!r}")
    if kind == "replay" and not arg:
        raise ValueError("replay:PATH needs a folder of images or a video file")
    return CameraSpec(kind, arg, options)


def usb_indices(limit: int = 10) -> list[int]:
    """The N of every /dev/videoN below ``limit`` (a Pi's codec and ISP nodes are 10 and up)."""
    out = []
    for path in glob.glob("/dev/video*"):
        tail = path.removeprefix("/dev/video")
        if tail.isdigit() and int(tail) < limit:
            out.append(int(tail))
    return sorted(out)


def open_camera(spec: str, *, fps: float = 10.0, size: tuple[int, int] = DEFAULT_SIZE,
                realtime: bool = True) -> Camera:
    """Opens the camera named by ``spec``; raises :class:`CameraError` if it is not there."""
    s = parse_spec(spec)
    if s.kind in ("none", "off"):
        return NoCamera()
    if s.kind in ("synthetic", "demo"):
        # standard pip dice (what the default roll watcher reads); synthetic:render shows the
        # custom dice of vision.render (Castle Dice) instead
        return SyntheticCamera(fps=fps, realtime=realtime, use_renderer=s.arg == "render")
    if s.kind == "replay":
        opts = s.options or {}
        return ReplayCamera(s.arg, fps=float(opts.get("fps", fps)), hold=float(opts.get("hold", 3.0)),
                            realtime=realtime)
    if s.kind == "usb":
        return OpenCVCamera(int(s.arg or 0), size=size, fps=fps)
    if s.kind == "picamera2":
        return Picamera2Camera(int(s.arg or 0), size=size, fps=fps)
    # auto: the camera module, then a USB webcam, then the demo camera
    errors = []
    try:
        return Picamera2Camera(0, size=size, fps=fps)
    except Exception as err:
        errors.append(f"picamera2: {err}")
    for index in usb_indices():
        cam = None
        try:
            cam = OpenCVCamera(index, size=size, fps=fps)
            cam.read()  # a /dev/video node that gives no frames (a Pi's unicam, ISP) is not a webcam
            return cam
        except Exception as err:
            errors.append(f"usb:{index}: {err}")
            if cam is not None:
                cam.close()
    log.info("no camera found (%s); using the demo camera", "; ".join(errors) or "nothing tried")
    return SyntheticCamera(fps=fps, realtime=realtime)


# -- the capture thread ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Frame:
    seq: int
    t: float  # time.monotonic() when it was captured
    image: np.ndarray


STATUS_TEXT = {
    "ok": {"en": "Camera working", "el": "Η κάμερα λειτουργεί"},
    "starting": {"en": "Camera starting…", "el": "Η κάμερα ξεκινά…"},
    "lost": {"en": "Camera lost: enter the dice by hand. Retrying every few seconds.",
             "el": "Η κάμερα χάθηκε: περάστε τα ζάρια με το χέρι. Νέα προσπάθεια σε λίγα δευτερόλεπτα."},
    "off": {"en": "No camera: enter the dice by hand.", "el": "Χωρίς κάμερα: περάστε τα ζάρια με το χέρι."},
}


def _kind(spec: str) -> str:
    return (spec or "auto").strip().partition(":")[0].lower()


class CameraService:
    """The one capture thread. Consumers call :meth:`latest` or :meth:`wait_frame`; status
    listeners are told when the camera goes ok -> lost -> ok."""

    def __init__(self, spec: str = "auto", *, fps: float = 10.0, size: tuple[int, int] = DEFAULT_SIZE,
                 lost_after: float = 2.0, retry_every: float = 3.0, lock: bool = True,
                 opener: Callable[[str], Camera] | None = None) -> None:
        self.spec = spec
        self.fps = fps
        self.size = size
        self.lost_after = lost_after
        self.retry_every = retry_every
        self.lock_controls = lock
        self._default_opener = opener is None
        self._opener = opener or (lambda s: open_camera(s, fps=self.fps, size=self.size))
        self._demo_custom = False  # a demo camera shows custom dice (show_custom_dice), not pips
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._listeners: list[Callable[[dict], None]] = []
        self._frame: Frame | None = None
        self._seq = 0
        self.camera: Camera | None = None
        self._resolved: str | None = None  # what "auto" turned out to be
        self.state = "starting"
        self.error: str | None = None
        self.backend: str | None = None
        self.demo = False
        self.since = time.time()
        self.retries = 0
        self.locked: dict[str, bool] = {}
        self._fps_times: list[float] = []
        self._frames_missing_since = time.monotonic()
        self._relock = False

    # -- life cycle ------------------------------------------------------------------------------------
    def start(self) -> CameraService:
        if _kind(self.spec) in ("none", "off"):
            self._set_state("off", None)
            return self
        if self._thread and self._thread.is_alive():
            return self
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="camera-capture", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(min(1.0, timeout))
            if self._thread.is_alive():  # stuck in the driver: closing the device may free it
                self._close_camera()
                self._thread.join(timeout)
            self._thread = None
        self._close_camera()

    def restart(self, spec: str | None = None, fps: float | None = None) -> None:
        """Switches to another camera (the settings page): stops the thread and starts afresh."""
        if self._default_opener:
            parse_spec(spec or self.spec)  # a bad spec raises before anything stops
        self.stop()
        if spec is not None:
            self.spec = spec
        if fps:
            self.fps = fps
        self._resolved = None
        self.retries = 0
        with self._cond:
            self._frame = None
            self._fps_times = []
        self.backend, self.demo, self.locked = None, False, {}
        self._set_state("starting", None)
        self.start()

    def show_custom_dice(self) -> None:
        """A demo camera (now and after any reopening) rolls the custom dice of ``vision.render``
        instead of pip dice: a Castle Dice game is at the table. Real cameras are not touched."""
        self._demo_custom = True
        cam = self.camera
        if cam is not None and hasattr(cam, "show_custom_dice"):
            cam.show_custom_dice()

    # -- consumers ---------------------------------------------------------------------------------------
    def latest(self) -> Frame | None:
        with self._cond:
            return self._frame

    def wait_frame(self, after_seq: int = 0, timeout: float = 1.0) -> Frame | None:
        """The first frame newer than ``after_seq``, or None after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while (self._frame is None or self._frame.seq <= after_seq) and not self._stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            if self._frame is None or self._frame.seq <= after_seq:
                return None
            return self._frame

    def relock(self) -> None:
        """Lets exposure and white balance adapt to the light again, then locks them after
        two seconds (the settings page's "lock to this light" button)."""
        self._relock = True

    def on_status(self, fn: Callable[[dict], None]) -> None:
        self._listeners.append(fn)

    def status(self) -> dict:
        now = time.monotonic()
        with self._cond:
            frame = self._frame
            state = self.state
            times = list(self._fps_times)
        age = None if frame is None else round(now - frame.t, 2)
        error = self.error
        if state == "ok" and age is not None and age > self.lost_after:
            state = "lost"  # the thread is stuck inside the driver: say so at once
            error = f"the camera stopped giving frames (none for {age:.1f} s)"
        fps = 0.0
        if len(times) >= 2 and now - times[-1] < self.lost_after:
            fps = (len(times) - 1) / max(1e-6, times[-1] - times[0])
        return {
            "state": state, "ok": state == "ok", "source": self.spec, "backend": self.backend,
            "demo": self.demo, "error": error if state != "ok" else None,
            "since": self.since, "frame_age_s": age, "fps": round(fps, 1),
            "frames": frame.seq if frame else 0, "retries": self.retries,
            "retry_every_s": self.retry_every, "locked": dict(self.locked),
            "message": STATUS_TEXT.get(state, STATUS_TEXT["lost"]),
        }

    # -- the thread ------------------------------------------------------------------------------------
    def _set_state(self, state: str, error: str | None) -> None:
        changed = state != self.state
        self.state, self.error = state, error
        if changed:
            self.since = time.time()
            if state == "lost":
                log.warning("camera lost: %s", error)
            elif state == "ok":
                log.info("camera working: %s", self.backend)
            snapshot = self.status()
            for fn in list(self._listeners):
                try:
                    fn(snapshot)
                except Exception:
                    log.exception("camera status listener failed")
        with self._cond:
            self._cond.notify_all()

    def _close_camera(self) -> None:
        cam, self.camera = self.camera, None
        if cam is not None:
            try:
                cam.close()
            except Exception:
                log.debug("camera close failed", exc_info=True)

    def _lose(self, reason: str) -> None:
        self._close_camera()
        self._set_state("lost", reason)
        self.retries += 1
        self._stop.wait(self.retry_every)

    def _open(self) -> bool:
        spec = self._resolved or self.spec
        try:
            cam = self._opener(spec)
        except Exception as err:
            self._lose(str(err) or type(err).__name__)
            return False
        self.camera = cam
        self.backend = cam.describe()
        self.demo = bool(getattr(cam, "demo", False))
        if self._demo_custom and hasattr(cam, "show_custom_dice"):
            cam.show_custom_dice()
        if _kind(self.spec) == "auto" and self._resolved is None:
            # once auto has found a camera, a later failure is "camera lost", not the demo camera
            self._resolved = self.backend if not self.demo else "synthetic"
        self._frames_missing_since = time.monotonic()
        return True

    def _maybe_lock(self) -> None:
        if not self.lock_controls or self.locked or self.camera is None:
            return
        for name in ("lock_exposure", "lock_white_balance"):
            try:
                self.locked[name.removeprefix("lock_")] = bool(getattr(self.camera, name)())
            except Exception as err:
                log.info("camera %s failed: %s", name, err)
                self.locked[name.removeprefix("lock_")] = False

    def _run(self) -> None:
        lock_after = None
        while not self._stop.is_set():
            if self.camera is None:
                if not self._open():
                    continue
                self.locked = {}
                lock_after = time.monotonic() + 2.0  # let auto exposure settle first
            if self._relock:
                self._relock = False
                try:
                    self.camera.unlock()
                except Exception as err:
                    log.info("camera unlock failed: %s", err)
                self.locked = {}
                lock_after = time.monotonic() + 2.0
            try:
                image = self.camera.read()
            except Exception as err:
                self._lose(str(err) or type(err).__name__)
                continue
            now = time.monotonic()
            if image is None:
                if now - self._frames_missing_since > self.lost_after:
                    self._lose("the camera stopped giving frames")
                else:
                    self._stop.wait(0.02)
                continue
            self._frames_missing_since = now
            with self._cond:
                self._seq += 1
                self._frame = Frame(self._seq, now, image)
                self._fps_times.append(now)
                if len(self._fps_times) > 20:
                    del self._fps_times[0]
                self._cond.notify_all()
            if self.state != "ok":
                self._set_state("ok", None)
            if lock_after is not None and now >= lock_after:
                lock_after = None
                self._maybe_lock()
        self._close_camera()
