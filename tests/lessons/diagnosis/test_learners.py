"""The robust-evaluation matrix of aimed practice (lessons.diagnosis.simulation.learners)."""

from __future__ import annotations

import random

from lessons.diagnosis.simulation import learners
from lessons.diagnosis.simulation.learners import (
    HORIZON,
    LEARNER_MODELS,
    LEARNS_NOTHING,
    LEARNS_ON_REFUSED,
    MASSED_COUNT_LESS,
    Cell,
)

INF = float("inf")


def test_at_least_four_learner_models() -> None:
    assert len(LEARNER_MODELS) >= 4


def test_a_pupil_who_learns_nothing_is_never_removed() -> None:
    rng = random.Random(1)
    assert learners.turns_to_removal(LEARNS_NOTHING, [True] * 10, rng) == INF


def test_a_pupil_learning_on_refused_traps_needs_no_more_turns_when_always_exposed() -> None:
    always, rarely = [True], [True] + [False] * 9
    rng = random.Random(2)
    fast = [learners.turns_to_removal(LEARNS_ON_REFUSED, always, rng) for _ in range(50)]
    slow = [learners.turns_to_removal(LEARNS_ON_REFUSED, rarely, rng) for _ in range(50)]
    assert sorted(fast)[25] < sorted(slow)[25]


def test_massed_encounters_teach_less_than_spaced_ones() -> None:
    rng = random.Random(3)
    massed = learners.turns_to_removal(MASSED_COUNT_LESS, [True], rng)
    every = learners.turns_to_removal(learners.LEARNS_EVERY_ENCOUNTER, [True], rng)
    assert every < massed


def test_speed_up_edge_cases() -> None:
    assert Cell("m", "M1", INF, INF).speed_up == 1.0
    bound = Cell("m", "M1", INF, 100.0)
    assert bound.lower_bound and bound.speed_up == HORIZON / 100
    assert Cell("m", "M1", 300.0, 100.0).speed_up == 3.0
    assert Cell("m", "M1", 100.0, INF).speed_up == 0.0
    cells = [Cell("a", "M1", 300.0, 100.0), Cell("b", "M1", INF, INF)]
    assert learners.minimum_speed_up(cells) == 1.0
