"""Players whose Augustus tokens are printed differently teach them on the teach screen; from then
on the herald's camera reads their bag (real-bag mode), and the settings say which set is in use."""

from __future__ import annotations

import io
import time
import tomllib

import cv2
import numpy as np
import pytest

from companion import config as config_mod
from companion.serve import build

pytest.importorskip("companion.dicesets")
SEQUENCE = ["shield", "catapult", "chariot", "standard", "dagger", "swords"]


def _png(img) -> io.BytesIO:
    ok, buf = cv2.imencode(".png", img)
    assert ok
    return io.BytesIO(buf.tobytes())


def _wait_frame(runtime, since: float, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        frame = runtime.hub.latest()
        if frame is not None and frame.t > since:
            return
        time.sleep(0.02)
    raise AssertionError("the replay camera gave no frame")


@pytest.fixture
def table_app(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_CACHE_DIR", str(tmp_path / "cache"))
    from vision import render

    rng = np.random.default_rng(31)
    draws = []
    for i, token in enumerate(SEQUENCE):  # our printing: the same tokens, other symbols
        folder = tmp_path / f"draw{i:02d}"
        folder.mkdir()
        image, truth = render.render_scene(rng, kind="tokens", set_spec=render.AUGUSTUS_TOKENS, style="glyph",
                                           items=[("token", token)], hard=False)
        assert [t["face"] for t in truth] == [token]
        cv2.imwrite(str(folder / "token.png"), image)
        draws.append((folder, image))
    data = tmp_path / "data"
    cfg = config_mod.load(data)
    cfg["camera"]["source"] = f"replay:{draws[0][0]}"
    cfg["speech"]["enabled"] = False
    app, table, panel, _ = build(data, cfg, "mock")
    yield app, app.test_client(), data, draws, rng
    app.extensions["camera"].stop()
    panel.close()
    table.store.close()


def test_a_bag_taught_on_the_teach_screen_is_what_the_herald_reads(table_app):
    from companion.dicesets import open_set
    from vision import render

    app, client, data, draws, rng = table_app
    builtin = open_set("augustus-tokens")
    known = sum(any(t["face"] == tok for t in builtin.read(img)["tokens"]) for (_, img), tok in zip(draws, SEQUENCE, strict=True))
    assert known <= len(SEQUENCE) // 2, "the built-in set should not know this printing (else the test proves nothing)"

    # the teach screen: faces like the Augustus bag, 5 photos of each token on the table
    sess = client.post("/api/teach/sessions", json={"like": "augustus-tokens", "name": "our-bag", "per_face": 5}).json
    for step in sess["steps"]:
        for _ in range(5):
            photo = render.render_example(rng, "token", step["face"], set_spec=render.AUGUSTUS_TOKENS,
                                          style="glyph", crop=False)
            r = client.post(f"/api/teach/sessions/{sess['id']}/capture",
                            data={"type": step["type"], "face": step["face"], "image": (_png(photo), "p.png")})
            assert r.status_code == 200, r.json
    saved = client.post(f"/api/teach/sessions/{sess['id']}/save", json={"name": "our-bag"}).json
    assert saved["used_for"] == ["augustus"], saved
    assert "Αύγουστος" in saved["used_message"]["el"] and "Augustus" in saved["used_message"]["en"]
    on_disk = tomllib.loads((data / "config.toml").read_text(encoding="utf-8"))
    assert on_disk["sets"]["augustus"] == "our-bag"  # a restart keeps it

    game = client.post("/api/games", json={"game": "augustus", "players": ["Άννα", "Ben"],
                                           "options": {"mode": "real"}}).json
    auth = {"Authorization": f"Bearer {game['host_token']}"}
    runtime = app.extensions["camera"]
    asked = 0
    for i, (folder, _) in enumerate(draws):
        since = time.monotonic()
        runtime.restart(f"replay:{folder}")
        _wait_frame(runtime, since)
        view = client.post(f"/api/games/{game['id']}/actions", json={"type": "draw"}, headers=auth).json
        if view["herald"]["pending"] is not None:
            asked += 1
            view = client.post(f"/api/games/{game['id']}/actions", json={"type": "confirm_token",
                                                                         "token": SEQUENCE[i]}, headers=auth).json
        assert view["herald"]["last"] == SEQUENCE[i], (i, view["herald"])
    assert asked <= 1, f"the camera asked {asked} times out of {len(SEQUENCE)}"

    # the host's settings show the set in use and offer the built-in one back
    settings = client.get("/api/settings", headers=auth).json
    assert settings["config"]["sets"]["augustus"] == "our-bag"
    assert settings["sets"]["augustus"] == ["augustus-tokens", "our-bag"]
    assert settings["sets"]["castle-dice"] == ["castle-dice"]  # tokens are no Castle Dice set


def test_a_set_that_does_not_fit_the_game_is_refused_with_a_sentence(table_app):
    app, client, data, draws, rng = table_app
    from companion.dicesets import write_rendered_set
    from vision import render

    write_rendered_set(data / "sets" / "alt", render.ALT_TOKENS, per_face=3, seed=1, style="glyph")
    game = client.post("/api/games", json={"game": "augustus", "players": ["Ana", "Ben"]}).json
    auth = {"Authorization": f"Bearer {game['host_token']}"}
    before = (data / "config.toml").read_bytes() if (data / "config.toml").exists() else None
    for choice, words in [("alt", "does not know"), ("nothing-here", "neither a built-in set"),
                          ("castle-dice", "reads tokens")]:
        r = client.put("/api/settings", json={"config": {"sets": {"augustus": choice}}}, headers=auth)
        assert r.status_code == 400, (choice, r.json)
        assert words in r.json["messages"]["en"] and r.json["messages"]["el"], (choice, r.json)
    after = (data / "config.toml").read_bytes() if (data / "config.toml").exists() else None
    assert after == before
    assert client.get("/api/settings", headers=auth).json["sets"]["augustus"] == ["augustus-tokens"]
