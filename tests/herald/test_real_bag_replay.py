"""A real-bag herald session driven through a replay camera: rendered photos of physical tokens are
laid "under the camera" one at a time; the table button (here the HTTP draw) reads each one."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from companion import config as config_mod
from companion.serve import build

pytest.importorskip("companion.dicesets")
SEQUENCE = ["shield", "swords", "chariot", "joker", "dagger", "swords", "standard", "catapult", "joker", "shield"]


def wait_new_frame(runtime, since: float, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        frame = runtime.hub.latest()
        if frame is not None and frame.t > since:
            return frame
        time.sleep(0.02)
    raise AssertionError("the replay camera gave no frame")


def test_real_bag_herald_session_through_a_replay_camera(tmp_path):
    from vision.render import render_scene

    rng = np.random.default_rng(2026)
    folders = []
    for i, token in enumerate(SEQUENCE):
        folder = tmp_path / f"draw{i:02d}"
        folder.mkdir()
        image, truth = render_scene(rng, kind="tokens", items=[("token", token)], hard=False)
        assert [t["face"] for t in truth] == [token]
        cv2.imwrite(str(folder / "token.png"), image)
        folders.append(folder)

    data = tmp_path / "data"
    cfg = config_mod.load(data)
    cfg["camera"]["source"] = f"replay:{folders[0]}"
    cfg["speech"]["enabled"] = False
    app, table, panel, _ = build(data, cfg, "mock")
    runtime = app.extensions["camera"]
    client = app.test_client()
    try:
        game = client.post("/api/games", json={"game": "augustus", "players": ["Άννα", "Ben", "Γιώργος"],
                                               "options": {"mode": "real"}}).get_json()
        auth = {"Authorization": f"Bearer {game['host_token']}"}
        url = f"/api/games/{game['id']}/actions"
        asked = 0
        heralds = []
        for i, token in enumerate(SEQUENCE):
            since = time.monotonic()
            runtime.restart(f"replay:{folders[i]}")
            wait_new_frame(runtime, since)
            view = client.post(url, json={"type": "draw"}, headers=auth).get_json()
            if view["herald"]["pending"] is not None:  # the camera was unsure: the herald confirms
                asked += 1
                assert view["herald"]["draws"] == i  # nothing was bookkept before the confirmation
                view = client.post(url, json={"type": "confirm_token", "token": token}, headers=auth).get_json()
            assert view["herald"]["last"] == token, (i, token, view["herald"])
            assert view["herald"]["draws"] == i + 1
            heralds.append(view["herald"]["herald"])
        # the joker rule applied exactly as for virtual draws
        assert heralds[:3] == ["Άννα"] * 3 and heralds[3:8] == ["Ben"] * 5 and heralds[8:] == ["Γιώργος"] * 2
        assert view["herald"]["drawn"] == ["shield"] and view["herald"]["bag"]["shield"] == 4
        events = client.get(f"/api/games/{game['id']}/events").get_json()["events"]
        sources = [e.get("source") for e in events if e["type"] == "draw"]
        assert sources.count("camera") >= len(SEQUENCE) - 2, sources  # at most two asked
        assert asked <= 2
    finally:
        runtime.stop()
        panel.close()
        table.store.close()
