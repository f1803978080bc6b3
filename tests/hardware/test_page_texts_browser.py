"""The teach screen, the camera strip and the settings page speak Greek and English from the shared
catalogue (/api/i18n) in a real browser (Debian chromium via Playwright): no key shows through."""

from __future__ import annotations

import time

import pytest
import requests

pytestmark = pytest.mark.browser


def _no_keys(text: str) -> None:
    for ns in ("ui.teach.", "ui.camera.", "ui.settings.", "ui.error"):
        assert ns not in text, text


def test_teach_screen_and_tray_in_both_languages(server_factory, phone):
    srv = server_factory(("--camera", "synthetic")).start()

    el = phone("el-GR")
    el.goto(srv.url + "/teach")
    el.wait_for_selector("#teach h2")
    box = el.locator("#teach")
    assert el.inner_text("#teach h2") == "Εκμάθηση ζαριών / πιονιών"
    assert "Όνομα σετ" in box.inner_text() and "Φωτογραφίες ανά πλευρά" in box.inner_text()
    box.locator("button", has_text="Έναρξη").click()
    el.wait_for_function("document.querySelector('#teach').innerText.includes('0 / 5')", timeout=10000)
    text = box.inner_text()
    assert "1 από " in text and "Λήψη" in text and "Ξανά την τελευταία" in text and "Αποθήκευση σετ" in text
    _no_keys(text)
    # the page's language button switches the shell; the teach screen follows on its next mount
    el.click("#lang")
    el.goto(srv.url + "/teach")
    el.wait_for_selector("#teach h2")
    assert el.inner_text("#teach h2") == "Teach dice / tokens"

    en = phone("en-GB")
    en.goto(srv.url + "/tray")
    en.wait_for_function("document.querySelector('.camera-badge') && "
                         "document.querySelector('.camera-badge').dataset.state === 'ok'")
    en.wait_for_function("document.querySelector('.camera-toggle').textContent === 'Hide the tray'")
    gr = phone("el-GR")
    gr.goto(srv.url + "/tray")
    gr.wait_for_function("document.querySelector('.camera-badge') && "
                         "document.querySelector('.camera-badge').dataset.state === 'ok'")
    gr.wait_for_function("document.querySelector('.camera-toggle').textContent === 'Απόκρυψη δίσκου'")
    gr.click(".camera-toggle")
    assert gr.inner_text(".camera-toggle") == "Δείτε τον δίσκο"
    for p in (el, en, gr):
        assert p.errors == []
        p.context.close()


def test_settings_page_in_english(server_factory, phone):
    srv = server_factory(("--camera", "none")).start()
    game = requests.post(srv.url + "/api/games", json={"game": "augustus", "players": ["Ana", "Ben"]}).json()
    page = phone("en-GB")
    page.goto(f"{srv.url}/settings?token={game['host_token']}")
    page.wait_for_selector("form.settings")
    assert page.inner_text("h1") == "Settings"
    text = page.inner_text("main")
    for words in ("General", "Language of calls on the Pi", "Buttons and light", "Draw / read", "Edition data",
                  "Shut down (long hold)", "Save"):
        assert words in text, words
    _no_keys(text)
    assert page.errors == []


def test_a_slow_script_still_gets_its_screen(server_factory, phone):
    """The page's scripts load one after another, and the text catalogue may arrive before the last
    of them (a busy Pi, a slow phone, a flaky Wi-Fi): the page routes itself only once every script
    has run, so /teach shows the teach screen and a game page its game, not the lobby."""
    srv = server_factory(("--camera", "none")).start()
    game = requests.post(srv.url + "/api/games", json={"game": "augustus", "players": ["Ana", "Ben"]}).json()

    def late(route):
        time.sleep(1.0)  # the script comes a second after the catalogue
        route.continue_()

    page = phone("en-GB")
    page.route("**/static/teach.js*", late)
    page.route("**/static/games/augustus.js*", late)
    page.goto(srv.url + "/teach")
    page.wait_for_selector("#teach h2", timeout=15000)
    assert page.inner_text("#teach h2") == "Teach dice / tokens"
    page.goto(f"{srv.url}/g/{game['id']}")
    page.wait_for_selector("#draw-count", timeout=15000)
    assert page.errors == []
