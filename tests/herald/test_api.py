"""The HTTP API through Flask's test client: roles, tokens, undo and bad input (never a 5xx)."""

from __future__ import annotations

import pytest


def create(client, players=("Άννα", "Ben", "Γιώργος"), **options):
    res = client.post("/api/games", json={"game": "augustus", "players": list(players), "options": options})
    assert res.status_code == 201, res.get_json()
    return res.get_json()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def join(client, game, seat):
    res = client.post("/api/join", json={"code": game["join_code"], "seat": seat})
    assert res.status_code == 200, res.get_json()
    return res.get_json()["token"]


def test_create_game_returns_the_contract_fields(client):
    game = create(client)
    assert set(game) >= {"id", "host_token", "join_code", "join_url"}
    assert game["join_url"].endswith(f"/g/{game['id']}?code={game['join_code']}")
    view = client.get(f"/api/games/{game['id']}").get_json()
    assert view["players"] == ["Άννα", "Ben", "Γιώργος"]
    assert view["herald"] == {**view["herald"], "herald": "Άννα", "draws": 0, "last": None, "drawn": []}
    assert view["herald"]["bag"] == {"swords": 6, "shield": 5, "chariot": 4, "catapult": 3, "standard": 2,
                                     "dagger": 1, "joker": 2}
    assert sum(view["odds"].values()) == pytest.approx(1)
    assert "join_code" not in view and "host_token" not in str(view)


def test_host_draws_and_the_log_records_it(client):
    game = create(client)
    res = client.post(f"/api/games/{game['id']}/actions", json={"type": "draw"}, headers=bearer(game["host_token"]))
    assert res.status_code == 200
    herald = res.get_json()["herald"]
    assert herald["draws"] == 1 and len(herald["drawn"]) in (0, 1) and herald["last"] is not None
    events = client.get(f"/api/games/{game['id']}/events").get_json()["events"]
    assert [e["type"] for e in events] == ["setup", "draw"]
    assert events[1]["actor"] == {"role": "host", "seat": None} and events[1]["token"] == herald["last"]


def test_the_herald_draws_with_their_own_token_and_others_cannot(client):
    game = create(client, herald=1)
    ben = join(client, game, 1)
    ana = join(client, game, 0)
    url = f"/api/games/{game['id']}/actions"
    res = client.post(url, json={"type": "draw"}, headers=bearer(ana))
    assert res.status_code == 403 and "Ben" in res.get_json()["error"]
    assert client.post(url, json={"type": "draw"}, headers=bearer(ben)).status_code == 200


@pytest.mark.parametrize("headers,code", [({}, "err.no_token"), (bearer("nonsense"), "err.bad_token"),
                                          ({"Authorization": "Basic abc"}, "err.no_token")])
def test_actions_without_a_valid_token_get_403_with_a_sentence(client, headers, code):
    game = create(client)
    res = client.post(f"/api/games/{game['id']}/actions", json={"type": "draw"}, headers=headers)
    assert res.status_code == 403
    body = res.get_json()
    assert body["code"] == code and body["error"].endswith(".") and body["messages"]["el"]


def test_a_token_of_another_game_is_refused(client):
    one, two = create(client), create(client)
    res = client.post(f"/api/games/{two['id']}/actions", json={"type": "draw"}, headers=bearer(one["host_token"]))
    assert res.status_code == 403


@pytest.mark.parametrize("body", [b"{not json", b"[1,2]", b'"draw"', b"", b'{"type": 5}', b"null"])
def test_malformed_bodies_get_400(client, body):
    game = create(client)
    res = client.post(f"/api/games/{game['id']}/actions", data=body, headers={
        **bearer(game["host_token"]), "Content-Type": "application/json"})
    assert res.status_code == 400 and "JSON" in res.get_json()["error"]


def test_unknown_action_names_the_possible_ones(client):
    game = create(client)
    res = client.post(f"/api/games/{game['id']}/actions", json={"type": "fly"}, headers=bearer(game["host_token"]))
    assert res.status_code == 400 and "draw" in res.get_json()["error"]


@pytest.mark.parametrize("payload", [
    {"game": "augustus", "players": []},
    {"game": "augustus", "players": ["solo"]},
    {"game": "augustus", "players": ["A", "A"]},
    {"game": "augustus", "players": ["A", ""]},
    {"game": "augustus", "players": "A,B"},
    {"game": "augustus", "players": ["A", 3]},
    {"game": "chess", "players": ["A", "B"]},
    {"game": 7, "players": ["A", "B"]},
    {"game": "augustus", "players": ["A", "B"], "options": {"bag": {"joker": 0}}},
    {"game": "augustus", "players": ["A", "B"], "options": {"herald": 9}},
    {"game": "augustus", "players": ["A", "B"], "options": "x"},
])
def test_bad_new_games_get_400_with_a_sentence(client, payload):
    res = client.post("/api/games", json=payload)
    assert res.status_code == 400, res.get_json()
    assert len(res.get_json()["error"]) > 10


def test_unknown_game_id_is_404_everywhere(client):
    for method, url in [("get", "/api/games/nope"), ("get", "/api/games/nope/events"),
                        ("post", "/api/games/nope/actions"), ("get", "/api/games/nope/stream")]:
        res = getattr(client, method)(url, json={"type": "draw"} if method == "post" else None)
        assert res.status_code == 404, url
        assert res.get_json()["error"]


def test_unknown_routes_and_methods_are_json_4xx(client):
    assert client.get("/api/nothing").status_code == 404
    res = client.delete("/api/games")
    assert res.status_code == 405 and res.get_json()["error"]


def test_seats_join_codes_and_spectators(client):
    game = create(client)
    assert client.post("/api/join", json={"code": "ZZZZZ", "seat": 0}).status_code == 403
    assert client.post("/api/join", json={"code": game["join_code"], "seat": 7}).status_code == 400
    join(client, game, 0)
    res = client.post("/api/join", json={"code": game["join_code"], "seat": 0})
    assert res.status_code == 409 and "Άννα" in res.get_json()["error"]
    spectator = client.post("/api/join", json={"code": game["join_code"].lower(), "seat": None}).get_json()
    assert spectator["role"] == "spectator" and spectator["token"] is None
    view = client.get(f"/api/games/{game['id']}").get_json()
    assert [s["claimed"] for s in view["seats"]] == [True, False, False]
    # only the host frees a seat
    url = f"/api/games/{game['id']}/seats/0/free"
    assert client.post(url, headers=bearer(join(client, game, 1))).status_code == 403
    assert client.post(url, headers=bearer(game["host_token"])).status_code == 200
    join(client, game, 0)


def test_me_tells_the_role_and_the_host_gets_the_join_code(client):
    game = create(client)
    me = client.get(f"/api/games/{game['id']}/me", headers=bearer(game["host_token"])).get_json()
    assert me["role"] == "host" and me["join_code"] == game["join_code"] and "draw" in me["legal_actions"]
    tok = join(client, game, 2)
    me = client.get(f"/api/games/{game['id']}/me", headers=bearer(tok)).get_json()
    assert me == {"role": "player", "seat": 2, "legal_actions": []}


def test_undo_a_player_may_undo_only_their_own_last_action_the_host_any(client):
    game = create(client, herald=0)
    ana, ben = join(client, game, 0), join(client, game, 1)
    url = f"/api/games/{game['id']}/actions"
    first = client.post(url, json={"type": "draw"}, headers=bearer(ana)).get_json()["herald"]
    res = client.post(url, json={"type": "undo"}, headers=bearer(ben))
    assert res.status_code == 403 and "Άννα" in res.get_json()["error"]
    res = client.post(url, json={"type": "undo"}, headers=bearer(ana))
    assert res.status_code == 200 and res.get_json()["herald"]["draws"] == 0
    client.post(url, json={"type": "draw"}, headers=bearer(ana))
    res = client.post(url, json={"type": "undo"}, headers=bearer(game["host_token"]))
    assert res.status_code == 200
    view = res.get_json()
    assert view["herald"]["draws"] == 0 and view["herald"]["bag"]["swords"] == 6
    res = client.post(url, json={"type": "undo"}, headers=bearer(game["host_token"]))
    assert res.status_code == 409 and "nothing to undo" in res.get_json()["error"].lower()
    events = client.get(f"/api/games/{game['id']}/events").get_json()["events"]
    assert [e["type"] for e in events] == ["setup", "draw", "undo", "draw", "undo"]  # nothing deleted
    assert [e["undone"] for e in events] == [False, True, False, True, False]
    assert events[1]["token"] == first["last"] and events[2]["target"] == 1


def test_errors_follow_the_callers_language(client):
    game = create(client)
    res = client.post(f"/api/games/{game['id']}/actions", json={"type": "draw"},
                      headers={"Accept-Language": "el-GR,el;q=0.9"})
    assert res.status_code == 403 and "κλειδί" in res.get_json()["error"]


def test_qr_code_is_for_the_host_only(client):
    game = create(client)
    assert client.get(f"/api/games/{game['id']}/qr.svg").status_code == 403
    res = client.get(f"/api/games/{game['id']}/qr.svg?token={game['host_token']}")
    assert res.status_code == 200 and res.mimetype == "image/svg+xml" and b"<svg" in res.data
    assert b'xmlns="http://www.w3.org/2000/svg"' in res.data  # an <img> shows only a namespaced SVG


def test_openapi_describes_every_api_route(app, client):
    from companion.camera_service import attach_camera

    attach_camera(app, app.extensions["table"], {"camera": {"source": "none"}}, start=False)  # + camera, settings
    assert any(r.rule == "/api/settings" for r in app.url_map.iter_rules())
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    documented = set(spec["paths"])
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):  # the game API, settings, camera and teach endpoints
            path = rule.rule.replace("<int:", "{").replace("<", "{").replace(">", "}")
            path = path.rstrip("/") if path.count("/") > 2 else path  # /api/settings/ is /api/settings
            assert path in documented, path


def test_list_of_games_keeps_past_and_running(client):
    a, b = create(client), create(client)
    games = client.get("/api/games").get_json()["games"]
    assert {g["id"] for g in games} == {a["id"], b["id"]}
    assert all(g["status"] == "running" for g in games)


def test_the_phone_page_is_served_with_local_assets_only(client):
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html  # no CDN
    for asset in ["/static/app.js", "/static/app.css", "/static/games/augustus.js",
                  "/static/icons/augustus/joker.svg"]:
        assert client.get(asset).status_code == 200, asset
    assert client.get("/g/abc").status_code == 200
