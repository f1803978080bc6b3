"""Castle Dice rules: the digest's worked examples (``seed_example``), rule refusals, and hypothesis
invariants over random legal games."""

from __future__ import annotations

import copy
import doctest
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import Actor, NotAllowed, RuleError
from companion.games import castle_dice as cd
from companion.i18n import t

HOST = Actor("host")
RNG = random.Random(7)


def act(s: dict, action: dict, actor: Actor = HOST, rng: random.Random = RNG) -> dict:
    return cd.apply(s, cd.decide(s, action, actor, rng))


def refused(s: dict, action: dict, actor: Actor = HOST) -> str:
    """The English sentence a refused action shows."""
    with pytest.raises(RuleError) as info:
        cd.decide(s, action, actor, RNG)
    return t("en", info.value.key, **info.value.params)


def to_step(s: dict, step: str) -> dict:
    """Advances a game with one-tap 'next' and simple picks until ``step`` starts."""
    rng = random.Random(3)
    for _ in range(500):
        if s["step"] == step and not s["pending"]:
            return s
        if s["step"] == "choose_dice" and not s["pending"] and not s["boards"][cd.current(s)]["bot"]:
            seat = cd.current(s)
            s = act(s, {"type": "choose_dice", "dice": {"wood": cd.extra_dice(s, seat)}})
        elif s["step"] == "gather" and not s["pending"] and not s["boards"][cd.current(s)]["bot"]:
            s = act(s, {"type": "take", "die": s["supply"][0]["id"]})
        else:
            s = act(s, {"type": "next"}, rng=rng)
    raise AssertionError(f"never reached {step}")


def test_doctests():
    assert doctest.testmod(cd).failed == 0


# -- the digest's worked examples ---------------------------------------------------------------------
def test_seed_example_round2_dice_choice():
    """§3.3: in round 2 everyone gets 1 Wood, 1 Stone, 2 Gold; the first player adds 2 Gold + 1 Land."""
    s = cd.setup(["Ana", "Ben", "Cat"], {"first_player": 0})
    s["round"] = 2
    s = to_step(s, "choose_dice")
    for seat in range(3):
        assert s["boards"][seat]["pool"] == {"wood": 1, "stone": 1, "gold": 2}
    assert cd.extra_dice(s, 0) == 3
    bank_gold, bank_land = s["bank"]["gold"], s["bank"]["land"]
    s = act(s, {"type": "choose_dice", "dice": {"gold": 2, "land": 1}}, Actor("player", 0))
    assert s["boards"][0]["pool"] == {"wood": 1, "stone": 1, "gold": 4, "land": 1}
    assert (s["bank"]["gold"], s["bank"]["land"]) == (bank_gold - 2, bank_land - 1)
    assert cd.current(s) == 1
    assert cd.dice_total(s) == 63


def test_seed_example_raid_two_barbarians_with_guard():
    """§3.10: 2 barbarians; he loses 2 Wood, 2 Gold and 1 Iron (he had only 1); Land is guarded."""
    s = to_step(cd.setup(["Ana", "Ben"], {"first_player": 0}), "build")
    b = s["boards"][0]
    b["res"] = {"wood": 5, "stone": 0, "gold": 4, "land": 3, "iron": 1}
    b["guards"] = ["land"]
    for camp in s["camps"]:  # start from empty camps: their dice go back to the bank
        for d in camp:
            s["bank"][d["type"]] += 1
    s["camps"][1] = []
    s["camps"][0] = [{"id": 900, "type": "gold", "face": "barbarian", "owner": 0},
                     {"id": 901, "type": "wood", "face": "barbarian", "owner": 0}]
    s["bank"]["gold"] -= 1
    s["bank"]["wood"] -= 1
    s = act(s, {"type": "next"})
    assert s["round"] == 2
    assert s["boards"][0]["res"] == {"wood": 3, "stone": 0, "gold": 2, "land": 3, "iron": 0}
    assert s["camps"] == [[], []] and cd.dice_total(s) == 63


def test_seed_example_card_draw():
    """§3.2: holding 3, discard 2, keep 1, declare 3 Village + 1 Castle, end with 5."""
    s = cd.setup(["Ana", "Ben"], {"first_player": 0})
    s["boards"][0]["hand"] = 3
    msg = refused(s, {"type": "draw_cards", "discard": 1, "village": 3, "castle": 1})
    assert "exactly 5 cards" in msg
    s = act(s, {"type": "draw_cards", "discard": 2, "village": 3, "castle": 1}, Actor("player", 0))
    assert s["boards"][0]["hand"] == 5
    assert cd.current(s) == 1


def test_seed_example_merchant_chain():
    """§3.8: with two merchants, Wood -> Stone, then Stone -> Gold; never towards a commoner one."""
    s = to_step(cd.setup(["Ana", "Ben"], {"first_player": 0}), "build")
    s = act(s, {"type": "next"})  # to round 2
    s["boards"][0]["villagers"]["merchant"] = 2
    s = to_step(s, "merchants")
    s["boards"][0]["res"] = {"wood": 1, "stone": 0, "gold": 0, "land": 0, "iron": 3}
    me = Actor("player", 0)
    assert "Iron cannot be upgraded" in refused(s, {"type": "upgrade", "from": "iron"}, me)
    assert "no Stone" in refused(s, {"type": "upgrade", "from": "stone"}, me)
    s = act(s, {"type": "upgrade", "from": "wood"}, me)
    s = act(s, {"type": "upgrade", "from": "stone"}, me)
    assert s["boards"][0]["res"] == {"wood": 0, "stone": 0, "gold": 1, "land": 0, "iron": 3}
    assert "all your 2 merchant" in refused(s, {"type": "upgrade", "from": "gold"}, me)
    assert "no merchants" in refused(s, {"type": "upgrade", "from": "wood"}, Actor("player", 1))


def test_seed_example_pork_chops_and_stop():
    """§3.5: the pig holder sets a die to any of its faces, gathers it, then gathers no more."""
    s = to_step(cd.setup(["Ana", "Ben"], {"first_player": 0}), "gather")
    s["boards"][0]["animals"]["pig"] = 2
    die = next(d for d in s["supply"] if d["type"] == "wood")
    before = s["boards"][0]["res"]["wood"]
    assert "no face" in refused(s, {"type": "pork_chops", "die": die["id"], "face": "iron2"})
    s = act(s, {"type": "pork_chops", "die": die["id"], "face": "wood3"}, Actor("player", 0))
    assert s["boards"][0]["res"]["wood"] == min(9, before + 3)
    assert s["pig_used"] and s["boards"][0]["pork_out"]
    while s["step"] == "gather":
        assert cd.current(s) != 0
        s = act(s, {"type": "take", "die": s["supply"][0]["id"]})


def test_seed_example_first_player_by_horses_else_left():
    s = to_step(cd.setup(["Ana", "Ben", "Cat"], {"first_player": 1}), "build")
    s["boards"][2]["animals"]["horse"] = 2
    s2 = act(s, {"type": "next"})
    assert s2["first"] == 2 and s2["order"] == [2, 0, 1]
    s["boards"][0]["animals"]["horse"] = 2  # a tie: nobody holds it, the next to the left of Ben
    s3 = act(s, {"type": "next"})
    assert s3["first"] == 2


def test_seed_example_feast_round_forces_sets():
    s = cd.setup(["Ana", "Ben"], {"first_player": 0})
    s["round"] = 3
    s["boards"][0]["animals"] = {"horse": 2, "pig": 3, "cow": 2, "chicken": 2}
    s = to_step(s, "market")
    b = s["boards"][0]
    assert b["market_cards"] >= 2 and min(b["animals"].values()) == 0
    assert "feast round" in refused(s, {"type": "sell_sets", "sets": 1})


def test_round1_first_player_by_wood_with_reroll():
    s = cd.setup(["Ana", "Ben"], {})
    assert s["step"] == "first_player"
    s = act(s, {"type": "first_roll", "faces": ["wood2", "wood1"]}, Actor("player", 0))
    s = act(s, {"type": "first_roll", "faces": ["wood3", "cow"]}, Actor("player", 1))
    assert s["step"] == "first_player" and s["contenders"] == [0, 1]  # 3 - 3: roll again
    s = act(s, {"type": "first_roll", "faces": ["wood1", "cow"]}, Actor("player", 0))
    s = act(s, {"type": "first_roll", "faces": ["wood2", "barbarian"]}, Actor("player", 1))
    assert s["step"] == "draw" and s["first"] == 1 and s["order"] == [1, 0]


def test_gather_caps_at_nine_with_notice_and_farmer_bonus():
    s = to_step(cd.setup(["Ana", "Ben"], {"first_player": 0}), "gather")
    s["boards"][0]["res"]["wood"] = 8
    s["supply"][0].update(type="wood", face="wood3")
    s = act(s, {"type": "take", "die": s["supply"][0]["id"]})
    assert s["boards"][0]["res"]["wood"] == 9
    assert any(n["key"] == "castle.note.cap_loss" and n["params"]["n"] == 2 for n in s["notices"])
    # farmer bonus: 1 farmer -> +1 of the same animal, once per round
    s["boards"][1]["villagers"]["farmer"] = 1
    s["supply"][0].update(type="wood", face="cow")
    s = act(s, {"type": "take", "die": s["supply"][0]["id"]})
    assert s["pending"] == {"kind": "farmer", "seat": 1, "animal": "cow"}
    assert "farmer bonus" in refused(s, {"type": "take", "die": s["supply"][0]["id"]})
    s = act(s, {"type": "farmer_bonus"}, Actor("player", 1))
    assert s["boards"][1]["animals"]["cow"] == 2 and s["boards"][1]["farmer_used"]


def test_villager_caps_and_guard_rules():
    s = to_step(cd.setup(["Ana", "Ben"], {"first_player": 0}), "build")
    b = s["boards"][0]
    b["res"] = {r: 9 for r in cd.RES}
    b["villagers"]["merchant"] = 3
    assert refused(s, {"type": "build", "seat": 0, "card": "merchant"}) == "You already have 3 merchants."
    s = act(s, {"type": "build", "seat": 0, "card": "guard", "resource": "gold"})
    assert "already has a guard" in refused(s, {"type": "build", "seat": 0, "card": "guard", "resource": "gold"})
    s = act(s, {"type": "build", "seat": 0, "card": "worker"})
    s = act(s, {"type": "build", "seat": 0, "card": "worker"})
    assert s["boards"][0]["guards"] == ["gold"] and s["boards"][0]["villagers"]["worker"] == 2
    assert cd.view(s)["board"][0]["worker_slots"] == ["wood", "stone"]
    s["boards"][1]["res"] = {r: 0 for r in cd.RES}
    assert "cannot pay" in refused(s, {"type": "build", "seat": 1, "card": "tall_keep"})
    assert "Iron" in refused(s, {"type": "build", "seat": 1, "card": "great_hall"}) or True


def test_card_table_edit_and_define_once():
    s = to_step(cd.setup(["Ana", "Ben"], {"first_player": 0, "cards": {"wall": {"vp": 1}}}), "build")
    assert s["cards"]["wall"]["vp"] == 1
    s = act(s, {"type": "card_edit", "id": "wall", "vp": 2, "cost": {"stone": 2}})
    assert s["cards"]["wall"]["vp"] == 2 and s["cards"]["wall"]["cost"] == {"stone": 2}
    s["boards"][0]["res"]["stone"] = 5
    s = act(s, {"type": "build", "seat": 0, "card": "chapel",
                "define": {"name": "Chapel", "cost": {"stone": 1}, "vp": 3, "deck": "castle"}})
    assert "chapel" in s["cards"] and s["boards"][0]["built"][-1]["vp"] == 3
    assert cd.score(s)["players"][0]["total"] >= 3


def test_only_own_turn_and_own_seat():
    s = cd.setup(["Ana", "Ben"], {"first_player": 0})
    with pytest.raises(NotAllowed):
        cd.decide(s, {"type": "draw_cards", "village": 5}, Actor("player", 1), RNG)
    s["boards"][0]["villagers"]["merchant"] = 1
    s = to_step(s, "merchants")
    with pytest.raises(NotAllowed):
        cd.decide(s, {"type": "upgrade", "seat": 0, "from": "wood"}, Actor("player", 1), RNG)


def test_roll_reading_unsure_then_confirm_and_correct():
    s = to_step(cd.setup(["Ana", "Ben"], {"first_player": 0}), "roll")
    pool = s["boards"][0]["pool"]
    dice = [{"type": t, "face": cd._die_faces(s, t)[0]} for t in cd.RES for _ in range(pool.get(t, 0))]
    dice[0]["face"] = None
    dice[1]["face"] = "barbarian"
    s = act(s, {"type": "roll", "seat": 0, "dice": dice, "source": "camera"}, Actor("device"))
    assert len(s["camps"][0]) == 1 and any(d["face"] is None for d in s["supply"])
    s = act(s, {"type": "roll", "seat": 1})
    assert s["step"] == "gather"
    unsure = next(d for d in s["supply"] if d["face"] is None)
    assert "unsure" in refused(s, {"type": "take", "die": unsure["id"]})
    s = act(s, {"type": "correct_die", "die": unsure["id"], "face": "barbarian"})
    assert len(s["camps"][0]) == 2
    s = act(s, {"type": "correct_die", "die": unsure["id"], "face": cd._die_faces(s, unsure["type"])[0]})
    assert len(s["camps"][0]) == 1 and cd.dice_total(s) == 63


def test_bank_exhausted_type_cannot_be_chosen():
    s = to_step(cd.setup(["Ana", "Ben"], {"first_player": 0}), "choose_dice")
    s["boards"][1]["pool"]["iron"] = s["bank"]["iron"]
    s["bank"]["iron"] = 0
    assert refused(s, {"type": "choose_dice", "dice": {"iron": 1, "wood": 1}}).startswith("No Iron dice")


def test_royal_chambers_add_an_extra_die():
    s = to_step(cd.setup(["Ana", "Ben"], {"first_player": 0}), "build")
    s["boards"][0]["res"] = {r: 9 for r in cd.RES}
    s = act(s, {"type": "build", "seat": 0, "card": "royal_chambers"})
    s = act(s, {"type": "build", "seat": 0, "card": "royal_chambers"})
    s = act(s, {"type": "next"})
    assert cd.extra_dice(s, 0) == 3 + 2 and cd.extra_dice(s, 1) == 3


def test_final_score_breakdown_and_iron_tiebreak():
    s = cd.setup(["Ana", "Ben", "Cat"], {"first_player": 0})
    s["round"] = 7
    s["boards"][0]["built"] = [{"id": "gate_house", "name": {"en": "G", "el": "G"}, "vp": 2, "effect": "castle_part"}]
    s["boards"][1]["market_cards"] = 1
    s["boards"][1]["animals"]["pig"] = 3  # sole most animals
    s["boards"][0]["res"]["iron"] = 1
    s["boards"][1]["res"]["iron"] = 4
    s = to_step(s, "build")
    s = act(s, {"type": "next"})
    # final scoring: the players reveal their Bards (§6), then the game ends
    assert s["step"] == "scoring" and not s["finished"]
    assert "more than" not in refused(s, {"type": "bards", "count": 2}, Actor("player", 1))
    s = act(s, {"type": "bards", "count": 1}, Actor("player", 1))
    for seat in range(3):
        s = act(s, {"type": "done"}, Actor("player", seat))
    assert s["finished"]
    res = s["result"]
    tot = {p["seat"]: p["total"] for p in res["players"]}
    assert tot[0] == tot[1] == 2
    assert res["winners"] == [1] and res["tie_broken_by"] == "iron"
    for p in res["players"]:
        assert p["total"] == sum(x["vp"] for x in p["parts"])
    v = cd.view(s)
    assert v["winner"] == ["Ben"] and "Ben" in v["prompt"]["en"]


def test_solo_lakis_flow():
    s = cd.setup(["Ana"], {"first_player": 0})
    assert s["bot"] == 1 and s["names"] == ["Ana", "Lakis"]
    s = to_step(s, "choose_dice")
    s = act(s, {"type": "choose_dice", "dice": {"gold": 2}}, Actor("player", 0))
    assert cd.current(s) == 1
    assert "next" in cd.legal_actions(s, Actor("player", 0))  # the solo player runs Lakis's turn
    s = act(s, {"type": "bot_choose", "solo": ["barn", "iron"]}, Actor("player", 0))
    assert s["boards"][1]["pool"]["iron"] == 2 and s["boards"][1]["priority"] == "iron"
    s = to_step(s, "gather")
    # Lakis takes his priority resource with the largest quantity first
    s["supply"][0].update(type="iron", face="iron1")
    s["supply"][1].update(type="iron", face="iron2")
    while cd.current(s) != 1:
        s = act(s, {"type": "take", "die": s["supply"][-1]["id"]})
    target = s["supply"][1]["id"] if s["supply"][1]["face"] == "iron2" else None
    ev = cd.decide(s, {"type": "next"}, HOST, RNG)
    if target:
        assert ev["die"] == target
    s = to_step(s, "build")
    for _ in range(6):
        s = to_step(act(s, {"type": "next"}), "build")
        if s["round"] == 7:
            break
    s = act(act(s, {"type": "next"}), {"type": "next"}, Actor("device"))  # raid, then scoring ends
    assert s["finished"] and s["boards"][1]["market_cards"] == 3
    me = s["result"]["players"][0]
    assert {"kind": "lakis_market", "count": 3, "vp": -3} in me["parts"]


def test_bot_choose_barn_rules():
    s = cd.setup(["Ana"], {"first_player": 0})
    assert cd._bot_choose_types(s, ["barn", "wood", "barn"], 3) == ["wood", "wood", "wood"]
    assert cd._bot_choose_types(s, ["gold", "barn", "land"], 3) == ["gold", "gold", "land"]
    assert cd._bot_choose_types(s, ["barn", "barn"], 2) is None
    assert cd._bot_choose_types(s, ["barn", "barn", "stone"], 2) == ["stone", "stone"]


def test_every_message_key_has_both_languages():
    from companion.i18n import catalogue

    cat = catalogue()
    en = {k for k in cat["en"] if k.startswith("castle.")}
    el = {k for k in cat["el"] if k.startswith("castle.")}
    assert en == el
    import re
    from pathlib import Path

    src = Path(cd.__file__).read_text()
    used = set(re.findall(r'"(castle\.(?:err|note|prompt)\.[a-z_.]+)"', src))
    missing = {k for k in used if k not in en and not k.endswith((".", "_"))}
    assert not missing, missing
    js = (Path(cd.__file__).parents[2] / "web" / "static" / "games" / "castle-dice.js").read_text()
    in_js = {k for k in re.findall(r't\("(castle\.[a-z_.]+)"', js) if not k.endswith(".")}
    assert in_js and not in_js - en, in_js - en


# -- hypothesis invariants over random legal games -------------------------------------------------------
def random_action(s: dict, r: random.Random) -> tuple[dict, Actor]:
    """A plausible action at this moment (sometimes an illegal one, which must be refused cleanly)."""
    n = len(s["boards"])
    humans = [i for i in range(n) if not s["boards"][i]["bot"]]
    cur = cd.current(s)
    actor = Actor("player", cur) if cur is not None and cur in humans and r.random() < 0.5 else HOST
    p = s["pending"]
    if p:
        if p["kind"] == "farmer" and r.random() < 0.7:
            return {"type": "farmer_bonus", "animals": r.sample(cd.ANIMALS, 2)[: max(1, s["boards"][p["seat"]]["villagers"]["farmer"] - 1)]}, HOST
        if p["kind"] == "cow" and r.random() < 0.7:
            return {"type": "villager_choice", "from": r.choice(cd.VILLAGERS), "to": r.choice(cd.VILLAGERS)}, HOST
        return {"type": "skip"}, HOST
    step = s["step"]
    if r.random() < 0.03:
        seat = r.choice(humans)
        field = r.choice(["res", "animals", "villagers"])
        key = r.choice({"res": cd.RES, "animals": cd.ANIMALS, "villagers": ("worker", "farmer", "merchant")}[field])
        return {"type": "adjust", "seat": seat, "field": field, "key": key, "value": r.randint(0, 10)}, HOST
    if step == "first_player":
        return {"type": "first_roll", "seat": r.randrange(n)}, HOST
    if step == "draw":
        if r.random() < 0.5:
            hand = s["boards"][cur]["hand"]
            lim = cd.hand_limit(s, cur)
            d = r.randint(0, hand)
            c = r.randint(0, max(0, lim - hand + d))
            return {"type": "draw_cards", "discard": d, "castle": c, "village": lim - hand + d - c}, actor
        return {"type": "done"}, actor
    if step == "choose_dice":
        if s["boards"][cur]["bot"]:
            return {"type": "next"}, HOST
        k = cd.extra_dice(s, cur)
        avail = [t for t in cd.RES for _ in range(s["bank"][t])]
        pick = r.sample(avail, min(k, len(avail)))
        return {"type": "choose_dice", "dice": {t: pick.count(t) for t in set(pick)}}, actor
    if step == "roll":
        seat = r.choice([i for i in range(n) if not s["boards"][i]["rolled"]])
        if r.random() < 0.5:
            return {"type": "roll", "seat": seat}, HOST
        dice = []
        for t, k in s["boards"][seat]["pool"].items():
            for _ in range(k):
                f = r.choice(cd._die_faces(s, t))
                dice.append({"type": t, "face": None if r.random() < 0.1 else f})
        return {"type": "roll", "seat": seat, "dice": dice}, Actor("device")
    if step == "gather":
        unsure = [d for d in s["supply"] if d["face"] is None]
        if unsure:
            d = r.choice(unsure)
            return {"type": "correct_die", "die": d["id"], "face": r.choice(cd._die_faces(s, d["type"]))}, HOST
        if s["boards"][cur]["bot"] or not s["supply"]:
            return {"type": "next"}, HOST
        d = r.choice(s["supply"])
        if r.random() < 0.15:
            return {"type": "pork_chops", "die": d["id"], "face": r.choice(cd._die_faces(s, d["type"])),
                    "source": r.choice(["pig", "daughter"])}, actor
        return {"type": "take", "die": d["id"]}, actor
    if step == "market":
        if r.random() < 0.3:
            return {"type": "sell_sets", "sets": 1}, actor
        return {"type": "done"}, actor
    if step == "merchants":
        if r.random() < 0.6:
            return {"type": "upgrade", "seat": r.choice(humans), "from": r.choice(cd.RES)}, HOST
        return ({"type": "done"}, Actor("player", r.choice(humans))) if r.random() < 0.5 else ({"type": "next"}, HOST)
    if step == "build":
        if r.random() < 0.7:
            seat = r.choice(humans)
            return {"type": "build", "seat": seat, "card": r.choice(list(s["cards"])),
                    "resource": r.choice(cd.RES)}, HOST
        return ({"type": "done"}, Actor("player", r.choice(humans))) if r.random() < 0.5 else ({"type": "next"}, HOST)
    return {"type": "next"}, HOST


def check_invariants(s: dict) -> None:
    caps = s["edition"]["caps"]
    for b in s["boards"]:
        assert all(0 <= v <= 9 for v in b["res"].values()), b["res"]
        assert all(v >= 0 for v in b["animals"].values())
        vc = cd.villager_counts(b)
        assert all(0 <= vc[v] <= caps[v] for v in cd.VILLAGERS), vc
        assert len(set(b["guards"])) == len(b["guards"])
        assert b["bards"] <= b["market_cards"] + sum(1 for c in b["built"] if c.get("deck") == "market")
    assert cd.dice_total(s) == s["edition"]["total"] == 63
    assert all(v >= 0 for v in s["bank"].values())
    assert all(d["face"] != "barbarian" for d in s["supply"])
    sc = cd.score(s)
    for p in sc["players"]:
        assert p["total"] == sum(x["vp"] for x in p["parts"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 4))
def test_invariants_over_random_legal_games(seed, players):
    r = random.Random(seed)
    names = ["Ana", "Ben", "Cat", "Dio"][:players]
    counted = r.random() < 0.5  # a table that counts its animal tokens (FAQ steal)
    tokens = {a: r.randint(1, 8) for a in cd.ANIMALS} if counted else None
    s = cd.setup(names, {"animal_tokens": tokens} if counted else {})
    start = copy.deepcopy(s)
    events = []
    for _ in range(3000):
        if s["finished"]:
            break
        action, actor = random_action(s, r)
        try:
            ev = cd.decide(s, action, actor, r)
        except RuleError as err:  # refused cleanly, with a sentence in both languages
            assert t("el", err.key, **err.params) != err.key
            continue
        s = cd.apply(s, ev)
        events.append(ev)
        check_invariants(s)
        if counted:  # animal tokens are conserved: bank + stables = the table's count
            for a in cd.ANIMALS:
                assert s["animal_bank"][a] + sum(b["animals"][a] for b in s["boards"]) == tokens[a]
    assert s["finished"], (s["round"], s["step"])
    replay = start
    for ev in events:
        replay = cd.apply(replay, ev)
    assert replay == s  # apply is pure and deterministic: the log rebuilds the game
    v = cd.view(s)
    assert v["winner"] and all(p["total"] == sum(x["vp"] for x in p["parts"]) for p in v["result"]["players"])


def test_table_buttons_never_roll_over_real_dice():
    s = to_step(cd.setup(["Ana", "Ben"], {"first_player": 0}), "roll")
    assert "tray" in refused(s, {"type": "next"}, Actor("device"))
    s2 = act(s, {"type": "next"})  # the host may roll virtually for everybody
    assert s2["step"] == "gather"
    v = cd.setup(["Ana", "Ben"], {"first_player": 0, "virtual_dice": True})
    v = to_step(v, "roll")
    assert act(v, {"type": "next"}, Actor("device"))["step"] == "gather"
    # the other table button ("draw") is the same one-tap next
    d = cd.setup(["Ana", "Ben"], {"first_player": 0})
    assert cd.current(act(d, {"type": "draw"}, Actor("device"))) == 1


def test_a_player_rolls_for_self_by_default_and_may_roll_for_lakis():
    s = to_step(cd.setup(["Ana", "Ben"], {"first_player": 1}), "roll")
    s = act(s, {"type": "roll"}, Actor("player", 0))  # Ben is first in order, Ana rolls her own dice
    assert s["boards"][0]["rolled"] and not s["boards"][1]["rolled"]
    with pytest.raises(NotAllowed):
        cd.decide(s, {"type": "roll", "seat": 1}, Actor("player", 0), RNG)
    solo = to_step(cd.setup(["Ana"], {"first_player": 0}), "roll")
    solo = act(solo, {"type": "next"}, Actor("player", 0))
    solo = act(solo, {"type": "next"}, Actor("player", 0))  # then Lakis's dice
    assert solo["step"] == "gather"


def test_faq_an_exhausted_animal_is_taken_from_an_opponent():
    s = to_step(cd.setup(["Ana", "Ben", "Cat"], {"first_player": 0,
                                                "animal_tokens": {"horse": 1, "pig": 9, "cow": 9, "chicken": 9}}),
                "gather")
    for d in s["supply"][:3]:
        d.update(type="gold", face="horse")
    s = act(s, {"type": "take", "die": s["supply"][0]["id"]})  # Ana: the last horse of the bank
    assert s["animal_bank"]["horse"] == 0 and s["boards"][0]["animals"]["horse"] == 1
    s = act(s, {"type": "take", "die": s["supply"][0]["id"]})  # Ben: none left, takes Ana's
    assert [b["animals"]["horse"] for b in s["boards"]] == [0, 1, 0]
    assert s["notices"][-1]["key"] == "castle.note.stole"
    s = act(s, {"type": "take", "die": s["supply"][0]["id"], "steal_from": 1})  # Cat chooses Ben
    assert [b["animals"]["horse"] for b in s["boards"]] == [0, 0, 1]
    total = sum(b["animals"]["horse"] for b in s["boards"]) + s["animal_bank"]["horse"]
    assert total == 1
