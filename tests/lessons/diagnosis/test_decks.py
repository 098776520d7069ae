"""Deck levels in the diagnosis: values, the rules each can show, aimed practice options."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Game, IllegalAction
from games.engine.cards import FRACTION_DECKS
from lessons.diagnosis import classify, diagnose
from lessons.diagnosis.decks import (
    DECK_LEVELS,
    aim_pairs,
    aim_rule,
    level_values,
    practice_options,
    rules_not_possible,
    rules_possible,
)
from lessons.diagnosis.stream import DEFAULT_DECK_VALUES

# Each level: (cards, fraction cards, values, denominators, rules it can never show).
LEVELS = {
    "sixths": (88, 64, 8, {2, 3, 6}, ("M5", "M8", "M9", "M10")),
    "twelfths": (76, 52, 13, {2, 3, 6, 12}, ("M8", "M9", "M10")),
    "full": (116, 92, 23, {2, 3, 6, 12, 24, 48}, ("M8", "M9", "M10")),
    "improper": (120, 96, 24, {2, 3, 6, 12}, ()),
}


def test_the_levels_are_the_engines() -> None:
    assert tuple(LEVELS) == DECK_LEVELS


@pytest.mark.parametrize("level", DECK_LEVELS)
def test_each_level_composition(level: str) -> None:
    cards, fractions, values, denominators, _ = LEVELS[level]
    deck = FRACTION_DECKS[level]
    assert len(deck) == cards
    assert sum("/" in code for code in deck) == fractions
    found = level_values(level)
    assert len(found) == values == len(set(found))
    assert {int(v.split("/")[1]) for v in found} == denominators


def test_the_full_level_is_the_default_deck_of_the_diagnosis() -> None:
    assert set(level_values("full")) == set(DEFAULT_DECK_VALUES)
    assert rules_not_possible() == rules_not_possible("full")


@pytest.mark.parametrize("level", DECK_LEVELS)
def test_each_level_says_which_rules_it_cannot_show(level: str) -> None:
    expected = LEVELS[level][4]
    assert rules_not_possible(level) == expected
    assert rules_not_possible(list(level_values(level))) == expected
    for rule in ("M1", "M2", "M3", "M0", "U", "D1"):
        assert rule in rules_possible(level)
    # diagnose() on that deck marks exactly those rules "not_possible".
    result = diagnose([], deck=list(level_values(level)))
    shown = tuple(rule for rule, row in result.items() if row["status"] == "not_possible")
    assert shown == expected


def test_improper_fractions_make_m8_to_m10_possible_and_diagnosable() -> None:
    assert {"M8", "M9", "M10"} <= rules_possible("improper")
    # 3/2 on 2/3 (reciprocal), 1/2 on 3/2 (whole dropped; mirrored gap).
    assert "M8" in classify("2/3", "3/2", "equal")
    assert {"M9", "M10"} <= set(classify("3/2", "1/2", "equal"))


@pytest.mark.parametrize("level", DECK_LEVELS)
@pytest.mark.parametrize("rule", ["M1", "M2", "M3", "M5", "M8"])
def test_aim_pairs_fit_the_rule_and_the_engine_takes_them(level: str, rule: str) -> None:
    pairs = aim_pairs(rule, level)
    values = set(level_values(level))
    if rule in rules_not_possible(level):
        assert pairs == []
        return
    assert pairs
    for reference, trap in pairs:
        assert {reference, trap} <= values
        assert rule in classify(reference, trap, "equal")
    game = Game.new("fractions", 4, options={"deck": level, "aim_pairs": pairs}, seed=1)
    assert game.opts["aim_pairs"] == pairs


def test_aim_pairs_are_every_fitting_pair() -> None:
    values = level_values("twelfths")
    expected = [
        [r, t] for r in values for t in values if r != t and "M2" in classify(r, t, "equal")
    ]
    assert aim_pairs("M2", "twelfths") == expected


def test_bad_decks_and_rules_are_refused() -> None:
    with pytest.raises(ValueError):
        level_values("huge")
    with pytest.raises(ValueError):
        rules_possible(["1/2", "x"])
    with pytest.raises(ValueError):
        aim_pairs("M99", "full")
    with pytest.raises(IllegalAction):  # the engine refuses pairs of another level
        Game.new("fractions", 3, options={"deck": "sixths", "aim_pairs": aim_pairs("M1")})


def _result(**statuses: tuple[str, float]) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {
        rule: {"status": "none", "p_value": 1.0} for rule in rules_possible()
    }
    for rule, (status, p) in statuses.items():
        rows[rule] = {"status": status, "p_value": p}
    return rows


def test_a_likely_rule_is_aimed_at_before_an_emerging_one() -> None:
    assert aim_rule(_result(M3=("emerging", 0.001), M1=("likely", 0.01))) == "M1"
    assert aim_rule(_result(M3=("emerging", 0.001), M2=("emerging", 0.004))) == "M3"
    assert aim_rule(_result(M1=("resolved", 0.2))) is None
    assert aim_rule(_result(M0=("likely", 0.0))) is None  # M0 is never a student's status
    assert aim_rule(_result()) is None


def test_practice_options_aim_only_at_a_suspected_rule_the_level_can_show() -> None:
    assert practice_options(None, "twelfths") == {"deck": "twelfths"}
    assert practice_options(_result(), "full") == {"deck": "full"}
    aimed = practice_options(_result(M2=("likely", 0.001)), "sixths")
    assert aimed == {"deck": "sixths", "aim_pairs": aim_pairs("M2", "sixths"), "aim_seat": 0}
    # M5 cannot occur with denominators 2, 3 and 6 only: no aim, plain practice.
    assert practice_options(_result(M5=("likely", 0.001)), "sixths") == {"deck": "sixths"}
    Game.new("fractions", 4, options=aimed, seed=2)
