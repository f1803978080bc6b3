"""The page scripts take their texts from the shared el/en catalogue (companion/messages.toml, served
at /api/i18n), and every text there exists in both languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.i18n import catalogue

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "web" / "static"
SCRIPTS = ["teach.js", "camera.js", "settings.js"]
GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
PARAM = re.compile(r"\{(\w+)\}")


def test_every_ui_and_teach_key_has_both_languages_with_the_same_parameters():
    cat = catalogue()
    for prefix in ("ui.", "teach."):
        en = {k for k in cat["en"] if k.startswith(prefix)}
        el = {k for k in cat["el"] if k.startswith(prefix)}
        assert en == el, (prefix, en ^ el)
        for k in en:
            assert cat["en"][k].strip() and cat["el"][k].strip(), k
            assert set(PARAM.findall(cat["en"][k])) == set(PARAM.findall(cat["el"][k])), k


def _keys_used(script: str) -> set[str]:
    """The catalogue keys a script asks for: t("name") is its namespace + name, t("a.b") a full key;
    the settings page also labels each pin field with t(<pin role>)."""
    src = (STATIC / script).read_text(encoding="utf-8")
    ns = re.search(r'const NS = "([a-z_.]+)";', src)
    assert ns, f"{script} has no catalogue namespace"
    keys = set()
    for name in re.findall(r'(?<![\w.])t\("([A-Za-z_.]+)"', src):
        keys.add(name if "." in name else ns.group(1) + name)
    pins = re.search(r"const PINS = \[([^\]]*)\]", src)
    if pins:
        keys |= {ns.group(1) + p for p in re.findall(r'"(\w+)"', pins.group(1))}
    return keys


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_page_scripts_use_the_shared_catalogue(script):
    cat = catalogue()
    src = (STATIC / script).read_text(encoding="utf-8")
    assert "window.TabletopI18n" in src and "/api/i18n" in (STATIC / "i18n.js").read_text(encoding="utf-8")
    assert not re.search(r"\bconst T = \{", src), "a string table of its own"
    # the only Greek left in a script is the language's own name in the language picker
    assert set(GREEK.findall(src.replace("Ελληνικά", ""))) == set()
    used = _keys_used(script)
    assert len(used) >= 5, used
    missing = {k for k in used if k not in cat["en"] or k not in cat["el"]}
    assert not missing, missing
    # Greek really is Greek (not English copied over), except for the few that read the same
    same = {k for k in used if cat["el"][k] == cat["en"][k]}
    assert same <= {"ui.camera.unsure", "ui.settings.led"}, same


def test_the_catalogue_route_serves_the_page_texts(client):
    body = client.get("/api/i18n").json
    assert body["el"]["ui.settings.title"] == "Ρυθμίσεις" and body["en"]["ui.settings.title"] == "Settings"
    assert body["el"]["ui.teach.capture"] == "Λήψη" and body["en"]["ui.camera.show"] == "Show the tray"
