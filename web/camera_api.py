"""The camera under /api/camera: its status (poll or SSE) and the MJPEG tray preview.

Registered by ``companion.camera_service.attach_camera``; without a camera runtime every route
answers as "no camera" so the page works the same with ``--camera none``.
"""

from __future__ import annotations

import json
import time

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

bp = Blueprint("camera", __name__, url_prefix="/api/camera")

OFF = {"state": "off", "ok": False, "demo": False, "reading": None, "watcher": "unavailable",
       "message": {"en": "No camera: enter the dice by hand.", "el": "Χωρίς κάμερα: περάστε τα ζάρια με το χέρι."}}


def _runtime():
    return current_app.extensions.get("camera")


@bp.get("")
@bp.get("/")
def status():
    """The camera's status: ``state`` ok | lost | starting | off, the last reading, the preview URL."""
    rt = _runtime()
    body = rt.status() if rt is not None else dict(OFF)
    resp = jsonify(body)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/events")
def events():
    """Server-sent events: the status on connect and whenever it changes (ok -> lost -> ok,
    a new reading). ``?once=1`` sends the first event and ends (for tests and curl)."""
    rt = _runtime()
    once = request.args.get("once") == "1"
    heartbeat = float(current_app.config.get("SSE_HEARTBEAT", 15.0))
    closing = current_app.extensions["table"].closing  # set when the server stops

    @stream_with_context
    def gen():
        yield "retry: 2000\n\n"
        seen = -1
        last_state = None
        while not closing.is_set():
            body = rt.status() if rt is not None else dict(OFF)
            if body.get("version") != seen or body["state"] != last_state:
                seen, last_state = body.get("version"), body["state"]
                yield f"event: camera\ndata: {json.dumps(body, ensure_ascii=False)}\n\n"
                if once:
                    return
            if rt is None:
                closing.wait(heartbeat)
                yield ": keep-alive\n\n"
                continue
            start = time.monotonic()
            # a stuck driver makes no event: look again every 2 s so "lost" still goes out
            rt.wait_change(seen, min(2.0, heartbeat))
            if time.monotonic() - start >= heartbeat - 0.05:
                yield ": keep-alive\n\n"

    return Response(gen(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/preview.mjpg")
def preview():
    """The tray as MJPEG with the reading overlay. Frames are encoded only while someone watches."""
    rt = _runtime()
    if rt is None:
        return jsonify({"error": "There is no camera on this companion.", "code": "camera.off"}), 404
    limit = request.args.get("frames", type=int)  # ?frames=N ends the stream after N images
    return Response(stream_with_context(rt.mjpeg(max_frames=limit)),
                    mimetype="multipart/x-mixed-replace; boundary=frame",
                    headers={"Cache-Control": "no-cache, no-store", "X-Accel-Buffering": "no"})


@bp.post("/relock")
def relock():
    """Host only: let exposure and white balance adapt to the light now, then lock them again."""
    from web.settings_api import require_host

    require_host()
    rt = _runtime()
    if rt is None:
        return jsonify({"error": "There is no camera on this companion.", "code": "camera.off"}), 404
    rt.hub.relock()
    return jsonify(rt.status())


@bp.errorhandler(ValueError)
def _refused(err):
    messages = getattr(err, "messages", None)
    if messages is None:
        raise err
    return jsonify({"error": messages["en"], "messages": messages, "code": "camera"}), getattr(err, "status", 400)


@bp.get("/frame.jpg")
def snapshot():
    """One still JPEG of the tray (with the overlay): for phones that cannot show MJPEG."""
    rt = _runtime()
    if rt is None:
        return jsonify({"error": "There is no camera on this companion.", "code": "camera.off"}), 404
    frame = rt.hub.latest()
    return Response(rt.jpeg_for(frame), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


page_bp = Blueprint("camera_page", __name__)

TRAY_PAGE = """<!doctype html>
<html lang="el"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Δίσκος · Tray</title>
<link rel="stylesheet" href="{{ url_for('static', filename='app.css') }}">
</head><body>
<main><div id="camera"></div></main>
<script src="{{ url_for('static', filename='i18n.js') }}"></script>
<script src="{{ url_for('static', filename='camera.js') }}"></script>
<script>
  var lang = localStorage.getItem("lang") || ((navigator.language || "en").toLowerCase().indexOf("el") === 0 ? "el" : "en");
  TabletopCamera.mount(document.getElementById("camera"), {lang: lang});
  document.querySelector(".camera-toggle") && setTimeout(function () { document.querySelector(".camera-toggle").click(); }, 300);
</script>
</body></html>"""


@page_bp.get("/tray")
def tray_page():
    """The tray preview and the camera's status on a page of its own."""
    from flask import render_template_string

    return render_template_string(TRAY_PAGE)
