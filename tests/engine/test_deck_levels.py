"""The fractions deck levels (option "deck"): compositions, and games played with each."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from games.engine import Game, IllegalAction
from games.engine.bots import play_bot_step
from games.engine.cards import (
    DECKS,
    FRACTION,
    FRACTION_DECK_LEVELS,
    FRACTION_DECKS,
    POINTS,
    deck_for,
)
from games.management.invariants import check_game

PROPER = {"1/2", "1/3", "2/3", "1/6", "5/6"}
SPECIALS = Counter({"+02": 8, "rev": 8, "jok": 4, "+04": 4})


def _values(level: str) -> Counter[str]:
    return Counter(FRACTION[c] for c in FRACTION_DECKS[level] if c in FRACTION)


def _specials(level: str) -> Counter[str]:
    """Count the special cards by kind, colours merged."""
    kinds = Counter[str]()
    for code in FRACTION_DECKS[level]:
        if code not in FRACTION:
            kinds["rev" if code.startswith("rev") else code[:3]] += 1
    return kinds


@pytest.mark.parametrize(
    ("level", "size", "denominators", "values", "copies"),
    [
        ("sixths", 88, {2, 3, 6}, 8, 8),
        ("twelfths", 76, {2, 3, 6, 12}, 13, 4),
        ("full", 116, {2, 3, 6, 12, 24, 48}, 23, 4),
        ("improper", 120, {2, 3, 6, 12}, 24, 4),
    ],
)
def test_each_level_has_its_cards(
    level: str, size: int, denominators: set[int], values: int, copies: int
) -> None:
    deck = FRACTION_DECKS[level]
    assert len(deck) == size
    counts = _values(level)
    assert len(counts) == values
    assert set(counts.values()) == {copies}  # every value in every colour, same copies
    assert {int(v.split("/")[1]) for v in counts} == denominators
    assert _specials(level) == SPECIALS


def _fraction(value: str) -> Fraction:
    num, den = value.split("/")
    return Fraction(int(num), int(den))


def test_the_levels_step_up() -> None:
    sixths, twelfths, full, improper = (set(_values(level)) for level in FRACTION_DECK_LEVELS)
    assert sixths < twelfths < full
    assert twelfths < improper
    improper_only = improper - twelfths
    assert improper_only == {
        *("3/2", "9/6", "18/12"),
        *("4/3", "8/6", "16/12"),
        *("5/3", "10/6", "20/12"),
        *("7/6", "14/12"),
    }
    assert all(_fraction(v) > 1 for v in improper_only)
    assert all(_fraction(v) < 1 for v in full)
    # Every level shows the same five proper values, in fewer or more forms.
    for level in (sixths, twelfths, full):
        assert {str(_fraction(v)) for v in level} == PROPER


def test_full_is_the_default_deck() -> None:
    assert FRACTION_DECKS["full"] == DECKS["fractions"]
    assert deck_for("fractions", {}) == DECKS["fractions"]
    assert Game.new("fractions", 3, seed=1).opts["deck"] == "full"


@pytest.mark.parametrize("level", FRACTION_DECK_LEVELS)
def test_a_game_deals_from_its_level_and_plays_to_the_end(level: str) -> None:
    for seed in range(3):
        g = Game.new("fractions", 5, options={"deck": level}, seed=seed)
        assert g.view(0)["options"]["deck"] == level
        every = [c for h in g.hands for c in h] + g.pile + g.discard
        assert Counter(every) == Counter(FRACTION_DECKS[level])
        rng = random.Random(seed)
        for _ in range(3000):
            assert check_game(g, "fractions") == []
            seat = g.acting_seat()
            if seat is None or play_bot_step(g, seat, "heuristic", rng) is None:
                break
        assert g.over
        assert Game.from_dict(g.to_dict()).to_dict() == g.to_dict()


def test_a_card_of_another_level_is_unknown() -> None:
    g = Game.new("fractions", 3, options={"deck": "twelfths"}, seed=4)
    with pytest.raises(IllegalAction) as info:
        g.apply(g.turn, {"type": "play", "card": "24/48r"})
    assert info.value.code == "unknown_card"
    plain = Game.new("fractions", 3, seed=4)
    with pytest.raises(IllegalAction) as info:
        plain.apply(plain.turn, {"type": "play", "card": "3/2r"})
    assert info.value.code == "unknown_card"


def test_a_setup_names_cards_of_the_level_in_use() -> None:
    with pytest.raises(IllegalAction) as info:
        Game.new("fractions", 2, options={"deck": "sixths"}, seed=1, setup={"start": "4/12r"})
    assert info.value.code == "bad_setup"
    g = Game.new("fractions", 2, options={"deck": "improper"}, seed=1, setup={"start": "3/2r"})
    assert g.ref == "3/2"


def test_improper_cards_are_judged_and_scored_by_their_values() -> None:
    g = Game.new(
        "fractions",
        2,
        options={"deck": "improper", "target_score": 500},
        seed=1,
        setup={"dealer": 1, "hands": [["9/6j", "1/2r"], ["20/12v", "+04"]], "start": "3/2r"},
    )
    with pytest.raises(IllegalAction) as info:
        g.apply(0, {"type": "play", "card": "1/2r", "claim": "equal"})
    assert info.value.code == "not_equivalent"
    g.apply(0, {"type": "uno"})
    g.apply(0, {"type": "play", "card": "9/6j", "claim": "equal"})
    assert g.ref == "9/6"
    assert POINTS["fractions"]["20/12v"] == 20


def test_a_state_of_one_level_does_not_load_as_another() -> None:
    state = Game.new("fractions", 3, options={"deck": "sixths"}, seed=1).to_dict()
    state["options"]["deck"] = "full"
    with pytest.raises(IllegalAction) as info:
        Game.from_dict(state)
    assert info.value.code == "bad_state"
