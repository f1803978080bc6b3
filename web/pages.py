"""The phone page: one mobile-first page that routes itself in the browser."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, render_template

bp = Blueprint("pages", __name__)
STATIC = Path(__file__).parent / "static"


@bp.get("/")
@bp.get("/join")
@bp.get("/teach")
@bp.get("/g/<game_id>")
def index(game_id: str | None = None):
    scripts = sorted(f"games/{p.name}" for p in (STATIC / "games").glob("*.js"))
    extras = [name for name in ("teach.js", "settings.js") if (STATIC / name).exists()]
    return render_template("index.html", default_game=current_app.config.get("DEFAULT_GAME", "augustus"),
                           game_scripts=scripts + extras)
