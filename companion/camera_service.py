"""The camera at the table: one capture thread, the roll watcher, the tray preview and its status.

``attach_camera(app, table, cfg)`` (called by ``companion.serve.build``) starts the capture thread
for ``cfg["camera"]["source"]``, feeds every new frame to ``vision.watcher.RollWatcher`` when that
module exists, keeps the camera's status (ok / lost / off, the last reading) for the phones, and
registers the ``/api/camera`` and ``/api/settings`` blueprints. ``camera_status(app)`` is the small
dict the game view can carry; the page shell polls ``GET /api/camera`` (or listens to
``/api/camera/events``) to show "camera lost" while play continues by hand.
"""

from __future__ import annotations

import atexit
import dataclasses
import logging
import threading
import time
from typing import Any
from collections.abc import Callable

import numpy as np

from hardware.camera import CameraService, Frame, parse_spec

log = logging.getLogger(__name__)

WATCHER_TEXT = {
    "empty": {"en": "Tray empty", "el": "Ο δίσκος είναι άδειος"},
    "rolling": {"en": "Rolling…", "el": "Ρίψη…"},
    "settled": {"en": "Dice read", "el": "Τα ζάρια διαβάστηκαν"},
    "unreadable": {"en": "Cannot read the dice: check them, or enter them by hand",
                   "el": "Δεν διαβάζονται τα ζάρια: ελέγξτε τα ή περάστε τα με το χέρι"},
    # a custom set is learned from its examples (once after an update: up to a minute on a Pi)
    "learning": {"en": "Learning the dice from their examples… (once after an update, up to a minute)",
                 "el": "Ο βοηθός μαθαίνει τα ζάρια από τα παραδείγματα… (μία φορά μετά από ενημέρωση, "
                       "έως ένα λεπτό)"},
}


def jsonable(obj: Any) -> Any:
    """A reading (dataclass, object with ``to_json``, numpy numbers...) as plain JSON data."""
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set)):
        return [jsonable(v) for v in obj]
    for name in ("to_json", "as_dict", "to_dict"):
        fn = getattr(obj, name, None)
        if callable(fn):
            return jsonable(fn())
    if dataclasses.is_dataclass(obj):
        return jsonable(dataclasses.asdict(obj))
    if hasattr(obj, "__dict__"):
        return jsonable({k: v for k, v in vars(obj).items() if not k.startswith("_")})
    return str(obj)


def _dice_and_tokens(reading: Any) -> tuple[list, list]:
    if reading is None:
        return [], []
    if isinstance(reading, dict):
        return list(reading.get("dice") or []), list(reading.get("tokens") or [])
    if isinstance(reading, (list, tuple)):
        return list(reading), []
    return list(getattr(reading, "dice", []) or []), list(getattr(reading, "tokens", []) or [])


def _load_watcher_factory() -> Callable[[], Any] | None:
    try:
        from vision.watcher import RollWatcher
    except Exception as err:  # absent (not written yet) or broken: the preview still works
        log.info("no roll watcher (%s): the preview runs without readings", err)
        return None
    return RollWatcher


def _load_overlay() -> Callable | None:
    try:
        from vision.overlay import draw_overlay
    except Exception:
        return None
    # the preview is read by players in Greek or English, and OpenCV's font has no Greek: the
    # picture carries boxes, faces and "?", the words (state, reasons) are on the page
    return lambda image, dice, tokens: draw_overlay(image, dice, tokens, reasons=False)


def simple_overlay(image: np.ndarray, dice: list, tokens: list) -> np.ndarray:
    """A plain overlay for when ``vision.overlay`` is absent: a box and the value on each die."""
    import cv2

    for item in [*dice, *tokens]:
        d = jsonable(item)
        if not isinstance(d, dict) or "x" not in d or "y" not in d:
            continue
        w, h = float(d.get("w") or 40), float(d.get("h") or 40)
        x0, y0 = int(d["x"] - w / 2), int(d["y"] - h / 2)
        readable = d.get("face") is not None or d.get("value") is not None
        colour = (60, 220, 60) if readable else (0, 165, 255)
        cv2.rectangle(image, (x0, y0), (int(x0 + w), int(y0 + h)), colour, 2)
        label = str(d.get("face") if d.get("face") is not None else d.get("value", "?"))
        cv2.putText(image, label if readable else "?", (x0, max(12, y0 - 6)), cv2.FONT_HERSHEY_SIMPLEX,
                    max(0.5, h / 50), colour, 2, cv2.LINE_AA)
    return image


class CameraRuntime:
    """The camera side of a running companion (stored in ``app.extensions["camera"]``)."""

    def __init__(self, hub: CameraService, *, watcher_factory: Callable[[], Any] | None = None,
                 overlay: Callable | None = None, preview_fps: float = 5.0, preview_width: int = 640,
                 jpeg_quality: int = 70, watch_fps: float = 5.0) -> None:
        self.hub = hub
        self.watcher_factory = watcher_factory
        self.watcher = watcher_factory() if watcher_factory else None
        self.overlay = overlay
        self.preview_fps = preview_fps
        self.preview_width = preview_width
        self.jpeg_quality = jpeg_quality
        self.watch_fps = watch_fps
        self.cond = threading.Condition()
        self.version = 0
        self.watch_state: str | None = None
        self.learning = False  # a new reader is being learned: the tray is not read meanwhile
        self.last_reading: Any = None
        self.last_reading_json: Any = None
        self.reading_at: float | None = None
        self.readings = 0
        self.clients = 0  # preview viewers right now
        self.encoded = 0  # frames encoded to JPEG (only while someone watches)
        self._reading_listeners: list[Callable[[Any], None]] = []
        self._jpeg_lock = threading.Lock()
        self._jpeg: tuple[Any, bytes] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        hub.on_status(lambda _s: self._bump())

    # -- life cycle ------------------------------------------------------------------------------------
    def start(self) -> CameraRuntime:
        self.hub.start()
        if self.watcher is not None and (self._thread is None or not self._thread.is_alive()):
            self._stop.clear()
            self._thread = threading.Thread(target=self._watch, name="roll-watcher", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        with self.cond:  # live status channels wake now rather than at their next look
            self.cond.notify_all()
        self.hub.stop()
        if self._thread is not None:
            self._thread.join(3)
            self._thread = None

    def read(self):
        """The latest frame (BGR numpy array) or None: a still picture for teaching and real-bag reads."""
        frame = self.hub.latest()
        return None if frame is None else frame.image

    def restart(self, source: str | None = None, fps: float | None = None) -> None:
        """Another camera or frame rate (from the settings page), without restarting the server."""
        self.hub.restart(source, fps)
        if self.watcher_factory is not None:
            self.watcher = self.watcher_factory()  # a new camera: forget the old tray
        self.watch_state = None
        self._bump()

    def set_reader(self, reader: Callable | None) -> None:
        """Another dice reader for the roll watcher (e.g. a custom dice set for the game at the
        table): ``RollWatcher(reader=reader)``; None goes back to the default (pip dice)."""
        base = _load_watcher_factory()
        self.learning = False
        if base is None:
            return
        self.watcher_factory = base if reader is None else (lambda: base(reader=reader))
        self.watcher = self.watcher_factory()
        self.watch_state = None
        if self._thread is None and not self._stop.is_set() and self.hub._thread is not None:
            self.start()
        self._bump()

    def hold_reader(self, learning: bool = True) -> None:
        """While the reader of the dice at the table is being learned (:meth:`set_reader` ends it):
        the tray is not read, since the old reader would misread the new dice (Castle Dice read as
        pips: "6 · 4", and a roll refused), and the page says the companion is learning. The
        last reading goes too: it was of the other dice. ``hold_reader(False)`` goes back to the
        old reader (the new one could not be opened)."""
        self.learning = learning
        self.watch_state = None
        if learning:
            self.last_reading = self.last_reading_json = None
        self._bump()

    def on_reading(self, fn: Callable[[Any], None]) -> None:
        """``fn(reading)`` once per settled roll (e.g. to fill the dice of the current turn)."""
        self._reading_listeners.append(fn)

    def _bump(self) -> None:
        with self.cond:
            self.version += 1
            self.cond.notify_all()

    # -- the roll watcher ------------------------------------------------------------------------------
    def _watch(self) -> None:
        seq = 0
        period = 1.0 / self.watch_fps if self.watch_fps else 0.0
        last = 0.0
        while not self._stop.is_set():
            wait = period - (time.monotonic() - last)
            if wait > 0:  # a Zero 2 W cannot read every frame: read at most watch_fps of them
                self._stop.wait(wait)
            if self.learning:  # the tray is not read: the CPU is the learner's
                self._stop.wait(0.2)
                continue
            frame = self.hub.wait_frame(seq, timeout=1.0)
            if frame is None:
                continue
            seq = frame.seq
            last = time.monotonic()
            try:
                update = self.watcher.feed(frame.image)
            except Exception:
                log.exception("the roll watcher failed on a frame")
                time.sleep(0.5)
                continue
            self._take(update)

    def _take(self, update: Any) -> None:
        if update is None or self.learning:  # a frame read as the learning began
            return
        state = getattr(update, "state", None)
        if state is None and isinstance(update, dict):
            state = update.get("state")
        reading = getattr(update, "reading", None)
        if reading is None and isinstance(update, dict):
            reading = update.get("reading")
        changed = state != self.watch_state
        self.watch_state = state
        if reading is not None:
            self.last_reading = reading
            self.last_reading_json = jsonable(reading)
            self.reading_at = time.time()
            self.readings += 1
            changed = True
            for fn in list(self._reading_listeners):
                try:
                    fn(reading)
                except Exception:
                    log.exception("reading listener failed")
        if changed:
            self._bump()

    # -- status ----------------------------------------------------------------------------------------
    def status(self) -> dict:
        out = self.hub.status()
        out.update(
            version=self.version,
            watcher=("learning" if self.learning else self.watch_state) if self.watcher is not None
            else "unavailable",
            watcher_message=WATCHER_TEXT.get("learning" if self.learning else self.watch_state or ""),
            reading=self.last_reading_json, reading_at=self.reading_at, readings=self.readings,
            viewers=self.clients, preview="/api/camera/preview.mjpg",
        )
        return out

    def wait_change(self, seen: int, timeout: float) -> int:
        with self.cond:
            if self.version == seen:
                self.cond.wait(timeout)
            return self.version

    # -- the preview -----------------------------------------------------------------------------------
    def jpeg_for(self, frame: Frame | None) -> bytes:
        """The preview image of ``frame`` (with the reading overlay), encoded once for all viewers."""
        import cv2

        key = (frame.seq if frame else None, self.hub.state, self.readings, self.watch_state)
        with self._jpeg_lock:
            if self._jpeg is not None and self._jpeg[0] == key:
                return self._jpeg[1]
            image = self._compose(frame)
            ok, buf = cv2.imencode(".jpg", image, [int(cv2.IMWRITE_JPEG_QUALITY), self.jpeg_quality])
            data = buf.tobytes() if ok else b""
            self._jpeg = (key, data)
            self.encoded += 1
            return data

    def _compose(self, frame: Frame | None) -> np.ndarray:
        import cv2

        if frame is None or self.hub.status()["state"] != "ok":
            # no words in the picture (the page says "camera lost" in the player's language):
            # a dark frame with a camera crossed out
            image = np.full((360, 480, 3), 40, np.uint8)
            cv2.rectangle(image, (170, 140), (310, 230), (200, 200, 200), 4)
            cv2.circle(image, (240, 185), 28, (200, 200, 200), 4)
            cv2.line(image, (150, 250), (330, 120), (80, 80, 255), 6, cv2.LINE_AA)
            return image
        image = frame.image.copy()
        if self.watch_state == "settled" and self.last_reading is not None:
            dice, tokens = _dice_and_tokens(self.last_reading)
            drawer = self.overlay or simple_overlay
            try:
                drawn = drawer(image, dice, tokens)
                image = drawn if isinstance(drawn, np.ndarray) else image
            except Exception:
                log.exception("the overlay failed; the preview shows the plain frame")
        h, w = image.shape[:2]
        if w > self.preview_width:
            image = cv2.resize(image, (self.preview_width, int(h * self.preview_width / w)),
                               interpolation=cv2.INTER_AREA)
        return image  # the watcher's state is on the page, in words (status "watcher_message")

    def mjpeg(self, max_frames: int | None = None):
        """The multipart body of ``/api/camera/preview.mjpg``: one JPEG per new frame."""
        with self.cond:
            self.clients += 1
        period = 1.0 / self.preview_fps if self.preview_fps else 0.0
        try:
            seq, sent, last = 0, 0, 0.0
            while (max_frames is None or sent < max_frames) and not self._stop.is_set():
                wait = period - (time.monotonic() - last)
                if wait > 0:
                    time.sleep(wait)
                ok = self.hub.state == "ok"
                frame = self.hub.wait_frame(seq, timeout=2.0 if ok else (0.0 if sent == 0 else 1.0))
                if frame is not None:
                    seq = frame.seq
                elif self.hub.state == "ok":
                    continue
                last = time.monotonic()
                data = self.jpeg_for(frame)
                yield (b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                       + str(len(data)).encode() + b"\r\n\r\n" + data + b"\r\n")
                sent += 1
        finally:
            with self.cond:
                self.clients -= 1


def camera_status(app) -> dict:
    """The camera's status for the game view (``{"state": "off"}`` when there is no camera)."""
    runtime: CameraRuntime | None = app.extensions.get("camera")
    if runtime is None:
        return {"state": "off", "ok": False, "demo": False, "message": None, "reading": None}
    s = runtime.status()
    keep = ("state", "ok", "demo", "message", "watcher", "watcher_message", "reading", "reading_at",
            "preview", "backend", "version")
    return {k: s.get(k) for k in keep}


def attach_camera(app, table, cfg: dict, *, start: bool = True) -> CameraRuntime:
    """Starts the camera loop and registers the camera and settings blueprints on ``app``."""
    cam_cfg = cfg.setdefault("camera", {})
    source = str(cam_cfg.get("source", "auto"))
    try:
        parse_spec(source)
    except ValueError as err:
        log.error("%s; running without a camera", err)
        source = "none"
    size = (int(cam_cfg.get("width", 1024)), int(cam_cfg.get("height", 768)))
    hub = CameraService(source, fps=float(cam_cfg.get("fps", 10)), size=size,
                        lost_after=float(cam_cfg.get("lost_after_s", 2.0)),
                        retry_every=float(cam_cfg.get("retry_every_s", 3.0)),
                        lock=bool(cam_cfg.get("lock_exposure", True)))
    runtime = CameraRuntime(hub, watcher_factory=_load_watcher_factory(), overlay=_load_overlay(),
                            preview_fps=float(cam_cfg.get("preview_fps", 5)),
                            preview_width=int(cam_cfg.get("preview_width", 640)),
                            watch_fps=float(cam_cfg.get("watch_fps", 5)))
    app.extensions["camera"] = runtime
    app.config.setdefault("CONFIG", cfg)

    from web.camera_api import bp as camera_bp
    from web.camera_api import page_bp as camera_page_bp
    from web.settings_api import bp as settings_bp
    from web.settings_api import page_bp as settings_page_bp

    for bp in (camera_bp, camera_page_bp, settings_bp, settings_page_bp):
        if bp.name not in app.blueprints:
            app.register_blueprint(bp)
    if app.config.get("DATA_DIR"):
        from pathlib import Path

        from web.settings_api import install_edition_overrides

        install_edition_overrides(table, Path(app.config["DATA_DIR"]))

    panel = app.extensions.get("panel")
    if panel is not None:
        try:
            from hardware.buttons import wire_extras

            wire_extras(panel, app.extensions.get("speaker"), cfg)
        except Exception:
            log.exception("the shutdown button and buzzer could not be wired")
    if start:
        runtime.start()
        atexit.register(runtime.stop)
    return runtime
