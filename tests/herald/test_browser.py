"""The phone page in a real browser: Debian's chromium driven by Playwright, against the real server."""

from __future__ import annotations

import time

import pytest
import requests

pytestmark = pytest.mark.browser


def test_host_draws_and_a_spectator_sees_the_token_within_two_seconds(server, phone):
    host = phone("el-GR")
    host.goto(server.url + "/")
    # a new game with Unicode names, from the lobby form (Greek by default from the browser language)
    assert host.locator("#new-form h2").inner_text() == "Νέο παιχνίδι"
    host.fill("#new-players", "Άννα\nBen\n李雷\nΓιώργος 🎲")
    host.select_option("#aug-herald", "1")
    host.click("#new-form button[type=submit]")
    host.wait_for_selector("#draw")
    assert host.locator("#herald-name").inner_text() == "Ben"
    assert host.locator("#conn").get_attribute("data-state") == "live"
    game_id = host.url.rstrip("/").split("/g/")[1].split("?")[0]
    code = host.locator("#join-code-show").inner_text()
    assert len(code) == 5
    host.wait_for_function("(i => i && i.complete && i.naturalWidth > 100)(document.querySelector('#host .qr img'))",
                           timeout=5000)  # the QR code really renders

    host.click("#sound")  # the one tap that unlocks speech on iOS
    assert host.locator("#sound").inner_text() == "Ήχος: ναι"

    spectator = phone("en-US")
    spectator.goto(f"{server.url}/g/{game_id}?code={code}")
    spectator.wait_for_selector("#watch")
    spectator.click("#watch")
    spectator.wait_for_selector("#bag")
    assert spectator.locator("#me").get_attribute("data-role") == "spectator"
    assert spectator.locator("#draw").count() == 0  # read-only
    assert "Swords" in spectator.locator("#bag").inner_text()  # English from the browser language

    for n in (1, 2, 3):
        host.click("#draw")
        start = time.monotonic()
        spectator.wait_for_function(
            f"document.querySelector('#draw-count') && document.querySelector('#draw-count').textContent == '{n}'",
            timeout=2000)
        elapsed = time.monotonic() - start
        assert elapsed < 2.0
        token = spectator.locator("#last-token").get_attribute("data-token")
        state = requests.get(f"{server.url}/api/games/{game_id}", timeout=5).json()
        assert token == state["herald"]["last"]
        assert spectator.locator("#last-token img").get_attribute("src").endswith(f"/{token}.svg")
    # (the call is spoken after the page redraws: on a busy machine the last one may lag the count)
    host.wait_for_function("window.__spoken.filter(s => s.text.trim()).length >= 3", timeout=5000)
    spoken = [s for s in host.evaluate("window.__spoken") if s["text"].strip()]
    assert len(spoken) == 3 and all(s["lang"] == "el-GR" and s["text"].endswith(("!", ".")) for s in spoken)
    names = requests.get(f"{server.url}/api/i18n", timeout=5).json()["el"]
    assert spoken[-1]["text"].startswith(names["augustus.token." + token].split()[0])
    assert not host.errors and not spectator.errors


def test_a_player_joins_with_the_code_and_only_the_herald_gets_draw(server, phone):
    res = requests.post(f"{server.url}/api/games", json={"game": "augustus", "players": ["Άννα", "Ben"]}, timeout=5)
    game = res.json()
    ana = phone()
    ana.goto(f"{server.url}/join")
    ana.fill("#join-code", game["join_code"].lower())
    ana.click("#join-form button[type=submit]")
    ana.click("#seats button[data-seat='0']")
    ana.wait_for_selector("#draw")  # Άννα is the first herald
    assert "Άννα" in ana.locator("#me").inner_text()
    ben = phone()
    ben.goto(f"{server.url}/g/{game['id']}?code={game['join_code']}")
    assert ben.locator("#seats button[data-seat='0']").is_disabled()  # taken
    ben.click("#seats button[data-seat='1']")
    ben.wait_for_selector("#bag")
    assert ben.locator("#draw").count() == 0
    # Ben cannot undo Άννα's draw; Άννα can
    ana.click("#draw")
    ben.wait_for_function("(c => c && c.textContent == '1')(document.querySelector('#draw-count'))", timeout=3000)
    assert ben.locator("#undo").is_disabled()
    ana.wait_for_function("(b => b && !b.disabled)(document.querySelector('#undo'))", timeout=3000)
    ana.click("#undo")
    ben.wait_for_function("(c => c && c.textContent == '0')(document.querySelector('#draw-count'))", timeout=3000)
    # switch language on the page
    ben.click("#lang")
    ben.wait_for_function("document.documentElement.lang == 'en'")
    assert "Herald" in ben.locator("#game").inner_text()
    assert not ana.errors and not ben.errors


def test_connection_status_is_inline_and_recovers(server_factory, phone):
    srv = server_factory().start()
    game = requests.post(f"{srv.url}/api/games", json={"players": ["A", "B"]}, timeout=5).json()
    page = phone("en-US")
    page.goto(f"{srv.url}/g/{game['id']}")
    page.wait_for_function("document.querySelector('#conn').dataset.state == 'live'", timeout=5000)
    srv.kill()
    page.wait_for_function("document.querySelector('#conn').dataset.state == 'down'", timeout=10000)
    assert "reconnecting" in page.locator("#conn").inner_text().lower()
    # restart on the same port and data: the page reconnects by itself and shows the state
    srv.start()
    requests.post(f"{srv.url}/api/games/{game['id']}/actions", json={"type": "draw"},
                  headers={"Authorization": f"Bearer {game['host_token']}"}, timeout=5)
    page.wait_for_function("document.querySelector('#conn').dataset.state == 'live'", timeout=15000)
    page.wait_for_function("(c => c && c.textContent == '1')(document.querySelector('#draw-count'))", timeout=15000)
    assert not page.errors


def test_the_herald_confirms_an_unsure_token_on_the_phone(server, phone):
    game = requests.post(f"{server.url}/api/games", json={"players": ["Άννα", "Ben"], "options": {"mode": "real"}},
                         timeout=5).json()
    auth = {"Authorization": f"Bearer {game['host_token']}"}
    url = f"{server.url}/api/games/{game['id']}/actions"
    requests.post(url, json={"type": "draw", "token": "dagger"}, headers=auth, timeout=5)
    ana = phone("en-US")
    ana.goto(f"{server.url}/g/{game['id']}?code={game['join_code']}")
    ana.click("#seats button[data-seat='0']")
    ana.wait_for_selector("#draw")
    assert "Real bag" in ana.locator("#game").inner_text()
    # the camera saw a token it cannot vouch for
    requests.post(url, json={"type": "token_unsure", "read": "dagger", "reason": "no dagger can be left in the bag"},
                  headers=auth, timeout=5)
    ana.wait_for_selector("#pending")
    assert "no dagger can be left" in ana.locator("#pending").inner_text()
    assert ana.locator("#pending button[data-token='dagger']").is_disabled()  # none left in the bag
    ana.click("#pending button[data-token='joker']")
    ana.wait_for_function("(c => c && c.textContent == '2')(document.querySelector('#draw-count'))", timeout=3000)
    assert ana.locator("#pending").count() == 0
    state = requests.get(f"{server.url}/api/games/{game['id']}", timeout=5).json()["herald"]
    assert state["last"] == "joker" and state["herald"] == "Ben" and state["bag"]["dagger"] == 1
    assert not ana.errors


def test_the_teach_screen_captures_from_the_demo_camera(server_factory, phone):
    srv = server_factory(("--camera", "synthetic")).start()
    page = phone("en-US")
    page.goto(srv.url + "/")
    page.click("#teach-link")
    page.wait_for_selector("#teach button")
    page.locator("#teach button", has_text="Start").click()
    page.wait_for_function("document.querySelector('#teach').innerText.includes('0 / 5')", timeout=10000)
    assert "Show a WOOD die" in page.locator("#teach").inner_text()
    page.locator("#teach button", has_text="Capture").click()
    page.wait_for_function("document.querySelector('#teach').innerText.includes('1 / 5')", timeout=10000)
    page.wait_for_function("(i => i && i.complete && i.naturalWidth > 8)(document.querySelector('#teach img'))",
                           timeout=10000)  # the captured crop is shown
    assert not page.errors
