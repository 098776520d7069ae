"""The status model on small fixed-seed samples of simulated students (bench/diagnosis.py runs
the full samples; docs/diagnosis.md has its figures). Bounds are the bench's figures widened for
the small samples, so a change of the model that moves a figure far is noticed."""

from __future__ import annotations

import pytest

from lessons.diagnosis.simulation import calibration as cal
from lessons.diagnosis.simulation.calibration import Student

NULL = 200
HABIT = 50


@pytest.fixture(scope="module")
def null_students() -> list[cal.Outcome]:
    return cal.run_students(Student(), range(NULL), 60)


def test_no_misconception_is_rarely_likely(null_students: list[cal.Outcome]) -> None:
    assert cal.false_likely(null_students, 60) <= 0.02
    assert cal.false_emerging(null_students) <= 0.08


def test_random_reasons_do_not_make_a_status() -> None:
    students = cal.run_students(Student(reasons=True), range(10**6, 10**6 + NULL), 60)
    assert cal.false_likely(students, 60) <= 0.025


@pytest.mark.parametrize(
    ("rule", "reasons", "found_at_least", "median_at_most"),
    [
        # Seeded figures: M1 54% / 139, M1 reasons 80% / 85, M2 reasons 86% / 63,
        # M3 92% / 74, M3 reasons 98% / 39 (bench/diagnosis.py, large samples: docs).
        ("M1", False, 0.4, 150),
        ("M1", True, 0.7, 100),
        ("M2", True, 0.75, 80),
        ("M3", False, 0.85, 90),
        ("M3", True, 0.9, 50),
    ],
)
def test_habits_are_found(
    rule: str, reasons: bool, found_at_least: float, median_at_most: int
) -> None:
    seeds = range(3 * 10**6, 3 * 10**6 + HABIT)
    students = cal.run_students(Student(habit=rule, reasons=reasons), seeds, 150)
    assert cal.found(students, rule, 150) >= found_at_least
    assert cal.median_turns(students, rule) <= median_at_most
    assert cal.false_resolved(students, rule) <= 0.04
    assert cal.other_likely(students, rule) <= 0.04


def test_habit_turns_come_from_real_games() -> None:
    held = cal.fitting_card_share(["M1", "M3"])
    assert 0.08 < held["M1"] < 0.2 and 0.2 < held["M3"] < 0.4
    assert any(reference is None for reference, _, _ in cal.situations())
