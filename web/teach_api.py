"""Teach endpoints under /api/teach: guided calibration of a custom dice/token set from the phone.

Flow (the teach screen in static/teach.js drives it)::

    POST /api/teach/sessions                       {"like": "castle-dice", "faces": [...], "name": "mine"}
         -> 201 {"id", "steps": [{"type", "face", "label": {el,en}, "prompt": {el,en}, "captured"}], ...}
    GET  /api/teach/sessions/<id>                  -> the same view
    POST /api/teach/sessions/<id>/capture          {"type", "face"}            (live camera)
         or multipart form: type, face, image=<file>                          (an uploaded photo)
         -> {"type", "face", "index", "found", "preview", "captured"}
    GET  /api/teach/sessions/<id>/preview/<type>/<face>/<n>.png              the saved crop
    POST /api/teach/sessions/<id>/redo             {"type", "face"}  -> forgets the last capture
    POST /api/teach/sessions/<id>/save             {"name"}  -> {"set", "path", "warnings", "learn_seconds"}

The camera comes from ``current_app.extensions["camera"]`` (409 when there is none) and the files
go under ``current_app.config["DATA_DIR"]``: sessions in teach/<id>/, saved sets in sets/<name>/.
"""

from __future__ import annotations

import json
import re
import shutil
import uuid
from pathlib import Path

import cv2
import numpy as np
from flask import Blueprint, current_app, jsonify, request, send_file

from companion import i18n
from companion.dicesets import SetError, TeachSession, template_steps

bp = Blueprint("teach", __name__, url_prefix="/api/teach")

_ID = re.compile(r"^[a-f0-9]{12}$")
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")
# What the teach screen asks for (the button is the one on the screen or the table's).
PROMPT = {"dice": "teach.prompt.dice_screen", "tokens": "teach.prompt.tokens_screen"}


def _err(msg: str, code: int):
    return jsonify({"error": msg}), code


def _data_dir() -> Path:
    d = current_app.config.get("DATA_DIR")
    if not d:
        raise SetError("the companion has no data folder configured")
    return Path(d)


def _label(meta: dict, what: str, ident: str) -> dict:
    lab = (meta.get(what) or {}).get(ident, {}).get("label", {})
    if isinstance(lab, str):
        return {"el": lab, "en": lab}
    return {"el": lab.get("el") or lab.get("en") or ident, "en": lab.get("en") or ident}


def _session(sid: str) -> tuple[TeachSession, dict]:
    if not _ID.match(sid):
        raise LookupError(sid)
    root = _data_dir() / "teach" / sid
    state_file = root / "session.json"
    if not state_file.exists():
        raise LookupError(sid)
    st = json.loads(state_file.read_text(encoding="utf-8"))
    sess = TeachSession(root, [tuple(s) for s in st["steps"]], st.get("meta"), st.get("kind"))
    return sess, st


def _view(sid: str, sess: TeachSession, st: dict) -> dict:
    meta = st.get("meta") or {}
    steps = []
    for s in sess.status():
        tl, fl = _label(meta, "types", s["type"]), _label(meta, "faces", s["face"])
        prompt = {lang: i18n.t(lang, PROMPT[sess.kind], type=i18n.caps(tl[lang]), face=i18n.caps(fl[lang]))
                  for lang in ("el", "en")}
        steps.append({**s, "label": fl, "type_label": tl, "prompt": prompt,
                      "previews": [f"/api/teach/sessions/{sid}/preview/{s['type']}/{s['face']}/{p.stem}.png"
                                   for p in sess.captures(s["type"], s["face"])]})
    return {"id": sid, "name": st.get("name"), "kind": sess.kind, "per_face": st.get("per_face", 5),
            "steps": steps, "complete": all(s["captured"] > 0 for s in steps)}


@bp.errorhandler(SetError)
def _set_error(err: SetError):
    return _err(str(err), 400)


@bp.errorhandler(LookupError)
def _lookup(err: LookupError):
    return _err("there is no such teach session; start a new one", 404)


@bp.post("/sessions")
def start():
    body = request.get_json(silent=True) or {}
    like = body.get("like")
    faces = body.get("faces") or []
    if not isinstance(faces, list) or not all(isinstance(f, str) for f in faces):
        return _err("faces must be a list of \"TYPE/FACE\" strings", 400)
    if like is None and not faces:
        like = "augustus-tokens" if body.get("kind") == "tokens" else "castle-dice"
    if like is not None and (not isinstance(like, str) or like not in ("castle-dice", "augustus-tokens")):
        sets = _data_dir() / "sets"
        if not (isinstance(like, str) and _NAME.match(like) and (sets / like).is_dir()):
            return _err(f"unknown set to copy the faces from: {like!r}", 400)
        like = str(sets / like)
    meta, steps = template_steps(like, faces)
    name = body.get("name") or "my-set"
    if not isinstance(name, str) or not _NAME.match(name):
        return _err("the set name may use letters, digits, '-', '_' and '.' (at most 40)", 400)
    per_face = body.get("per_face", 5)
    if not isinstance(per_face, int) or not 1 <= per_face <= 20:
        return _err("per_face must be a whole number from 1 to 20", 400)
    kind = body.get("kind") or meta.get("kind") or ("tokens" if {t for t, _ in steps} == {"token"} else "dice")
    if kind not in ("dice", "tokens"):
        return _err("kind must be \"dice\" or \"tokens\"", 400)
    sid = uuid.uuid4().hex[:12]
    root = _data_dir() / "teach" / sid
    sess = TeachSession(root, steps, meta, kind)
    st = {"steps": [list(s) for s in steps], "meta": meta, "kind": kind, "name": name, "per_face": per_face}
    (root / "session.json").write_text(json.dumps(st, ensure_ascii=False), encoding="utf-8")
    return jsonify(_view(sid, sess, st)), 201


@bp.get("/sessions/<sid>")
def show(sid: str):
    sess, st = _session(sid)
    return jsonify(_view(sid, sess, st))


def _camera_frame():
    cam = current_app.extensions.get("camera")
    if cam is None:
        return None, "there is no camera on this companion; upload a photo instead"
    for attr in ("read", "get_frame", "frame"):
        fn = getattr(cam, attr, None)
        if callable(fn):
            frame = fn()
            if frame is None:
                return None, "the camera gave no picture yet; try again in a moment"
            if isinstance(frame, bytes | bytearray):
                frame = cv2.imdecode(np.frombuffer(frame, np.uint8), cv2.IMREAD_COLOR)
            return frame, None
    return None, "the camera cannot give still pictures"


@bp.post("/sessions/<sid>/capture")
def capture(sid: str):
    sess, st = _session(sid)
    if request.files:
        typ, face = request.form.get("type", ""), request.form.get("face", "")
        f = request.files.get("image")
        if f is None:
            return _err("send the photo in a form field called 'image'", 400)
        data = np.frombuffer(f.read(), np.uint8)
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
        if frame is None:
            return _err("the uploaded file is not a picture the companion can read", 400)
    else:
        body = request.get_json(silent=True) or {}
        typ, face = str(body.get("type", "")), str(body.get("face", ""))
        if (typ, face) not in sess.steps:
            return _err(f"'{typ}/{face}' is not one of the faces being taught", 400)
        frame, why = _camera_frame()
        if frame is None:
            return _err(why, 409)
    if (typ, face) not in sess.steps:
        return _err(f"'{typ}/{face}' is not one of the faces being taught", 400)
    path, found = sess.add(typ, face, frame)
    return jsonify({"type": typ, "face": face, "index": int(path.stem), "found": found,
                    "preview": f"/api/teach/sessions/{sid}/preview/{typ}/{face}/{path.stem}.png",
                    "captured": len(sess.captures(typ, face)),
                    "note": None if found else "no die found: the whole picture was kept; redo it if it is wrong"})


@bp.get("/sessions/<sid>/preview/<typ>/<face>/<int:n>.png")
def preview(sid: str, typ: str, face: str, n: int):
    sess, _ = _session(sid)
    if (typ, face) not in sess.steps:
        return _err(f"'{typ}/{face}' is not one of the faces being taught", 404)
    p = sess.root / "examples" / typ / face / f"{n:02d}.png"
    if not p.exists():
        return _err("there is no such picture", 404)
    return send_file(p.resolve(), mimetype="image/png", max_age=0)


@bp.post("/sessions/<sid>/redo")
def redo(sid: str):
    sess, _ = _session(sid)
    body = request.get_json(silent=True) or {}
    typ, face = str(body.get("type", "")), str(body.get("face", ""))
    if (typ, face) not in sess.steps:
        return _err(f"'{typ}/{face}' is not one of the faces being taught", 400)
    if body.get("all"):
        sess.clear(typ, face)
    else:
        sess.redo(typ, face)
    return jsonify({"type": typ, "face": face, "captured": len(sess.captures(typ, face))})


@bp.post("/sessions/<sid>/save")
def save(sid: str):
    sess, st = _session(sid)
    body = request.get_json(silent=True) or {}
    name = body.get("name") or st.get("name") or "my-set"
    if not isinstance(name, str) or not _NAME.match(name) or name in ("castle-dice", "augustus-tokens"):
        return _err("choose another set name (letters, digits, '-', '_' and '.'; not a built-in name)", 400)
    missing = [f"{t}/{f}" for t, f in sess.steps if not sess.captures(t, f)]
    if missing:
        return _err(f"no picture yet for {', '.join(missing[:5])}; capture them first", 409)
    dest = _data_dir() / "sets" / name
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(sess.root / "examples", dest / "examples")
    final = TeachSession(dest, sess.steps, st.get("meta"), sess.kind)
    reader = final.save(name)
    used, warnings = _use_for_games(name, dest, body.get("use", True))
    return jsonify({"set": reader.name, "path": str(dest), "warnings": reader.warnings + warnings,
                    "learn_seconds": round(reader.learn_seconds, 2), "used_for": used,
                    "used_message": {lang: i18n.t(lang, "ui.teach.used_for",
                                                  games=", ".join(i18n.t(lang, f"ui.game.{g}") for g in used))
                                     for lang in ("el", "en")} if used else None})


def _use_for_games(name: str, dest: Path, use: object) -> tuple[list[str], list[str]]:
    """The games whose camera reads with the saved set from now on: those whose faces it has (a
    set taught like castle-dice is Castle Dice's), unless the request says ``"use": false``."""
    from companion.dicesets import GAME_SETS, check_fits
    from web.settings_api import SettingsError, use_set

    used, warnings = [], []
    if use is False:
        return used, warnings
    for game in GAME_SETS:
        try:
            _, missing = check_fits(game, dest)
        except SetError:
            continue
        try:
            use_set(game, name)
        except SettingsError as err:
            warnings.append(str(err))
            continue
        used.append(game)
        warnings += missing
    return used, warnings
