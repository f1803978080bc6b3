"""The Castle Dice phone UI in a real browser (Debian chromium via Playwright) against the real server:
the host creates the game in the lobby, a player joins with the code, draws, chooses dice, rolls,
takes a die from the supply, and both phones show the end screen with the winner and export links."""

from __future__ import annotations

import pytest
import requests

pytestmark = pytest.mark.browser


def plus(page, stepper_id, times=1):
    btn = page.locator(f"#{stepper_id}").locator("xpath=following-sibling::button[1]")
    for _ in range(times):
        btn.click()


def api_view(server, gid):
    return requests.get(f"{server.url}/api/games/{gid}", timeout=5).json()


def host_act(server, gid, token, action):
    r = requests.post(f"{server.url}/api/games/{gid}/actions", json=action,
                      headers={"Authorization": "Bearer " + token}, timeout=5)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_round_on_the_phones_then_the_end_screen(server, phone):
    host = phone("el-GR")
    host.goto(server.url + "/")
    host.select_option("#new-game", "castle-dice")
    host.fill("#new-players", "Άννα\nBen")
    host.locator("#new-players").dispatch_event("input")
    host.select_option("#cd-first", "0")
    host.click("#new-form button[type=submit]")
    host.wait_for_selector("#cd-prompt")
    gid = host.url.rstrip("/").split("/g/")[1].split("?")[0]
    token = host.evaluate(f"localStorage.getItem('companion.token.{gid}')")
    code = host.locator("#join-code-show").inner_text()
    assert "Γύρος 1/7" in host.locator("#cd-prompt").inner_text()

    # the host edits a card of the provisional card table on the phone
    host.click("#cd-cards summary")
    host.click("#cd-cards button[data-edit='wall']")
    plus(host, "cd-new-vp", 2)
    host.click("#cd-new-save")
    host.wait_for_function("document.querySelector(\"#cd-cards .cardrow[data-card='wall']\").textContent.includes('2 ΠΝ')")
    wall = api_view(server, gid)["cards"]["wall"]
    assert wall["vp"] == 2 and wall["name"]["el"] == "Τείχος" and wall["cost"] == {"wood": 1, "stone": 3}

    ana = phone("el-GR")
    ana.goto(f"{server.url}/g/{gid}?code={code}")
    ana.click("#seats button[data-seat='0']")
    ana.wait_for_selector("#cd-prompt.mine")
    assert "Σειρά σας" in ana.locator("#cd-prompt").inner_text()
    # a hand correction on her own board (a card effect the companion does not know)
    ana.click("#cd-adjust summary")
    plus(ana, "cd-adj-val", 4)
    ana.click("#cd-adj-save")
    ana.wait_for_function("document.querySelector(\"#cd-scoreboard tr[data-seat='0'] td[data-res='wood']\").textContent === '4'")
    assert api_view(server, gid)["board"][0]["res"]["wood"] == 4
    # draw: one tap on Done draws up to the hand limit
    ana.click("#cd-next")
    ana.wait_for_function("!document.querySelector('#cd-prompt').classList.contains('mine')")
    host.wait_for_selector("#cd-next")
    host.click("#cd-next")  # the host draws for Ben
    # choose dice: Άννα picks her extra dice with the steppers
    ana.wait_for_selector("#cd-choose")
    need = api_view(server, gid)["board"][0]["extra_dice"]
    plus(ana, "cd-pick-gold", need)
    ana.click("#cd-choose")
    host.wait_for_function("document.querySelector('#cd-prompt').dataset.turn === '1'")
    host_act(server, gid, token, {"type": "choose_dice", "dice": {"land": need}})
    # roll: Άννα rolls on her phone (virtual roll), the host rolls for Ben
    ana.wait_for_selector("#cd-roll")
    ana.click("#cd-roll")
    host.wait_for_function("document.querySelector('#cd-roll') && document.querySelector('#cd-roll').textContent.includes('Ben')")
    host.click("#cd-roll")
    ana.wait_for_function("document.querySelector('#cd-prompt').dataset.step === 'gather'")
    v = api_view(server, gid)
    assert ana.locator("#cd-tray .die").count() == len(v["supply"])
    # gather: on her turn Άννα taps a die in the supply and her scoreboard row changes
    if v["turn_seat"] == 0 and v["supply"]:
        before = ana.locator("#cd-scoreboard tr[data-seat='0']").inner_text()
        die = v["supply"][0]
        ana.click(f"#cd-tray .die[data-die='{die['id']}']")
        ana.wait_for_function(f"!document.querySelector(\"#cd-tray .die[data-die='{die['id']}']\")")
        assert ana.locator("#cd-scoreboard tr[data-seat='0']").inner_text() != before
    # an illegal action is refused with a sentence on the phone
    ana.evaluate("""() => fetch(location.pathname.replace('/g/', '/api/games/') + '/actions', {method: 'POST',
        headers: {'Content-Type': 'application/json', 'X-Lang': 'el',
                  'Authorization': 'Bearer ' + localStorage.getItem('companion.token.' + location.pathname.split('/g/')[1])},
        body: JSON.stringify({type: 'upgrade', from: 'iron'})}).then(r => r.json()).then(j => { window.__err = j.error; })""")
    ana.wait_for_function("window.__err !== undefined")
    assert "δεν" in ana.evaluate("window.__err").lower()

    # the rest of the game through the API, as the host
    for _ in range(3000):
        v = api_view(server, gid)
        if v["step"] == "scoring":
            break
        cur = v["turn_seat"]
        if v["step"] == "choose_dice" and not v["pending"]:
            n, bank, pick = v["board"][cur]["extra_dice"], dict(v["bank"]), {}
            for _ in range(min(n, sum(bank.values()))):
                typ = max(bank, key=bank.get)
                bank[typ] -= 1
                pick[typ] = pick.get(typ, 0) + 1
            host_act(server, gid, token, {"type": "choose_dice", "dice": pick})
        elif v["step"] == "gather" and not v["pending"] and v["supply"]:
            host_act(server, gid, token, {"type": "take", "die": v["supply"][0]["id"]})
        elif v["step"] == "build" and v["board"][0]["res"]["wood"] >= 1 and v["board"][0]["res"]["stone"] >= 3:
            host_act(server, gid, token, {"type": "build", "seat": 0, "card": "wall"})
        else:
            host_act(server, gid, token, {"type": "next"})
    # final scoring on the phones: Άννα reveals her Bards and taps Done, the host ends the game
    ana.wait_for_function("document.querySelector('#cd-prompt').dataset.step === 'scoring'")
    assert "Βάρδ" in ana.locator("#cd-prompt").inner_text()
    cards = api_view(server, gid)["board"][0]["market_cards"]
    if cards:
        plus(ana, "cd-bards-0", 1)
        ana.click("#cd-bards-save-0")
        ana.wait_for_function("document.querySelector('#cd-bards-0').textContent === '1'")
    ana.click("#cd-next")
    host.wait_for_function("document.querySelector('#cd-next') !== null")
    host.click("#cd-next")
    ana.wait_for_selector("#cd-winner", timeout=5000)
    host.wait_for_selector("#cd-winner", timeout=5000)
    v = api_view(server, gid)
    assert v["winner"][0] in ana.locator("#cd-winner").inner_text()
    assert ana.locator("#cd-end [data-total]").count() == 2
    if cards:
        assert api_view(server, gid)["board"][0]["bards"] == 1
    for link in ("#cd-export-json", "#cd-export-csv"):
        href = ana.locator(link).get_attribute("href")
        r = requests.get(server.url + href, timeout=5)
        assert r.status_code == 200 and ("Άννα" in r.text or "\\u0386" in r.text), (href, r.text[:200])
    assert not host.errors and not ana.errors, host.errors + ana.errors


def test_solo_round_on_one_phone(server, phone):
    """Solo mode: one player's phone runs a whole round, Lakis's turns included, with one tap each."""
    created = requests.post(f"{server.url}/api/games", json={"game": "castle-dice", "players": ["Άννα"],
                                                             "options": {"first_player": 0}}, timeout=5).json()
    gid = created["id"]
    ana = phone("en-GB")
    ana.goto(f"{server.url}/g/{gid}?code={created['join_code']}")
    ana.click("#seats button[data-seat='0']")
    ana.wait_for_selector("#cd-prompt.mine")
    for _ in range(80):
        v = api_view(server, gid)
        if v["step"] in ("market", "merchants", "build") or v["round"] > 1:
            break
        step, cur = v["step"], v["turn_seat"]
        if step == "choose_dice" and cur == 0:
            plus(ana, "cd-pick-wood", v["board"][0]["extra_dice"])
            ana.click("#cd-choose")
        elif step == "roll":
            assert "Lakis" in ana.locator("#cd-roll").inner_text() or not v["board"][0]["rolled"]
            ana.click("#cd-roll")
        elif step == "gather" and cur == 0 and not v["pending"]:
            ana.click(f"#cd-tray .die[data-die='{v['supply'][0]['id']}']")
        elif v["pending"]:
            ana.click("#cd-skip")
        else:  # draw, and every turn of Lakis: one tap
            ana.click("#cd-next")
        ana.wait_for_function(f"document.querySelector('#game').dataset.version !== '{v['version']}'", timeout=5000)
    v = api_view(server, gid)
    assert v["step"] in ("market", "merchants", "build") or v["round"] > 1
    assert sum(v["board"][1]["animals"].values()) + sum(1 for n in v["notices"] if "Lakis" in n["en"]) > 0
    assert "Round 1/7" in ana.locator("#cd-prompt").inner_text() or v["round"] > 1
    assert not ana.errors, ana.errors
