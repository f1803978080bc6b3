"""Turning rule errors and bad requests into 4xx JSON answers with a sentence."""

from __future__ import annotations

from flask import jsonify, request

from companion.games import RuleError
from companion.i18n import both, normalise_lang


def request_lang(default: str = "en") -> str:
    lang = request.args.get("lang") or request.headers.get("X-Lang")
    if not lang:
        best = request.accept_languages.best_match(["el", "en"])
        lang = best or default
    return normalise_lang(lang)


def error_response(key: str, status: int, **params):
    messages = both(key, **params)
    body = {"error": messages[request_lang()], "messages": messages, "code": key}
    return jsonify(body), status


def rule_error_response(err: RuleError):
    return error_response(err.key, err.status, **err.params)
