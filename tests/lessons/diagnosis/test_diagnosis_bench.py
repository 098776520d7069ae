"""bench/diagnosis.py's warm-up part runs end to end on a tiny sample and prints its goals."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench" / "diagnosis.py"


@pytest.fixture()
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("diagnosis_bench", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "diagnosis_bench", module)
    spec.loader.exec_module(module)
    return module


def test_the_warm_up_part_prints_every_goal_as_pass_or_fail(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    code = bench.main(["--part", "warmup", "--pupils", "6", "--jobs", "1"])
    lines = capsys.readouterr().out.strip().splitlines()
    goals = [line for line in lines if line.startswith(("PASS", "FAIL"))]
    assert all(line.startswith(("PASS", "FAIL", "info")) for line in lines)
    text = "\n".join(goals)
    for goal in (
        "false 'likely', no misconception, 40% wrong at random",
        "competent pupil (5% wrong) median round",
        "M1 50% habit (with reasons) 'likely' by the end of the round",
        "M2 50% habit (no reasons) 'likely' by the end of the round",
        "M3 50% habit (with reasons) median items to 'likely'",
        "M1 30% habit (with reasons)",
        "M2 habit stopped, 'resolved' by one re-check",
        "M3 30% habit persisting, 'resolved' by a re-check",
        "longest round",
        "warm-up then 60 game turns",
    ):
        assert goal in text, goal
    assert code == (0 if all(line.startswith("PASS") for line in goals) else 1)
