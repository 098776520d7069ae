"""bench/diagnosis.py's warm-up part runs end to end on a tiny sample and prints its goals."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.lessons.diagnosis.bench_runner import load_bench, run_goals


@pytest.fixture()
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    return load_bench(monkeypatch, "diagnosis_bench")


def test_the_warm_up_part_prints_every_goal_as_pass_or_fail(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, text = run_goals(bench, ["--part", "warmup", "--pupils", "6", "--jobs", "1"], capsys)
    for goal in (
        "false 'likely', no misconception, 40% wrong at random",
        "competent pupil (5% wrong) median round",
        "M1 50% habit (with reasons) 'likely' by the end of the round",
        "M2 50% habit (no reasons) 'likely' by the end of the round",
        "M3 50% habit (with reasons) median items to 'likely'",
        "M1 30% habit (with reasons)",
        "M2 30% habit, 10% random slips besides (with reasons) 'likely' by the end",
        "M2 habit stopped, 'resolved' by one re-check",
        "M3 30% habit persisting, 'resolved' by a re-check",
        "longest round",
        "warm-up then 60 game turns",
    ):
        assert goal in text, goal


def test_the_learning_part_prints_the_curve_goals(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, text = run_goals(bench, ["--part", "learning", "--groups", "2", "--jobs", "1"], capsys)
    for rule in ("M1", "M2", "M3"):
        assert f"learning curve: {rule} habit from 60% unlearning 15% per refused trap" in text
        assert f"learning curve: {rule} constant 60% habit" in text


def test_reasons_raise_the_game_s_ceiling_and_a_stricter_level_lowers_it(
    bench: ModuleType,
) -> None:
    # The `limit … with reasons` lines: a fit with the habit's own reason is rarer by chance,
    # so the bound can only rise with reasons, and fall when the level is halved.
    plain = bench.fits_ceiling("M1", 150, 200)[1]
    loose = bench.fits_ceiling("M1", 150, 200, reasons=True)[1]
    strict = bench.fits_ceiling("M1", 150, 200, reasons=True, level=bench.LEVELS["M1"] / 2)[1]
    assert plain < strict <= loose < 1
