"""Any JSON at all, sent to the API, gets an answer below 500 (hypothesis generates the bodies)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["draw", "undo", "confirm_token", "token_unsure", "dismiss_pending", "next", ""])},
    optional={"token": json_values, "read": json_values, "reason": json_values, "source": json_values,
              "target": json_values},
)
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(body=json_values | action_like)
def test_any_action_body_gets_a_4xx_or_a_state(client, body):
    game = client.post("/api/games", json={"players": ["A", "B"]}).get_json()
    res = client.post(f"/api/games/{game['id']}/actions", data=json.dumps(body),
                      headers={"Authorization": f"Bearer {game['host_token']}", "Content-Type": "application/json"})
    assert res.status_code < 500, res.get_json()
    if res.status_code >= 400:
        assert res.get_json()["error"]


@FUZZ
@given(body=json_values | st.fixed_dictionaries(
    {"players": st.lists(st.text(min_size=1, max_size=6), min_size=2, max_size=6) | json_values},
    optional={"game": st.sampled_from(["augustus", "castle-dice"]) | json_values,
              "options": st.fixed_dictionaries({}, optional={
                  "bag": st.dictionaries(st.sampled_from(["joker", "swords", "x"]), json_values) | json_values,
                  "herald": json_values, "mode": json_values}) | json_values,
              "lang": json_values}))
def test_any_new_game_body_gets_a_4xx_or_a_game(client, body):
    res = client.post("/api/games", data=json.dumps(body), headers={"Content-Type": "application/json"})
    assert res.status_code in (201, 400, 403, 404, 409), res.get_json()
    assert res.get_json()


@FUZZ
@given(body=json_values)
def test_any_join_body_gets_a_4xx_or_a_seat(client, body):
    res = client.post("/api/join", data=json.dumps(body), headers={"Content-Type": "application/json"})
    assert res.status_code < 500, res.get_json()


def _castle_actions():
    from companion.games import castle_dice

    return list(castle_dice.ACTIONS)


@FUZZ
@given(data=st.data())
def test_any_castle_dice_action_gets_a_4xx_or_a_state(client, data):
    game = client.post("/api/games", json={"game": "castle-dice", "players": ["A", "B", "C"]}).get_json()
    for _ in range(3):
        body = data.draw(st.fixed_dictionaries({"type": st.sampled_from(_castle_actions())}) .flatmap(
            lambda base: st.dictionaries(st.sampled_from(["die", "dice", "face", "player", "seat", "card", "resource",
                                                          "villager", "animal", "count", "choice", "to", "id"]),
                                         json_values, max_size=4).map(lambda extra: {**extra, **base})))
        res = client.post(f"/api/games/{game['id']}/actions", data=json.dumps(body),
                          headers={"Authorization": f"Bearer {game['host_token']}", "Content-Type": "application/json"})
        assert res.status_code < 500, (body, res.get_json())
