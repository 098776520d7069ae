"""diagnose() made faster gives what the straightforward model gave, figure for figure.

The reference, lessons.diagnosis.reference, is the model as it was before the speed-up (a new
distribution list per claim, every reason term added one by one, every turn checked and weighed
from scratch, no cache). It is compared with lessons.diagnosis on random histories: simulated
students of lessons.diagnosis.calibration (habits, reasons, probes, aimed dealing) and
free-form histories (claims left out or given, cards played from outside the hand, named
denominators, reasons on any wrong "equal" claim, decks of improper fractions), read after
every turn as the calibration bench reads them, and on bad input (same ValueError message).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.fractions import parse_fraction
from lessons.diagnosis import (
    DEFAULT_DECK_VALUES,
    RULE_IDS,
    Diagnosis,
    diagnose,
    stream,
)
from lessons.diagnosis.chance import ChanceScore
from lessons.diagnosis.classifier import CLAIM_DENOMINATOR, CLAIM_EQUAL, tags_for
from lessons.diagnosis.reasons import REASON_FOR_RULE, REASONS
from lessons.diagnosis.simulation import calibration
from lessons.diagnosis.simulation.reference import RefDiagnosis, RefScore, ref_diagnose

TOLERANCE = 1e-12
FIRST_REASON = next(iter(REASONS))


# ---------------------------------------------------------------- comparing


def assert_same(new: dict[str, dict[str, Any]], old: dict[str, dict[str, Any]]) -> None:
    assert list(new) == list(old)
    for rule, figures in old.items():
        got = new[rule]
        # The reference predates "held": its histories carry no "at", so nothing is held.
        assert got.keys() - figures.keys() == {"held_at_turn", "checks"}, rule
        assert figures.keys() <= got.keys(), rule
        assert got["held_at_turn"] is None and got["status"] != "held", rule
        for key, want in figures.items():
            if key in ("p_value", "alpha", "expected") and want is not None:
                assert got[key] is not None, (rule, key)
                assert abs(got[key] - want) <= TOLERANCE, (rule, key, got[key], want)
            else:
                assert got[key] == want, (rule, key, got[key], want)


def test_chance_scores_are_bit_for_bit_the_reference() -> None:
    """The distributions (so the p-values) are the same floats, not merely close ones."""
    rng = random.Random(5)
    for _ in range(200):
        new, old = ChanceScore(), RefScore()
        for _ in range(rng.randrange(1, 200)):
            p = rng.choice([rng.random(), 0.0, 1.0, 0.5, 1 / 3])
            if rng.random() < 0.4:
                weight, chance = rng.choice([0, 1, 2, 3]), rng.random()
                new.add_with_reason(p, chance, weight)
                old.add_with_reason(p, chance, weight)
            else:
                new.add(p)
                old.add(p)
            assert new.probs == old.probs
            score = rng.randrange(0, len(old.probs) + 2)
            assert new.tail(score) == old.tail(score)


def assert_same_stream(turns: list[Any], deck: object = None) -> None:
    """Compare after every turn (statuses, as the calibration bench reads them) and at the end."""
    new, old = Diagnosis(deck), RefDiagnosis(deck)
    for data in turns:
        new.add(data)
        old.add(data)
        for rule in RULE_IDS:
            assert new.status(rule) == old.status(rule), (rule, new.turns)
            assert new.tracks[rule].likely_at == old.tracks[rule].likely_at, rule
    assert_same(new.result(), old.result())
    assert_same(diagnose(turns, deck), old.result())


IMPROPER_DECK = [f"{n}/{d}" for d in (2, 3, 4, 6, 12) for n in range(1, 2 * d + 1) if n != d]


def random_history(rng: random.Random, deck: list[str], turns: int) -> list[dict[str, Any]]:
    """Return free-form (well-formed) turns: any claim, reasons, probes, named denominators."""
    history: list[dict[str, Any]] = []
    habit = rng.choice(["M1", "M2", "M3", "M6", None])
    for number in range(turns):
        hand = rng.sample(deck, rng.randrange(0, min(10, len(deck))))
        if rng.random() < 0.1:
            denominator = parse_fraction(rng.choice(deck))[1]
            history.append(named_turn(rng, number, denominator, deck, hand))
            continue
        reference = rng.choice(deck)
        a, b = parse_fraction(reference)
        pool = hand if hand and rng.random() < 0.85 else deck
        attempts: list[dict[str, Any]] = []
        for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
            card = rng.choice(pool)
            if habit and rng.random() < 0.4:
                fitting = [c for c in pool if habit in tags_for(a, b, *parse_fraction(c), "equal")]
                card = rng.choice(fitting) if fitting else card
            claim = rng.choice([None, None, CLAIM_EQUAL, CLAIM_DENOMINATOR])
            made = claim or (CLAIM_EQUAL if parse_fraction(card)[1] != b else CLAIM_DENOMINATOR)
            wrong = bool(tags_for(a, b, *parse_fraction(card), made))
            reason = None
            if wrong and made == CLAIM_EQUAL and rng.random() < 0.5:
                reason = rng.choice(list(REASONS))
                if habit in REASON_FOR_RULE and rng.random() < 0.5:
                    reason = REASON_FOR_RULE[habit]
            attempts.append(
                {"played": card, "claim": claim, "asked": rng.random() < 0.5, "reason": reason}
            )
            if not wrong:
                break
        history.append(
            {
                "turn": number,
                "reference": reference,
                "denominator": b if rng.random() < 0.3 else None,
                "hand": hand,
                "attempts": attempts,
                "drew": rng.random() < 0.3,
            }
        )
    return history


def named_turn(
    rng: random.Random, number: int, denominator: int, deck: list[str], hand: list[str]
) -> dict[str, Any]:
    card = rng.choice(hand or deck)
    claim = rng.choice([None, CLAIM_DENOMINATOR, CLAIM_EQUAL])
    return {
        "turn": number,
        "reference": None,
        "denominator": denominator,
        "hand": hand,
        "attempts": [{"played": card, "claim": claim, "asked": False, "reason": None}],
        "drew": False,
    }


@pytest.mark.parametrize("seed", range(40))
def test_free_form_histories_give_the_reference_figures(seed: int) -> None:
    rng = random.Random(seed)
    deck = list(DEFAULT_DECK_VALUES) if seed % 4 else IMPROPER_DECK
    history = random_history(rng, deck, rng.choice([5, 60, 200, 450]))
    assert_same_stream(history, None if seed % 4 else deck)


STUDENTS = [
    calibration.Student(),
    calibration.Student(reasons=True),
    calibration.Student(different_denominators=True),
    calibration.Student(habit="M1", reasons=True),
    calibration.Student(habit="M2"),
    calibration.Student(habit="M3", reasons=True, stop_after_likely=True),
    calibration.Student(habit="M2", aim="M2", reasons=True),
]


@pytest.mark.parametrize("student", STUDENTS, ids=repr)
def test_simulated_students_give_the_reference_figures(student: calibration.Student) -> None:
    for seed in range(6):
        rng = random.Random(1000 + seed)
        habit_on = True
        history = []
        for number in range(300):
            history.append(calibration._turn(rng, student, number, habit_on))
            # A habit that stops half-way exercises "resolved".
            habit_on = not (student.stop_after_likely and number > 150)
        assert_same_stream(history)


def test_simulated_outcomes_are_unchanged_by_the_speed_up() -> None:
    """run_student (what bench/diagnosis.py counts) reads the same turns as the reference."""
    student = calibration.Student(habit="M1", reasons=True, stop_after_likely=True)
    outcome = calibration.run_student(student, 7, 120)
    rng = random.Random(7)
    reference = RefDiagnosis()
    habit_on = True
    for number in range(120):
        reference.add(calibration._turn(rng, student, number, habit_on))
        if student.stop_after_likely and habit_on and reference.tracks["M1"].likely_at is not None:
            habit_on = False
    assert outcome.final == {rule: reference.status(rule) for rule in reference.tested}
    assert outcome.likely_at == {
        rule: reference.tracks[rule].likely_at
        for rule in reference.tested
        if reference.tracks[rule].likely_at is not None
    }


def test_repeated_calls_give_the_same_figures_as_the_first() -> None:
    """Caches must not carry anything from one student (or call) to the next."""
    rng = random.Random(99)
    histories = [random_history(rng, list(DEFAULT_DECK_VALUES), 80) for _ in range(5)]
    first = [diagnose(history) for history in histories]
    again = [diagnose(history) for history in reversed(histories)][::-1]
    assert first == again
    for history, result in zip(histories, first, strict=True):
        assert_same(result, ref_diagnose(history))


def _good_turn() -> dict[str, Any]:
    return {
        "turn": 3,
        "reference": "1/2",
        "denominator": None,
        "hand": ["1/3", "3/6"],
        "attempts": [{"played": "1/3", "claim": "equal", "asked": True, "reason": None}],
        "drew": False,
    }


def _bad_turns() -> list[Any]:
    changes: list[tuple[str, Any]] = [
        ("turn", "3"),
        ("turn", True),
        ("turn", 3.0),
        ("reference", "9/7"),
        ("reference", 0.5),
        ("reference", "x"),
        ("reference", ["1/2"]),
        ("reference", "2/4"),
        ("denominator", 3),
        ("denominator", 6),
        ("denominator", -2),
        ("denominator", 0),
        ("denominator", True),
        ("hand", "1/3"),
        ("hand", ["1/3", "9/7"]),
        ("hand", ["1/3", 2]),
        ("hand", [["1/3"]]),
        ("hand", ["1/0"]),
        ("drew", 1),
        ("drew", None),
        ("attempts", "x"),
        ("attempts", [1]),
        ("attempts", [{"played": "1/3"}]),
        ("attempts", [{"played": "1/3", "claim": "same", "asked": True, "reason": None}]),
        ("attempts", [{"played": "1/3", "claim": ["x"], "asked": True, "reason": None}]),
        ("attempts", [{"played": "1/3", "claim": "equal", "asked": 1, "reason": None}]),
        ("attempts", [{"played": "1/3", "claim": "equal", "asked": True, "reason": "zzz"}]),
        ("attempts", [{"played": "1/3", "claim": "equal", "asked": True, "reason": ["a"]}]),
        (
            "attempts",
            [{"played": "3/6", "claim": "equal", "asked": True, "reason": next(iter(REASONS))}],
        ),
        ("attempts", [{"played": 1, "claim": "equal", "asked": True, "reason": None}]),
        ("attempts", [{"played": "9/7", "claim": "equal", "asked": True, "reason": None}]),
        (
            "attempts",
            [
                {"played": "3/6", "claim": "equal", "asked": True, "reason": None},
                {"played": "1/3", "claim": "equal", "asked": True, "reason": None},
            ],
        ),
    ]
    bad: list[Any] = [[1], ["turn"], [{"turn": 1}], "turns", {"turn": 1}]
    for key, value in changes:
        turn = _good_turn()
        turn[key] = value
        bad.append([_good_turn(), turn])
    bad.append([{**_good_turn(), "reference": None, "denominator": None}])
    named = {**_good_turn(), "reference": None, "denominator": 3}
    bad.append([{**named, "denominator": 0}])
    bad.append([{**named, "denominator": 3.0}])
    bad.append([{**named, "attempts": [{**_good_turn()["attempts"][0], "reason": FIRST_REASON}]}])
    return bad


def test_the_good_turn_is_read_by_the_plain_reading() -> None:
    """The bad-input cases change one thing in a turn the fast reading takes."""
    deck = stream.deck_values(None)
    turn = _good_turn()
    assert stream._plain_turn(turn, deck) == stream._checked_turn(turn, deck, 0)
    named = {**turn, "reference": None, "denominator": 3}
    assert stream._plain_turn(named, deck) == stream._checked_turn(named, deck, 0)


@pytest.mark.parametrize("turns", [t for t in _bad_turns() if isinstance(t, list)], ids=repr)
def test_the_plain_reading_refuses_every_bad_turn(turns: list[Any]) -> None:
    """The fast reading never takes a turn the checked reading refuses."""
    deck = stream.deck_values(None)
    for index, data in enumerate(turns):
        try:
            stream._checked_turn(data, deck, index)
        except ValueError:
            with pytest.raises((stream._Irregular, LookupError, TypeError, ValueError)):
                stream._plain_turn(data, deck)


@pytest.mark.parametrize("turns", _bad_turns(), ids=repr)
def test_bad_input_raises_the_reference_message(turns: object) -> None:
    with pytest.raises(ValueError) as new:
        diagnose(turns)
    if isinstance(turns, list):
        with pytest.raises(ValueError) as old:
            ref_diagnose(turns)
        assert str(new.value) == str(old.value)
    # The same input once more: a cache must not have kept a half-read turn.
    with pytest.raises(ValueError) as again:
        diagnose(turns)
    assert str(again.value) == str(new.value)
