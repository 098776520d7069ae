"""Issue 31 §1.3: the held part of bench/diagnosis.py, its courses and the residual table."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from lessons.diagnosis.chance import binomial_cdf
from lessons.diagnosis.model import HABIT_FLOOR, RESOLVED_MIN_CLEAN, RESOLVED_MISS
from lessons.diagnosis.probe import ROUND_CAP, WarmUp
from lessons.diagnosis.residual import RESIDUAL_RATES, one_round_pass, residual_pass_rates
from lessons.diagnosis.simulation import warmup_calibration as wc
from tests.lessons.diagnosis.bench_runner import load_bench, run_goals


@pytest.fixture()
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    return load_bench(monkeypatch, "diagnosis_bench_held")


def test_the_held_part_prints_every_goal_as_pass_or_fail(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    _, lines, text = run_goals(
        bench, ["--part", "held", "--held-pupils", "2", "--jobs", "1"], capsys
    )
    for rule in ("M1", "M2", "M3"):
        for goal in (
            f"held: {rule} 30% habit never gone",
            f"held: {rule} habit stopped after it was found",
            f"held: {rule} habit gone on day 1, back at 30% by day 8, caught",
            f"held: {rule} never earlier than 7 days",
        ):
            assert goal in text, goal
    assert sum("residual habit" in line for line in lines) == 3 * len(bench.RESIDUALS)


def test_a_stopped_habit_course_is_held_on_day_8_not_on_day_1() -> None:
    rng, warm_up = random.Random(3), WarmUp(seed=3)
    habit = wc.Pupil(habit="M1", rate=0.5, reasons=True)
    right = wc.Pupil()
    plan = [(0.0, habit), (24.0, right), (24.0 + 100, right), (24.0 + 168, right)]
    statuses = wc.run_course(rng, warm_up, "M1", plan)
    assert statuses == ["likely", "resolved", "resolved", "held"]
    assert not wc.held_too_early(statuses, [at for at, _ in plan])
    # Every answer carries its time with its offset.
    assert all(turn.at is not None and turn.at.utcoffset() is not None for turn in warm_up.turns)


def test_held_too_early_reads_the_resolving_round_of_the_current_streak() -> None:
    assert wc.held_too_early(["likely", "resolved", "held"], [0, 24, 100])
    assert not wc.held_too_early(["likely", "resolved", "held"], [0, 24, 192])
    # A relapse starts a new streak: the week counts from the new resolving round.
    statuses = ["likely", "resolved", "likely", "resolved", "held"]
    assert wc.held_too_early(statuses, [0, 24, 200, 300, 400])
    assert not wc.held_too_early(statuses, [0, 24, 200, 300, 468])


def _by_paths(rate: float) -> float:
    """The pass chance by counting the ways, for the round the model allows (slow, exact)."""
    # Pass with no trap taken in the first RESOLVED_MIN_CLEAN offers, or with one taken there
    # and none after it up to 20 offers; two or more cannot pass within ROUND_CAP items.
    clean = RESOLVED_MIN_CLEAN
    one = next(n for n in range(clean, 100) if binomial_cdf(1, n, HABIT_FLOOR) <= RESOLVED_MISS)
    assert one <= ROUND_CAP
    return (1 - rate) ** clean + clean * rate * (1 - rate) ** (one - 1)


@pytest.mark.parametrize("rate", [*RESIDUAL_RATES, 0.017, 0.5])
def test_the_residual_table_is_the_models_figures(rate: float) -> None:
    assert one_round_pass(rate) == pytest.approx(_by_paths(rate), abs=1e-12)


def test_the_residual_table_matches_the_guides_published_figures() -> None:
    table = {rate: (round(one * 100, 1), round(two * 100, 1)) for rate, (one, two) in
             residual_pass_rates().items()}  # fmt: skip
    assert table[0.05] == (75.9, 57.6) and table[0.15] == (21.0, 4.4)
    assert table[0.30] == (1.4, 0.0)
    assert one_round_pass(0.0) == 1.0 and one_round_pass(1.0) == 0.0
    with pytest.raises(ValueError, match="between 0 and 1"):
        one_round_pass(1.5)
