"""Learning curves: encounters read from turns, the stratified trend test and its reading."""

from __future__ import annotations

import math
import random

import pytest

from lessons.diagnosis.learning_curve import (
    CURVE_ENCOUNTERS,
    TREND_DOWN,
    TREND_FLAT,
    TREND_MIN_PUPILS,
    TREND_TOO_LITTLE,
    TREND_Z,
    encounters,
    learning_curve,
    read_trend,
    trend_score,
)


def turn(number: int, played: str, hand: list[str], *, probe: bool = False) -> dict[str, object]:
    """Return a turn on 1/2 where `played` is the first claim ("equal")."""
    data: dict[str, object] = {
        "turn": number,
        "reference": "1/2",
        "denominator": 2,
        "hand": hand,
        "attempts": [{"played": played, "claim": "equal", "asked": False, "reason": None}],
        "drew": False,
    }
    if probe:
        data["source"] = "probe"
    return data


def test_an_encounter_is_a_turn_offering_the_trap_and_taken_means_its_first_claim_fits() -> None:
    turns = [
        turn(0, "2/3", ["2/3", "3/6"]),  # M1's trap (1/2 -> 2/3) taken
        turn(1, "3/6", ["2/3", "3/6"]),  # offered, the right card played
        turn(2, "4/6", ["3/6", "4/6", "1/6"]),  # no M1 card: no encounter
        {  # the trap taken on a second try only: only the first claim counts
            "turn": 3,
            "reference": "1/2",
            "denominator": 2,
            "hand": ["2/3", "4/6", "3/6"],
            "attempts": [
                {"played": "4/6", "claim": "equal", "asked": False, "reason": None},
                {"played": "2/3", "claim": "equal", "asked": False, "reason": None},
            ],
            "drew": True,
        },
        turn(4, "2/3", ["2/3", "3/6", "1/4"], probe=True),  # a warm-up item counts too
    ]
    assert encounters(turns, "M1") == [True, False, False, True]
    assert encounters(turns, "M2") == [False, False]  # 1/6 on turn 2, 1/4 on the probe


def test_bad_turns_raise_value_error() -> None:
    with pytest.raises(ValueError):
        encounters("not a list", "M1")
    with pytest.raises(ValueError):
        encounters([turn(0, "7/9", ["7/9"])], "M1")


def test_the_score_matches_a_hand_computed_example() -> None:
    # One pupil: taken at 1 and 2 of 4 encounters. x - mean: -1.5, -0.5, 0.5, 1.5.
    # U = -2; Var = k(n-k)/(n(n-1)) * sum(d^2) = 2*2/12 * 5 = 5/3.
    z, informative = trend_score([[True, True, False, False]])
    assert informative == 1
    assert z == pytest.approx(-2 / math.sqrt(5 / 3))
    # Pupils who always or never take the trap carry no information.
    assert trend_score([[True] * 5, [False] * 5, [True]]) == (None, 0)


def test_the_reading_follows_the_test_only() -> None:
    assert read_trend(-TREND_Z - 0.01, TREND_MIN_PUPILS) == TREND_DOWN
    assert read_trend(-TREND_Z + 0.01, TREND_MIN_PUPILS) == TREND_FLAT
    assert read_trend(3.0, TREND_MIN_PUPILS) == TREND_FLAT  # a rise is no decrease
    assert read_trend(-9.0, TREND_MIN_PUPILS - 1) == TREND_TOO_LITTLE
    assert read_trend(None, 30) == TREND_TOO_LITTLE


def test_a_curve_counts_pupils_per_encounter_and_cuts_at_the_curve_length() -> None:
    pupils = [[True, False, True], [False], [True] * (CURVE_ENCOUNTERS + 5), []]
    curve = learning_curve("M1", pupils)
    assert curve.pupils == 3
    assert len(curve.points) == CURVE_ENCOUNTERS
    first, second, third = curve.points[:3]
    assert (first.pupils, first.taken) == (3, 2)
    assert (second.pupils, second.taken) == (2, 1)
    assert (third.pupils, third.taken) == (2, 2)
    assert curve.encounters == 3 + 1 + CURVE_ENCOUNTERS
    assert curve.trend == TREND_TOO_LITTLE  # one informative pupil


def test_a_falling_habit_reads_down_and_a_pupil_mix_without_change_does_not() -> None:
    rng = random.Random(7)
    falling = [[rng.random() < 0.8 - 0.08 * i for i in range(10)] for _ in range(30)]
    assert learning_curve("M1", falling).trend == TREND_DOWN
    # Strong habits met 3 times, weak ones 10 times: the pooled rate by encounter number
    # falls, but no pupil's habit changed (a test pooling pupils would read "baisse").
    mixed = [[rng.random() < 0.8 for _ in range(3)] for _ in range(30)]
    mixed += [[rng.random() < 0.2 for _ in range(10)] for _ in range(30)]
    curve = learning_curve("M1", mixed)
    assert curve.points[0].rate > curve.points[5].rate + 0.3
    assert curve.trend == TREND_FLAT
