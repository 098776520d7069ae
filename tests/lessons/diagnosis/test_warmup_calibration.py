"""The warm-up on small fixed-seed samples of simulated pupils (bench/diagnosis.py runs the
full samples; docs/diagnosis.md has its figures). Bounds are the bench's goals widened for the
small samples, so a change that moves a figure far is noticed."""

from __future__ import annotations

import random

import pytest

from lessons.diagnosis import ROUND_CAP, probe_next
from lessons.diagnosis.probe import WarmUp
from lessons.diagnosis.simulation import warmup_calibration as wc
from lessons.diagnosis.simulation.calibration import Student
from lessons.diagnosis.simulation.warmup_calibration import Pupil

N = 60


def test_the_incremental_warm_up_gives_probe_next_s_items() -> None:
    rng = random.Random(3)
    warm_up = WarmUp(level="twelfths", seed=3, round_id="w")
    turns: list[dict[str, object]] = []
    pupil = Pupil(habit="M2", rate=0.4, wrong=0.1, reasons=True, level="twelfths")
    while (item := warm_up.next_item()) is not None:
        assert item == probe_next(turns, level="twelfths", seed=3, round_id="w")
        turns.append(wc.answer(rng, pupil, item, len(turns), "w"))
        warm_up.add(turns[-1])
    assert probe_next(turns, level="twelfths", seed=3, round_id="w") is None


def test_no_misconception_is_rarely_likely_and_rounds_stay_within_the_cap() -> None:
    outcomes = [wc.run_pupil(Pupil(wrong=0.4, reasons=True), seed) for seed in range(N)]
    assert wc.false_likely(outcomes) <= 0.04
    assert max(wc.round_lengths(outcomes)) <= ROUND_CAP


def test_a_competent_pupil_has_a_short_round() -> None:
    outcomes = [wc.run_pupil(Pupil(wrong=0.05), seed) for seed in range(N)]
    assert wc.median(wc.round_lengths(outcomes)) <= 12
    assert wc.false_likely(outcomes) == 0


@pytest.mark.parametrize(("rule", "reasons"), [("M1", True), ("M2", False), ("M3", True)])
def test_a_half_habit_is_found_in_the_round(rule: str, reasons: bool) -> None:
    pupil = Pupil(habit=rule, rate=0.5, reasons=reasons)
    outcomes = [wc.run_pupil(pupil, 10**6 + seed) for seed in range(N)]
    assert wc.found(outcomes, rule) >= 0.9
    assert wc.items_to_likely(outcomes, rule) <= (8 if reasons else 14)


def test_a_stopped_habit_is_resolved_by_one_re_check_and_a_persisting_one_is_not() -> None:
    habit = Pupil(habit="M1", rate=0.5, reasons=True)
    stopped = [wc.run_recheck(habit, Pupil(wrong=0.05, reasons=True), s) for s in range(N)]
    checked = [o for o in stopped if o is not None]
    assert len(checked) >= 0.9 * N and wc.share([o.resolved for o in checked]) >= 0.7
    persisting = [wc.run_recheck(habit, habit, s) for s in range(N)]
    assert not any(o.resolved for o in persisting if o is not None)


def test_game_turns_after_a_warm_up_keep_the_error_rate() -> None:
    pupil, student = Pupil(wrong=0.4, reasons=True), Student(reasons=True)
    flags = [wc.run_then_game(pupil, student, seed, 30) for seed in range(N)]
    assert wc.share(flags) <= 0.05
