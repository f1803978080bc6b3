"""The phone page: one mobile-first page that routes itself in the browser."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
@bp.get("/join")
@bp.get("/g/<game_id>")
def index(game_id: str | None = None):
    return render_template("index.html", default_game=current_app.config.get("DEFAULT_GAME", "augustus"))
