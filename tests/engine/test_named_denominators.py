"""A +2, Joker or +4 names only a denominator the table's deck has (issue 30 §1.2).

In a "twelfths" deck a named 24 left no card of the deck playable, even after a Reverse: the
table drew until someone held an action card. The list is the sheet's, cut to the deck level.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Game, IllegalAction
from games.engine.cards import (
    DEN,
    DENOMINATORS,
    FRACTION_DECK_LEVELS,
    KIND,
    deck_denominators,
    deck_for,
)
from tests.engine.helpers import new
from tests.engine.strategies import Config, configs

LEVELS = {
    "sixths": (2, 3, 6),
    "twelfths": (2, 3, 6, 12),
    "improper": (2, 3, 6, 12),
    "full": DENOMINATORS,
}


def _deck_dens(game: Game) -> set[int]:
    """Return the denominators the fraction cards of the game's deck have."""
    deck = deck_for(game.ruleset, game.opts)
    return {DEN[c] for c in deck if KIND[c] == "frac"}


@pytest.mark.parametrize("level", FRACTION_DECK_LEVELS)
def test_each_level_names_the_sheets_list_cut_to_its_cards(level: str) -> None:
    assert deck_denominators("fractions", {"deck": level}) == LEVELS[level]
    game = Game.new("fractions", 2, options={"deck": level}, seed=1)
    assert set(LEVELS[level]) == _deck_dens(game)


def test_other_rulesets_name_no_denominator() -> None:
    assert deck_denominators("classic", {}) == ()
    assert deck_denominators("family_quick", {}) == ()


def test_a_twelfths_deck_refuses_a_named_24() -> None:
    g = new(
        "fractions", [["1/3j", "4/12v"], ["1/2r", "+04", "2/3b"]], start="1/6r", deck="twelfths"
    )
    with pytest.raises(IllegalAction) as caught:
        g.apply(1, {"type": "play", "card": "+04", "denominator": 24})
    assert caught.value.code == "bad_denominator"
    assert caught.value.details["denominators"] == [2, 3, 6, 12]
    assert "2, 3, 6 ou 12" in caught.value.messages["fr"]
    assert "2, 3, 6 or 12" in caught.value.messages["en"]
    g.apply(1, {"type": "play", "card": "+04", "denominator": 12})
    assert g.view(0)["denominator"] == 12


def test_the_legal_plays_of_a_joker_name_the_decks_denominators() -> None:
    g = new("fractions", [["1/3j", "4/6v"], ["1/2r", "joker", "2/3b"]], start="5/6r", deck="sixths")
    named = sorted(
        a["denominator"]
        for a in g.legal_actions(1)
        if a.get("card") == "joker" and "denominator" in a
    )
    assert named == [2, 3, 6]


@settings(max_examples=40, deadline=None)
@given(config=configs(("fractions",)), steps=st.integers(20, 160))
def test_the_engine_never_asks_for_a_denominator_the_deck_lacks(config: Config, steps: int) -> None:
    """Over every deck level: no legal play names, and no state asks for, a missing denominator."""
    game = Game.new(config.ruleset, config.players, options=config.options, seed=config.seed)
    has = _deck_dens(game)
    rng = random.Random(config.seed)
    for _ in range(steps):
        view = game.view(None)
        if view["game_over"]:
            break
        assert view["denominator"] is None or view["denominator"] in has, view
        moves = [(s, a) for s in range(game.n) for a in game.legal_actions(s)]
        for _seat, action in moves:
            assert action.get("denominator") is None or action["denominator"] in has, action
        if not moves:
            break
        # Prefer plays that name a denominator, so the property meets many of them.
        naming = [m for m in moves if "denominator" in m[1]]
        seat, action = rng.choice(naming if naming and rng.random() < 0.5 else moves)
        game.apply(seat, action)
    assert game.view(None)["denominator"] in (None, *has)


@settings(max_examples=30, deadline=None)
@given(
    level=st.sampled_from(FRACTION_DECK_LEVELS),
    named=st.sampled_from([*DENOMINATORS, -2, 0, 5, 100]),
    card=st.sampled_from(["joker", "+04", "+02r"]),
)
def test_a_denominator_outside_the_deck_is_refused(level: str, named: int, card: str) -> None:
    g = new("fractions", [["1/3j", "4/6v"], ["1/2b", card, "2/3b"]], start="5/6r", deck=level)
    action = {"type": "play", "card": card, "denominator": named}
    before = g.to_dict()
    if named in LEVELS[level]:
        g.apply(1, action)
        assert g.view(0)["denominator"] == named
    else:
        with pytest.raises(IllegalAction) as caught:
            g.apply(1, action)
        assert caught.value.code == "bad_denominator"
        assert g.to_dict() == before
