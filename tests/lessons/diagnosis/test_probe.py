"""The warm-up's items: the bank (one equal card, traps of one rule each, level bounds) and
probe_next() (options, determinism, adaptive stop, the cap), as properties and scenarios."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lessons.diagnosis import ROUND_CAP, classify, diagnose, probe_next
from lessons.diagnosis.bank import (
    LEVEL_DENOMINATORS,
    LEVEL_IMPROPER,
    PROBE_RULES,
    items_for,
    trap_rule,
)
from lessons.diagnosis.probe import habit_excluded

LEVELS = tuple(LEVEL_DENOMINATORS)
SUB_RULES = {"M2": {"M2a"}, "M3": {"M3a"}}

# probe_next()'s item {"reference", "options"} and a student's answer to it (the card played).
ProbeItem = dict[str, Any]
Choose = Callable[[ProbeItem, int], str]


def value(card: str) -> Fraction:
    num, den = card.split("/")
    return Fraction(int(num), int(den))


def parts(card: str) -> tuple[int, int]:
    num, den = card.split("/")
    return int(num), int(den)


def answer(
    number: int,
    item: ProbeItem,
    played: str,
    reason: str | None = None,
    round_id: str | int | None = None,
) -> dict[str, Any]:
    turn: dict[str, Any] = {
        "turn": number,
        "source": "probe",
        "reference": item["reference"],
        "denominator": parts(item["reference"])[1],
        "hand": list(item["options"]),
        "attempts": [{"played": played, "claim": "equal", "asked": True, "reason": reason}],
        "drew": False,
    }
    if round_id is not None:
        turn["round"] = round_id
    return turn


def equal_card(item: ProbeItem) -> str:
    card: str
    (card,) = [c for c in item["options"] if value(c) == value(item["reference"])]
    return card


def trap(item: ProbeItem, rule: str) -> str | None:
    found: list[str] = [
        c for c in item["options"] if rule in classify(item["reference"], c, "equal")
    ]
    return found[0] if found else None


def play_round(
    level: str,
    seed: int,
    choose: Choose,
    round_id: str | int | None = None,
    turns: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Answer items with choose(item, index) until probe_next stops; return all turns."""
    turns = list(turns or [])
    for index in range(ROUND_CAP + 1):
        item: ProbeItem | None = probe_next(turns, level=level, seed=seed, round_id=round_id)
        if item is None:
            return turns
        turns.append(answer(len(turns), item, choose(item, index), round_id=round_id))
    raise AssertionError("probe_next did not stop at the cap")


# --- the bank ---------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_every_item_has_one_equal_card_and_traps_of_one_rule_each(level: str) -> None:
    items = items_for(level)
    assert len({item.reference for item in items}) >= 2
    for item in items:
        reference = item.reference
        assert [value(c) == value(reference) for c in item.cards].count(True) == 1, item
        assert item.equal != reference
        rules = [rule for rule, _ in item.traps]
        assert len(set(rules)) == len(rules) >= 2 and set(rules) & set(PROBE_RULES), item
        for rule, card in item.traps:
            tags = set(classify(reference, card, "equal"))
            assert rule in tags and tags - {"M0", rule} <= SUB_RULES.get(rule, set()), (item, tags)


@pytest.mark.parametrize("level", LEVELS)
def test_items_stay_within_what_the_level_knows(level: str) -> None:
    allowed = set(LEVEL_DENOMINATORS[level])
    for item in items_for(level):
        for card in (item.reference, *item.cards):
            num, den = parts(card)
            assert den in allowed, (level, card)
            assert num < den or (LEVEL_IMPROPER[level] and num < 2 * den), (level, card)


def test_a_sixths_class_never_sees_twenty_fourths_and_only_improper_shows_improper() -> None:
    assert all("24" not in c for item in items_for("sixths") for c in item.cards)
    improper = [c for item in items_for("improper") for c in item.cards if value(c) > 1]
    assert improper
    assert not [
        c for lv in LEVELS[:3] for item in items_for(lv) for c in item.cards if value(c) > 1
    ]


def test_every_level_offers_each_rule_the_warm_up_decides() -> None:
    for level in LEVELS:
        offered = {rule for item in items_for(level) for rule, _ in item.traps}
        assert set(PROBE_RULES) <= offered, level


def test_trap_rule_refuses_a_card_fitting_two_rules_or_none() -> None:
    assert trap_rule((1, 2), (2, 3)) == "M1"
    assert trap_rule((1, 3), (4, 6)) is None  # M1 and M6
    assert trap_rule((1, 2), (2, 4)) is None  # equal
    assert trap_rule((4, 6), (4, 12)) is None  # M2 and M6


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="level"):
        probe_next([], level="tenths")


# --- probe_next: properties -------------------------------------------------------------

students = st.fixed_dictionaries(
    {
        "level": st.sampled_from(LEVELS),
        "seed": st.integers(0, 10**6),
        "picks": st.lists(st.integers(0, 5), min_size=ROUND_CAP, max_size=ROUND_CAP),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(students)
def test_items_are_well_formed_within_the_level_and_the_round_ends_by_the_cap(
    student: dict[str, Any],
) -> None:
    level, seed, picks = student["level"], student["seed"], student["picks"]
    allowed = set(LEVEL_DENOMINATORS[level])
    items: list[ProbeItem] = []

    def choose(item: ProbeItem, index: int) -> str:
        items.append(item)
        card: str = item["options"][picks[index] % len(item["options"])]
        return card

    turns = play_round(level, seed, choose)
    assert 1 <= len(turns) <= ROUND_CAP
    for item in items:
        options = item["options"]
        assert 2 <= len(options) <= 6 and len(set(options)) == len(options)
        equal_card(item)  # exactly one
        for card in options:
            assert parts(card)[1] in allowed
            if card != equal_card(item):
                tags = set(classify(item["reference"], card, "equal"))
                rules = tags - {"M0", "M2a", "M3a"}
                assert len(rules) == 1, (item, card, tags)
    assert probe_next(turns, level=level, seed=seed) is None
    # Deterministic: the same answers give the same items again.
    again: list[ProbeItem] = []

    def choose_and_keep(item: ProbeItem, index: int) -> str:
        again.append(item)
        return choose_again(item, index, picks)

    play_round(level, seed, choose_and_keep)
    assert again == items


def choose_again(item: ProbeItem, index: int, picks: list[int]) -> str:
    card: str = item["options"][picks[index] % len(item["options"])]
    return card


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(LEVELS), st.integers(0, 10**6))
def test_a_student_always_right_is_clear_of_every_rule_in_a_short_round(
    level: str, seed: int
) -> None:
    turns = play_round(level, seed, lambda item, i: equal_card(item))
    assert 11 <= len(turns) <= 17
    assert all(figures["status"] != "likely" for figures in diagnose(turns).values())


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(PROBE_RULES), st.integers(0, 10**6))
def test_a_student_taking_every_trap_of_a_rule_is_found_and_the_round_stops(
    rule: str, seed: int
) -> None:
    def choose(item: ProbeItem, index: int) -> str:
        return trap(item, rule) or equal_card(item)

    turns = play_round("full", seed, choose)
    assert len(turns) < ROUND_CAP
    assert diagnose(turns)[rule]["status"] == "likely"


def test_the_seed_changes_the_order_and_the_items_not_their_design() -> None:
    first: list[ProbeItem | None] = [probe_next([], level="full", seed=s) for s in range(20)]
    assert None not in first
    assert len({tuple(item["options"]) for item in first if item is not None}) > 1
    assert probe_next([], level="full", seed=3) == probe_next([], level="full", seed=3)


def test_a_student_answering_at_random_reaches_the_cap_and_stops() -> None:
    picks = iter(range(1000))
    turns = play_round("full", 1, lambda item, i: item["options"][next(picks) % 4])
    assert len(turns) <= ROUND_CAP
    assert probe_next(turns, level="full", seed=1) is None


# --- rounds --------------------------------------------------------------------------------


def test_a_named_new_round_starts_after_a_finished_one() -> None:
    turns = play_round("full", 2, lambda item, i: equal_card(item), round_id="w1")
    assert probe_next(turns, level="full", seed=2, round_id="w1") is None
    assert probe_next(turns, level="full", seed=2, round_id="w2") is not None


def test_each_round_is_its_own_test_of_a_clear_student() -> None:
    turns = play_round("full", 4, lambda item, i: equal_card(item), round_id=1)
    game = {
        "turn": 99,
        "reference": "1/2",
        "denominator": 2,
        "hand": ["3/6", "2/3"],
        "attempts": [{"played": "3/6", "claim": None, "asked": False, "reason": None}],
        "drew": False,
    }
    # A game turn ends the unnamed round: the next probe starts a new one.
    assert probe_next([*turns, game], level="full", seed=4) is not None


def test_a_habit_likely_before_is_checked_again_in_a_later_round() -> None:
    def habit(item: ProbeItem, index: int) -> str:
        return trap(item, "M1") or equal_card(item)

    first = play_round("full", 5, habit, round_id="a")
    assert diagnose(first)["M1"]["status"] == "likely"
    # Next round, the habit gone: M1 stays undecided until checked again (resolved), and every
    # item offers an M1 trap until then.
    items: list[ProbeItem] = []

    def right(item: ProbeItem, index: int) -> str:
        items.append(item)
        return equal_card(item)

    second = play_round("full", 5, right, round_id="b", turns=first)
    result: dict[str, Any] = diagnose(second)["M1"]
    assert result["status"] == "resolved"
    checked = result["rechecked_at_turn"] - len(first) + 1
    assert checked == result["clean_needed"] == 13 <= len(second) - len(first)
    assert all(trap(item, "M1") for item in items[:checked])


def test_a_habit_that_persists_in_the_re_check_stops_it_still_likely() -> None:
    def habit(item: ProbeItem, index: int) -> str:
        return trap(item, "M1") or equal_card(item)

    first = play_round("full", 6, habit, round_id="a")
    second = play_round("full", 6, habit, round_id="b", turns=first)
    assert len(second) - len(first) < ROUND_CAP
    assert diagnose(second)["M1"]["status"] == "likely"


# --- the clear test -----------------------------------------------------------------------


def test_a_habit_is_excluded_only_when_it_would_have_shown() -> None:
    assert not habit_excluded(0, 0)
    assert not habit_excluded(0, 10)  # 0.7**10 = 2.8%
    assert habit_excluded(0, 11)  # 0.7**11 = 1.98%
    assert not habit_excluded(1, 16)  # 2.6%
    assert habit_excluded(1, 17)  # 1.9%


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        ({"turns": "x"}, "list"),
        ({"turns": [], "seed": "1"}, "seed"),
        ({"turns": [], "round_id": 1.5}, "round_id"),
        ({"turns": [{"turn": 0}]}, "missing"),
    ],
)
def test_bad_input_is_refused(bad: dict[str, Any], match: str) -> None:
    turns = bad.pop("turns")
    with pytest.raises(ValueError, match=match):
        probe_next(turns, **bad)
