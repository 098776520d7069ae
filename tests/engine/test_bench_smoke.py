"""The RLCard benchmark runs end to end and ends on a PASS or FAIL line."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture()
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))
    spec = importlib.util.spec_from_file_location("engine_vs_rlcard", BENCH / "engine_vs_rlcard.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "engine_vs_rlcard", module)
    spec.loader.exec_module(module)
    return module


def test_engine_hand_is_one_finished_round(bench: ModuleType) -> None:
    moves = [bench.play_engine_hand(seed, random.Random(seed)) for seed in range(20)]
    assert all(m > 0 for m in moves)
    assert moves == [bench.play_engine_hand(seed, random.Random(seed)) for seed in range(20)]


def test_benchmark_prints_both_sides_and_a_verdict(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rlcard", reason="rlcard comes with the bench extra")
    code = bench.main(["--seconds", "0.4", "--slice", "0.1"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert any(line.startswith("engine ") for line in lines)
    assert any(line.startswith("rlcard ") for line in lines)
    assert lines[-1].startswith(("PASS", "FAIL"))
    assert code == (0 if lines[-1].startswith("PASS") else 1)
