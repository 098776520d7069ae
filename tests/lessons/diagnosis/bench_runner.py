"""Load bench/diagnosis.py as a module and run one of its parts, as the bench tests do."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench" / "diagnosis.py"


def load_bench(monkeypatch: pytest.MonkeyPatch, name: str) -> ModuleType:
    """Load bench/diagnosis.py under NAME, registered in sys.modules for this test only."""
    spec = importlib.util.spec_from_file_location(name, BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


def run_goals(
    bench: ModuleType, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[str], str]:
    """Run the bench; check every line is a goal or info; return (code, lines, goals' text)."""
    code = bench.main(argv)
    lines = capsys.readouterr().out.strip().splitlines()
    goals = [line for line in lines if line.startswith(("PASS", "FAIL"))]
    assert all(line.startswith(("PASS", "FAIL", "info")) for line in lines)
    assert code == (0 if all(line.startswith("PASS") for line in goals) else 1)
    return code, lines, "\n".join(goals)
