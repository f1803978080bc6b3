"""The herald's bag: invariants over random draw sequences (hypothesis) and the edition data."""

from __future__ import annotations

import doctest
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import Actor, BadAction, NotAllowed, RuleError, augustus

HOST = Actor("host")
DEFAULT = {"swords": 6, "shield": 5, "chariot": 4, "catapult": 3, "standard": 2, "dagger": 1, "joker": 2}


def test_doctests_pass():
    assert doctest.testmod(augustus).failed == 0


def test_default_bag_is_the_edition_data():
    assert augustus.default_bag() == DEFAULT
    spec = augustus.edition()["tokens"]
    assert all(spec[tok]["provenance"] for tok in spec)
    state = augustus.setup(["A", "B", "C"], {})
    assert state["bag"] == DEFAULT and sum(state["bag"].values()) == 23


bags = st.dictionaries(
    st.sampled_from(["swords", "shield", "chariot", "catapult", "standard", "dagger"]),
    st.integers(0, 6), min_size=1,
).map(lambda d: {**d, "joker": 1}) | st.just(DEFAULT)


@settings(max_examples=60, deadline=None)
@given(bag=bags, players=st.integers(2, 6), seed=st.integers(0, 2**32), draws=st.integers(1, 120))
def test_bag_invariants_hold_over_any_draw_sequence(bag, players, seed, draws):
    names = [f"P{i}" for i in range(players)]
    state = augustus.setup(names, {"bag": bag})
    rng = random.Random(seed)
    drawn_since_joker: Counter = Counter()
    herald = state["herald"]
    for _ in range(draws):
        event = augustus.decide(state, {"type": "draw"}, HOST, rng)
        token = event["token"]
        assert state["bag"][token] > 0, "a token was drawn that was not in the bag"
        state = augustus.apply(state, event)
        if token == "joker":
            # a joker refills the bag and the herald passes to the next seat
            assert state["bag"] == bag
            assert state["drawn"] == []
            herald = (herald + 1) % players
            drawn_since_joker.clear()
        else:
            drawn_since_joker[token] += 1
            for tok, n in drawn_since_joker.items():
                assert n <= bag[tok], "a symbol was drawn more often than the bag holds"
            assert state["drawn"] == list(state["drawn"])  # order kept
            assert sum(state["bag"].values()) == sum(bag.values()) - len(state["drawn"])
        assert state["herald"] == herald
        assert all(n >= 0 for n in state["bag"].values())


def test_odds_sum_to_one_and_follow_the_bag():
    state = augustus.setup(["A", "B"], {})
    odds = augustus.odds(state)
    assert odds["swords"] == pytest.approx(6 / 23)
    assert sum(odds.values()) == pytest.approx(1.0)
    state = augustus.apply(state, {"type": "draw", "token": "swords"})
    assert augustus.odds(state)["swords"] == pytest.approx(5 / 22)


def test_first_draw_after_a_refill_follows_the_bag_counts():
    """Chi-square goodness of fit of 6:5:4:3:2:1:2 on the first draw of each cycle (p = 0.001)."""
    state = augustus.setup(["A", "B", "C"], {})
    rng = random.SystemRandom()
    firsts: Counter = Counter()
    first_next = True
    while sum(firsts.values()) < 3000:
        event = augustus.decide(state, {"type": "draw"}, HOST, rng)
        if first_next:
            firsts[event["token"]] += 1
        state = augustus.apply(state, event)
        first_next = event["token"] == "joker"
    n = sum(firsts.values())
    chi2 = sum((firsts[t] - n * c / 23) ** 2 / (n * c / 23) for t, c in DEFAULT.items())
    assert chi2 < 22.458, (chi2, firsts)  # chi-square critical value, 6 degrees of freedom, p = 0.001


def test_only_the_herald_or_the_host_draws():
    state = augustus.setup(["Ana", "Ben"], {"herald": "Ben"})
    rng = random.Random(1)
    augustus.decide(state, {"type": "draw"}, Actor("player", 1), rng)
    augustus.decide(state, {"type": "draw"}, Actor("device"), rng)
    with pytest.raises(NotAllowed) as err:
        augustus.decide(state, {"type": "draw"}, Actor("player", 0), rng)
    assert "Ben" in str(err.value)


def test_a_physical_token_that_cannot_be_in_the_bag_is_refused():
    state = augustus.setup(["Ana", "Ben"], {"bag": {"dagger": 1, "joker": 1}})
    state = augustus.apply(state, {"type": "draw", "token": "dagger"})
    with pytest.raises(RuleError) as err:
        augustus.decide(state, {"type": "draw", "token": "dagger"}, HOST, random.Random())
    assert "Dagger" in str(err.value)
    with pytest.raises(BadAction):
        augustus.decide(state, {"type": "draw", "token": "elephant"}, HOST, random.Random())


def test_an_unsure_reading_waits_for_the_heralds_confirmation():
    state = augustus.setup(["Ana", "Ben"], {"mode": "real"})
    ev = augustus.decide(state, {"type": "token_unsure", "read": "shield", "reason": "blurred"}, HOST, None)
    state = augustus.apply(state, ev)
    assert state["pending"] == {"read": "shield", "reason": "blurred"}
    assert "confirm_token" in augustus.legal_actions(state, HOST)
    ev = augustus.decide(state, {"type": "confirm_token", "token": "chariot"}, Actor("player", 0), None)
    state = augustus.apply(state, ev)
    assert state["pending"] is None and state["last"] == "chariot" and state["bag"]["chariot"] == 3


@pytest.mark.parametrize("bag", [{"swords": 3}, {"joker": -1}, {"joker": 1, "swords": "6"}, {"joker": 99}, []])
def test_bad_bag_options_are_refused_with_a_sentence(bag):
    with pytest.raises(BadAction) as err:
        augustus.setup(["A", "B"], {"bag": bag})
    assert "joker" in str(err.value)


def test_calls_exist_in_greek_and_english():
    state = augustus.setup(["Άννα", "Ben"], {})
    state = augustus.apply(state, {"type": "draw", "token": "shield"})
    assert augustus.call(state) == {"el": "Ασπίδα!", "en": "Shield!"}
    state = augustus.apply(state, {"type": "draw", "token": "joker"})
    call = augustus.call(state)
    assert "Ben" in call["en"] and "Ben" in call["el"] and "Μπαλαντέρ" in call["el"]
