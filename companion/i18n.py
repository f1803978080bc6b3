"""Message catalogues in Greek (el) and English (en).

The core catalogue is ``companion/messages.toml``; each game adds ``companion/games/<game>.messages.toml``.
Both are TOML files with an ``[en]`` and an ``[el]`` table of ``key = "sentence with {params}"``.
A parameter may itself be a ``{"en": ..., "el": ...}`` dict or a message key prefixed with ``@``.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

LANGS = ("el", "en")
_HERE = Path(__file__).parent


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    files = [_HERE / "messages.toml", *sorted((_HERE / "games").glob("*.messages.toml"))]
    for path in files:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        for lang in LANGS:
            merged[lang].update(data.get(lang, {}))
    return merged


def normalise_lang(lang: object) -> str:
    lang = lang.lower()[:2] if isinstance(lang, str) else ""
    return lang if lang in LANGS else "en"


def t(lang: str | None, key: str, /, **params: Any) -> str:
    """The sentence ``key`` in ``lang`` (falls back to English, then to the key itself)."""
    lang = normalise_lang(lang)
    cat = catalogue()
    text = cat[lang].get(key) or cat["en"].get(key) or key
    resolved = {}
    for name, value in params.items():
        if isinstance(value, dict) and lang in value:
            value = value[lang]
        elif isinstance(value, str) and value.startswith("@"):
            value = t(lang, value[1:])
        resolved[name] = value
    try:
        return text.format(**resolved)
    except (KeyError, IndexError, ValueError):
        return text


def both(key: str, /, **params: Any) -> dict[str, str]:
    """The sentence in every language: ``{"el": ..., "en": ...}``."""
    return {lang: t(lang, key, **params) for lang in LANGS}


def caps(text: str) -> str:
    """``text`` in capitals the way Greek writes them: without the accent (tonos), which capitals
    drop ("Διπλά σπαθιά" -> "ΔΙΠΛΑ ΣΠΑΘΙΑ"; a diaeresis stays). Other scripts: ``str.upper``."""
    import unicodedata

    out, greek = [], False
    for ch in unicodedata.normalize("NFD", text.upper()):
        if not unicodedata.combining(ch):
            greek = "\u0370" <= ch <= "\u03ff" or "\u1f00" <= ch <= "\u1fff"
        elif greek and ch in "\u0301\u0300\u0342":  # acute (tonos), grave, perispomeni
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))
