"""The settings page and the tray preview in a real browser (Debian chromium via Playwright),
against the real server with the demo camera."""

from __future__ import annotations

import tomllib

import pytest
import requests

pytestmark = pytest.mark.browser


def test_host_changes_settings_on_the_phone_and_watches_the_tray(server_factory, phone):
    srv = server_factory(("--camera", "synthetic:pips")).start()
    game = requests.post(srv.url + "/api/games", json={"game": "augustus", "players": ["Άννα", "Ben"]}).json()

    stranger = phone()
    stranger.goto(srv.url + "/settings")
    stranger.wait_for_selector(".settings-note[data-kind=error]")
    assert "οικοδεσπότης" in stranger.inner_text("main")

    page = phone()
    page.goto(f"{srv.url}/settings?token={game['host_token']}")
    page.wait_for_selector("form.settings")
    assert page.inner_text("h1") == "Ρυθμίσεις"
    page.wait_for_function("document.querySelector('.camera-status').dataset.state === 'ok'")
    assert "λειτουργεί" in page.inner_text(".camera-status")
    page.select_option("select[name='server.lang']", "en")
    page.fill("input[name='buttons.led']", "0")
    page.fill("input[name='buttons.next']", "5")
    swords = page.locator("""fieldset.edition[data-game=augustus] input[data-path='["tokens","swords","count"]']""")
    assert swords.input_value() == "6"
    swords.fill("7")
    page.click("form.settings button[type=submit]")
    page.wait_for_selector(".settings-note[data-kind=ok]")
    assert "Αποθηκεύτηκε" in page.inner_text(".settings-note")
    body = requests.get(srv.url + "/api/settings", headers={"Authorization": f"Bearer {game['host_token']}"}).json()
    assert body["config"]["server"]["lang"] == "en" and body["config"]["buttons"]["next"] == 5
    with (srv.data_dir / "config.toml").open("rb") as fh:
        assert tomllib.load(fh)["buttons"]["led"] == 0
    with (srv.data_dir / "editions" / "augustus.toml").open("rb") as fh:
        assert tomllib.load(fh)["tokens"]["swords"]["count"] == 7

    page.fill("input[name='buttons.next']", "17")  # the draw button's pin: refused, in Greek
    page.click("form.settings button[type=submit]")
    page.wait_for_selector(".settings-note[data-kind=error]")
    assert "GPIO 17" in page.inner_text(".settings-note")

    tray = phone("en-GB")
    tray.goto(srv.url + "/tray")
    tray.wait_for_function("document.querySelector('.camera-badge') && "
                           "document.querySelector('.camera-badge').dataset.state === 'ok'")
    assert "Camera working" in tray.inner_text(".camera-badge")
    # the roll watcher's state is said in words on the page (not burned in English into the picture)
    tray.wait_for_function("/Tray empty|Rolling|Dice read/.test(document.querySelector('.camera-reading').textContent)",
                           timeout=15000)
    tray.wait_for_function("(() => { const i = document.querySelector('img.camera-preview');"
                           " return i && !i.hidden && i.naturalWidth > 0; })()", timeout=10000)
    assert page.errors == [] and tray.errors == [] and stranger.errors == []
    for p in (tray, page, stranger):
        p.context.close()  # the preview stream ends with the page, so the server stops at once
