"""Report the fuzz runs (frames sent, seed) at the end of the test session."""

from __future__ import annotations

from typing import Any

import pytest

FUZZ_REPORT: list[str] = []


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print each fuzz run's frame count and seed, so a failing run can be replayed."""
    if FUZZ_REPORT:
        terminalreporter.section("fuzz runs")
        for line in FUZZ_REPORT:
            terminalreporter.write_line(line)


@pytest.fixture
def fuzz_report() -> list[str]:
    """Collect one line per fuzz run for the terminal summary."""
    return FUZZ_REPORT
