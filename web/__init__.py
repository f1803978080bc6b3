"""The thin web layer: a Flask app factory, the JSON API and the phone page.

The web layer never computes game results; it turns HTTP into table actions and views into JSON.
"""

from __future__ import annotations

import logging

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.table import Table

log = logging.getLogger(__name__)


def create_app(table: Table, config: dict | None = None) -> Flask:
    """``table`` is the session every request acts on; ``config`` may set ``PUBLIC_URL`` (the
    address phones use, e.g. ``http://192.168.1.20:8000``) and ``DEFAULT_GAME``."""
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.update(PUBLIC_URL=None, DEFAULT_GAME="augustus", SSE_HEARTBEAT=15.0, JSON_AS_ASCII=False)
    app.config.update(config or {})
    app.extensions["table"] = table
    app.json.ensure_ascii = False  # Greek names stay readable in the JSON

    from web.api import bp as api_bp
    from web.pages import bp as pages_bp

    app.register_blueprint(api_bp)
    app.register_blueprint(pages_bp)
    try:  # guided calibration of custom dice and token sets (web/teach_api.py)
        from web.teach_api import bp as teach_bp
    except ImportError:
        teach_bp = None
    if teach_bp is not None:
        app.register_blueprint(teach_bp)

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException):
        """Routing errors (404, 405) under /api answer JSON with a sentence; pages keep HTML."""
        if request.path.startswith("/api/"):
            return jsonify({"error": f"{err.name}: {err.description}", "code": f"http.{err.code}"}), err.code
        return err

    return app
