"""Real-bag mode for the Augustus herald: the camera reads the token laid on the marked spot.

The herald draws a physical token and lays it under the camera; the draw button (or the page)
sends ``{"type": "draw"}``. In real-bag mode this resolver reads the latest camera frame and turns
the action into ``{"type": "draw", "token": ...}`` — bookkept exactly like a virtual draw — or, when
the camera cannot vouch for the token or the token cannot be in the bag any more, into
``{"type": "token_unsure", ...}`` so the herald confirms it on the phone.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable

import numpy as np

from companion.games import Actor

log = logging.getLogger(__name__)
MIN_CONFIDENCE = 0.6

FrameSource = Callable[[], "np.ndarray | None"]


def nearest_to_mark(tokens: list[dict], shape: tuple[int, ...], mark: tuple[float, float] = (0.5, 0.5)) -> dict | None:
    """The token closest to the marked spot (by default the middle of the picture)."""
    if not tokens:
        return None
    h, w = shape[:2]
    mx, my = mark[0] * w, mark[1] * h
    return min(tokens, key=lambda t: math.hypot(t["x"] - mx, t["y"] - my))


def read_token(frame: np.ndarray | None, reader, bag: dict[str, int]) -> dict:
    """The action a camera read of ``frame`` stands for, given what is left in ``bag``."""
    if frame is None:
        return {"type": "token_unsure", "read": None, "reason": "the camera has no picture"}
    try:
        tokens = reader.read(frame).get("tokens", [])
    except Exception as err:  # a reader failure must not lose the draw: ask the herald instead
        log.exception("token reader failed")
        return {"type": "token_unsure", "read": None, "reason": f"the reader failed ({err.__class__.__name__})"}
    readable = [t for t in tokens if t.get("face") is not None]
    token = nearest_to_mark(readable or tokens, frame.shape)  # a readable token wins over a doubtful blob
    if token is None:
        return {"type": "token_unsure", "read": None, "reason": "no token on the mark"}
    face, conf = token.get("face"), float(token.get("confidence") or 0.0)
    if face is None:
        return {"type": "token_unsure", "read": None, "reason": token.get("reason") or "unreadable token"}
    if face not in bag:
        return {"type": "token_unsure", "read": None, "reason": f"'{face}' is not a token of this bag"}
    if conf < MIN_CONFIDENCE:
        return {"type": "token_unsure", "read": face, "reason": f"low confidence ({conf:.2f})"}
    if bag[face] < 1:
        return {"type": "token_unsure", "read": face, "reason": f"no {face} can be left in the bag"}
    return {"type": "draw", "token": face, "source": "camera"}


def make_resolver(frames: FrameSource, reader_factory: Callable[[], object], *, cache: bool = True):
    """A table resolver for Augustus: fills in real-bag draws from the camera. The reader is made
    at the first real-bag draw (once, or at every draw with ``cache=False``: the factory caches)."""
    reader_box: list = []

    def resolve(game_id: str, state: dict, action: dict, actor: Actor) -> dict:
        if state.get("mode") != "real" or action.get("type") != "draw" or action.get("token") is not None:
            return action
        if not reader_box or not cache:
            reader_box[:] = [reader_factory()]
        return read_token(frames(), reader_box[0], state["bag"])

    return resolve


def attach_real_bag(app, table) -> None:
    """Wires real-bag mode to the app's camera (``app.extensions["camera"]``), when there is one."""

    def frames():
        camera = app.extensions.get("camera")  # the CameraRuntime of companion.camera_service
        return None if camera is None else camera.read()

    opened: dict = {}
    lock = threading.Lock()

    def reader():
        """The token set chosen for Augustus (settings [sets]), opened again when the choice changes."""
        from companion.dicesets import open_for_game, set_source

        conf = getattr(app, "config", {})
        cfg, data_dir = conf.get("CONFIG"), conf.get("DATA_DIR")
        source = set_source("augustus", cfg, data_dir)
        with lock:  # one learning at a time: a draw during the warm-up waits for it
            if opened.get("source") != source:
                opened.update(source=source, reader=open_for_game("augustus", cfg, data_dir))
            return opened["reader"]

    def warm_up() -> None:
        """The set is learned again after an update (seconds on a Pi): learned beside a new game,
        not in the herald's first real-bag draw."""
        try:
            reader()
        except Exception:
            log.exception("the Augustus token set could not be opened; a real-bag draw will ask the herald")

    def on_created(_game_id: str, game: str) -> None:
        if game == "augustus" and app.extensions.get("camera") is not None:
            threading.Thread(target=warm_up, name="augustus-reader", daemon=True).start()

    table.on_created(on_created)
    table.add_resolver("augustus", make_resolver(frames, reader, cache=False))
