"""/api/settings: host only; validated; written to config.toml and editions/; applied live."""

from __future__ import annotations

import tomllib

import pytest

from companion import config as config_mod
from companion.camera_service import attach_camera
from hardware.buttons import ButtonPanel, pins_from_config


@pytest.fixture
def setup(app, table, tmp_path, mock_factory):
    cfg = config_mod.load(tmp_path)
    cfg["camera"]["source"] = "none"
    app.config.update(DATA_DIR=str(tmp_path), CONFIG=cfg)
    panel = ButtonPanel(pins_from_config(cfg["buttons"]), pin_factory=mock_factory)
    app.extensions["panel"] = panel
    rt = attach_camera(app, table, cfg)
    client = app.test_client()
    game = client.post("/api/games", json={"game": "augustus", "players": ["Ana", "Ben"]}).json
    player = client.post("/api/join", json={"code": game["join_code"], "seat": 0}).json
    yield {"client": client, "cfg": cfg, "panel": panel, "runtime": rt, "dir": tmp_path,
           "host": {"Authorization": f"Bearer {game['host_token']}"},
           "player": {"Authorization": f"Bearer {player['token']}"}}
    rt.stop()
    panel.close()


def test_only_the_host_may_see_or_change_settings(setup):
    c = setup["client"]
    r = c.get("/api/settings")
    assert r.status_code == 401 and "host" in r.json["error"]
    assert c.get("/api/settings", headers=setup["player"]).status_code == 403
    assert c.put("/api/settings", json={"config": {"server": {"lang": "en"}}},
                 headers=setup["player"]).status_code == 403
    assert c.get("/api/settings?lang=el", headers={"Authorization": "Bearer nonsense"}).json["error"].startswith("Αυτός")
    body = c.get("/api/settings", headers=setup["host"]).json
    assert body["config"]["server"]["lang"] == "el"
    assert body["config"]["buttons"]["draw"] == 17
    assert body["editions"]["augustus"]["data"]["tokens"]["swords"]["count"] == 6
    assert body["schema"]["camera"]["source"]["kind"] == "camera"


@pytest.mark.parametrize("change, words", [
    ({"server": {"lang": "fr"}}, "el, en"),
    ({"buttons": {"next": 17}}, "GPIO 17"),
    ({"buttons": {"draw": 40}}, "from 0 to 27"),
    ({"camera": {"source": "webcam"}}, "unknown camera"),
    ({"camera": {"fps": "fast"}}, "number"),
    ({"speech": {"enabled": "yes"}}, "on or off"),
    ({"buttons": {"shutdown_hold_seconds": 2, "hold_seconds": 3}}, "longer"),
    ({"wifi": {"ssid": "x"}}, "no setting group"),
    ({"server": {"colour": "red"}}, "no setting server.colour"),
])
def test_bad_settings_are_refused_with_a_sentence_and_nothing_changes(setup, change, words):
    r = setup["client"].put("/api/settings", json={"config": change}, headers=setup["host"])
    assert r.status_code == 400
    assert words in r.json["error"] and r.json["messages"]["el"]
    assert not (setup["dir"] / "config.toml").exists()
    assert setup["cfg"]["server"]["lang"] == "el" and setup["cfg"]["buttons"]["next"] == 27


def test_settings_are_saved_and_applied_without_a_restart(setup, tmp_path):
    c = setup["client"]
    change = {"server": {"lang": "en"}, "speech": {"enabled": False},
              "camera": {"source": "synthetic:pips", "fps": 15},
              "buttons": {"draw": 5, "next": 6, "led": 0}, }
    r = c.put("/api/settings", json={"config": change}, headers=setup["host"])
    assert r.status_code == 200, r.json
    assert {"server.lang", "speech.enabled", "camera.source", "buttons.draw"} <= set(r.json["applied"])
    assert r.json["restart_needed"] == []
    saved = config_mod.load(tmp_path)  # written, and read back over the defaults
    assert saved["server"]["lang"] == "en" and saved["speech"]["enabled"] is False
    assert saved["camera"]["source"] == "synthetic:pips" and saved["buttons"]["draw"] == 5
    assert setup["cfg"]["server"]["lang"] == "en"  # the running companion's config changed in place
    assert setup["runtime"].hub.spec == "synthetic:pips" and setup["runtime"].hub.fps == 15
    assert setup["panel"].pins["draw"] == 5 and setup["panel"].led is None
    r = c.put("/api/settings", json={"config": {"server": {"port": 9000}}}, headers=setup["host"])
    assert r.json["restart_needed"] == ["server.port"]


def test_only_changed_settings_are_written(setup, tmp_path):
    # the running companion was started with --camera none; saving the language keeps that one-off
    c = setup["client"]
    body = c.get("/api/settings", headers=setup["host"]).json["config"]
    body["server"]["lang"] = "en"
    r = c.put("/api/settings", json={"config": body}, headers=setup["host"])
    assert r.status_code == 200 and r.json["applied"] == ["server.lang"]
    saved = config_mod.load(tmp_path)
    assert saved["server"]["lang"] == "en" and saved["camera"]["source"] == "auto"
    assert setup["cfg"]["camera"]["source"] == "none"


def test_edition_data_is_edited_with_provenance(setup, tmp_path):
    c = setup["client"]
    body = c.get("/api/settings", headers=setup["host"]).json
    data = body["editions"]["augustus"]["data"]
    data["tokens"]["swords"]["count"] = 7
    r = c.put("/api/settings", json={"editions": {"augustus": data}}, headers=setup["host"])
    assert r.status_code == 200, r.json
    with (tmp_path / "editions" / "augustus.toml").open("rb") as fh:
        saved = tomllib.load(fh)
    assert saved["tokens"]["swords"]["count"] == 7
    assert "settings page" in saved["tokens"]["swords"]["provenance"] and "was 6" in saved["tokens"]["swords"]["provenance"]
    assert saved["tokens"]["shield"]["provenance"].startswith("rules digest")  # untouched
    again = c.get("/api/settings", headers=setup["host"]).json["editions"]["augustus"]
    assert again["overridden"] and again["data"]["tokens"]["swords"]["count"] == 7
    r = c.put("/api/settings", json={"reset_editions": ["augustus"]}, headers=setup["host"])
    assert r.status_code == 200 and not (tmp_path / "editions" / "augustus.toml").exists()


@pytest.mark.parametrize("tokens", [{"swords": {"count": -1}}, {"swords": {"count": "six"}},
                                    {"lances": {"count": 2}}])
def test_bad_edition_data_is_refused(setup, tokens):
    r = setup["client"].put("/api/settings", json={"editions": {"augustus": {"tokens": tokens}}},
                            headers=setup["host"])
    assert r.status_code == 400 and r.json["error"]
    assert not (setup["dir"] / "editions").exists()


def test_the_settings_page_is_served(setup):
    c = setup["client"]
    page = c.get("/settings")
    assert page.status_code == 200 and b"settings.js" in page.data
    assert c.get("/static/settings.js").status_code == 200


def test_every_game_with_edition_data_round_trips(setup, tmp_path):
    c = setup["client"]
    editions = c.get("/api/settings", headers=setup["host"]).json["editions"]
    for game, ed in editions.items():
        r = c.put("/api/settings", json={"editions": {game: ed["data"]}}, headers=setup["host"])
        assert r.status_code == 200, (game, r.json)
        assert not (tmp_path / "editions" / f"{game}.toml").exists()  # unchanged: no override
    if "castle-dice" in editions:
        data = editions["castle-dice"]["data"]
        card = next(iter(data["cards"]))
        data["cards"][card]["vp"] = data["cards"][card]["vp"] + 1
        r = c.put("/api/settings", json={"editions": {"castle-dice": data}}, headers=setup["host"])
        assert r.status_code == 200, r.json
        with (tmp_path / "editions" / "castle-dice.toml").open("rb") as fh:
            saved = tomllib.load(fh)["cards"][card]
        assert saved["vp"] == data["cards"][card]["vp"] and "settings page" in saved["provenance"]


def test_edited_token_counts_are_used_by_new_games(setup):
    c = setup["client"]
    data = c.get("/api/settings", headers=setup["host"]).json["editions"]["augustus"]["data"]
    data["tokens"]["swords"]["count"] = 9
    assert c.put("/api/settings", json={"editions": {"augustus": data}}, headers=setup["host"]).status_code == 200
    game = c.post("/api/games", json={"game": "augustus", "players": ["Ana", "Ben"]}).json
    assert c.get(f"/api/games/{game['id']}").json["herald"]["bag"]["swords"] == 9
    own = c.post("/api/games", json={"game": "augustus", "players": ["Ana", "Ben"],
                                     "options": {"bag": {"swords": 1, "joker": 1}}}).json
    assert c.get(f"/api/games/{own['id']}").json["herald"]["bag"] == {"swords": 1, "joker": 1}


def test_numbers_the_rules_refuse_are_refused_here(setup):
    c = setup["client"]
    data = c.get("/api/settings", headers=setup["host"]).json["editions"]["augustus"]["data"]
    data["tokens"]["joker"]["count"] = 0  # a bag without a joker never refills
    r = c.put("/api/settings", json={"editions": {"augustus": data}}, headers=setup["host"])
    assert r.status_code == 400 and r.json["error"].startswith("augustus:")


def test_relock_is_for_the_host(setup):
    c = setup["client"]
    assert c.post("/api/camera/relock").status_code == 401
    assert c.post("/api/camera/relock", headers=setup["player"]).status_code == 403
    assert c.post("/api/camera/relock", headers=setup["host"]).status_code == 200
