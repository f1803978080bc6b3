"""The JSON API under /api (see GUIDE "Contracts" and /api/openapi.json)."""

from __future__ import annotations

import io
import json
import logging
import time

import segno
from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context
from werkzeug.exceptions import HTTPException

from companion import games as games_mod
from companion.games import BadAction, NotAllowed, RuleError
from companion.i18n import normalise_lang
from companion.table import Table
from web.errors import error_response, rule_error_response
from web.openapi import OPENAPI

log = logging.getLogger(__name__)
bp = Blueprint("api", __name__, url_prefix="/api")


def table() -> Table:
    return current_app.extensions["table"]


@bp.errorhandler(RuleError)
def _rule_error(err: RuleError):
    return rule_error_response(err)


@bp.errorhandler(LookupError)
def _no_game(err: LookupError):
    return error_response("err.no_game", 404, id=str(err.args[0]) if err.args else "?")


@bp.errorhandler(HTTPException)
def _http_error(err: HTTPException):
    body = {"error": f"{err.name}: {err.description}", "code": f"http.{err.code}"}
    return jsonify(body), err.code or 400


@bp.errorhandler(Exception)
def _crash(err: Exception):  # never leak a traceback to a phone; the log keeps the detail
    log.exception("unexpected error on %s %s", request.method, request.path)
    return jsonify({"error": "Something went wrong on the companion. The action was not recorded.",
                    "code": "internal"}), 500


def _body() -> dict:
    data = request.get_json(silent=True, force=True)
    if not isinstance(data, dict):
        raise BadAction("err.bad_json")
    return data


def _token() -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.args.get("token")


def public_url() -> str:
    return (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")


def join_url(game_id: str, code: str) -> str:
    return f"{public_url()}/g/{game_id}?code={code}"


@bp.get("/health")
def health():
    return {"ok": True, "games": games_mod.available()}


@bp.get("/openapi.json")
def openapi():
    return jsonify(OPENAPI)


@bp.get("/games")
def list_games():
    return jsonify({"games": table().list_games()})


@bp.post("/games")
def create_game():
    data = _body()
    game = data.get("game", current_app.config.get("DEFAULT_GAME"))
    if not isinstance(game, str):
        raise BadAction("err.bad_field", field="game", why="it must be a game name")
    created = table().create_game(game, data.get("players"), data.get("options"),
                                  normalise_lang(data.get("lang", "el")))
    created["join_url"] = join_url(created["id"], created["join_code"])
    return jsonify(created), 201


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    return jsonify(table().view(game_id))


@bp.get("/games/<game_id>/events")
def get_events(game_id: str):
    return jsonify({"id": game_id, "events": table().events(game_id)})


@bp.post("/games/<game_id>/actions")
def post_action(game_id: str):
    tbl = table()
    tbl.row(game_id)  # 404 before 401 for an unknown game
    actor = tbl.actor_for(game_id, _token())
    return jsonify(tbl.act(game_id, actor, _body()))


@bp.get("/games/<game_id>/me")
def whoami(game_id: str):
    tbl = table()
    actor = tbl.actor_for(game_id, _token())
    out = {"role": actor.role, "seat": actor.seat, "legal_actions": tbl.legal_actions(game_id, actor)}
    if actor.is_host:
        row = tbl.row(game_id)
        out.update(join_code=row.join_code, join_url=join_url(game_id, row.join_code))
    return jsonify(out)


@bp.get("/games/<game_id>/qr.svg")
def qr(game_id: str):
    tbl = table()
    actor = tbl.actor_for(game_id, _token())
    if not actor.is_host:
        raise NotAllowed("err.not_host")
    row = tbl.row(game_id)
    buf = io.BytesIO()
    segno.make(join_url(game_id, row.join_code), error="m").save(buf, kind="svg", scale=6, border=2)
    return Response(buf.getvalue(), mimetype="image/svg+xml")


@bp.post("/games/<game_id>/seats/<int:seat>/free")
def free_seat(game_id: str, seat: int):
    tbl = table()
    tbl.free_seat(game_id, tbl.actor_for(game_id, _token()), seat)
    return jsonify(tbl.view(game_id))


@bp.get("/join/<code>")
def find_by_code(code: str):
    row = table().store.game_by_code(code.strip())
    if row is None:
        raise NotAllowed("err.bad_code")
    return jsonify(table().view(row.id))


@bp.post("/join")
def join():
    data = _body()
    return jsonify(table().claim_seat(data.get("code"), data.get("seat"), data.get("game")))


@bp.get("/games/<game_id>/stream")
def stream(game_id: str):
    """Server-sent events: the current state on connect, then after every change."""
    tbl = table()
    tbl.row(game_id)
    heartbeat = float(current_app.config.get("SSE_HEARTBEAT", 15.0))

    @stream_with_context
    def events():
        yield "retry: 1500\n\n"
        last_sent = None
        while not tbl.closing.is_set():  # the server is stopping: end, the page reconnects to the next one
            stamp = tbl.stamp(game_id)
            if stamp != last_sent:
                payload = json.dumps(tbl.view(game_id), ensure_ascii=False)
                yield f"event: state\ndata: {payload}\n\n"
                last_sent = stamp
            start = time.monotonic()
            tbl.wait(game_id, stamp, heartbeat)
            if time.monotonic() - start >= heartbeat - 0.05:
                yield ": keep-alive\n\n"

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(events(), mimetype="text/event-stream", headers=headers)



@bp.get("/i18n")
def i18n():
    """Every message catalogue (core and games), for the page's own texts."""
    from companion.i18n import catalogue

    return jsonify(catalogue())


@bp.get("/games/<game_id>/export/<fmt>")
def export(game_id: str, fmt: str):
    """A finished (or running) game as BG Stats JSON (``bgstats.json``) or CSV (``csv``), when the
    game has an exporter module ``companion/games/<game>_export.py``."""
    import importlib

    tbl = table()
    row = tbl.row(game_id)
    module_name = games_mod.GAMES[row.game] + "_export"
    try:
        exporter = importlib.import_module(module_name)
    except ImportError:
        return error_response("err.no_export", 404, game=row.game)
    state = tbl.state(game_id)
    if fmt == "bgstats.json":
        body = exporter.export_bgstats(state)
        resp = jsonify(body)
    elif fmt == "csv":
        resp = Response(exporter.export_csv(state), mimetype="text/csv")
    else:
        return error_response("err.bad_export", 404, fmt=fmt)
    resp.headers["Content-Disposition"] = f'attachment; filename="{row.game}-{game_id}.{fmt.split(".")[-1]}"'
    return resp
