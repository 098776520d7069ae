"""How the suite's time was spent: each worker's busy time, its idle tail, the longest groups.

Reads a `--junitxml` report of a pytest run (tests/conftest.py notes in each test's properties
the xdist worker that ran it and when it began) and prints:

- the wall from the first test's start to the last test's end;
- each worker's busy time (the sum of its tests' set-up, call and tear-down), when it ended and
  how long it then sat idle while the other worker still ran (the idle tail);
- the sums by directory (tests/e2e/browser, tests/lessons, ...) and the longest files: with two
  workers a run lasts at least its longest file kept on one worker (tests/conftest.py's groups).

Usage:

    .venv/bin/python -m pytest -n 2 --dist loadgroup --no-loadscope-reorder --junitxml=run.xml
    .venv/bin/python bench/suite_balance.py run.xml [--top 15]

A report without the properties (an older run) still gives the sums by directory and file.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Case:
    """One test of the report: its file, its seconds, its worker and start (if noted)."""

    file: str
    seconds: float
    worker: str | None
    start: float | None


def _file_of(case: ET.Element) -> str:
    """Return the test file of a case: junit's classname is the dotted module path, then any
    class (tests.e2e.browser.test_x.TestY); the longest prefix that is a file here wins."""
    parts = case.get("classname", "").split(".")
    for end in range(len(parts), 0, -1):
        candidate = "/".join(parts[:end]) + ".py"
        if Path(candidate).exists():
            return candidate
    while len(parts) > 1 and parts[-1][:1].isupper():  # run elsewhere: drop the classes
        parts.pop()
    return "/".join(parts) + ".py"


def read_cases(path: Path) -> list[Case]:
    """Return every test case of a junit XML report."""
    cases: list[Case] = []
    for element in ET.parse(path).getroot().iter("testcase"):
        props = {p.get("name"): p.get("value") for p in element.iter("property")}
        start = props.get("start")
        cases.append(
            Case(
                file=_file_of(element),
                seconds=float(element.get("time", "0") or 0),
                worker=props.get("worker"),
                start=float(start) if start else None,
            )
        )
    return cases


def directory_of(file: str) -> str:
    """Return the directory a file is counted under: tests/e2e/<dir> or tests/<dir>."""
    parts = file.split("/")
    depth = 3 if len(parts) > 3 and parts[1] == "e2e" else 2
    return "/".join(parts[:depth]) if len(parts) > depth else "/".join(parts[:-1]) or file


def report(cases: list[Case], top: int) -> str:
    """Return the printed summary of `cases`."""
    lines: list[str] = []
    total = sum(c.seconds for c in cases)
    lines.append(f"{len(cases)} tests, {total:.0f} s of test time in all")
    timed = [c for c in cases if c.worker is not None and c.start is not None]
    if timed:
        first = min(c.start for c in timed if c.start is not None)
        ends: dict[str, float] = defaultdict(float)
        busy: dict[str, float] = defaultdict(float)
        count: dict[str, int] = defaultdict(int)
        for c in timed:
            assert c.worker is not None and c.start is not None
            ends[c.worker] = max(ends[c.worker], c.start + c.seconds)
            busy[c.worker] += c.seconds
            count[c.worker] += 1
        last = max(ends.values())
        lines.append(
            f"wall from the first test's start to the last one's end: {last - first:.0f} s"
        )
        lines.append(
            f"{'worker':<8} {'tests':>6} {'busy s':>8} {'ended at s':>11} {'idle tail s':>12}"
        )
        for worker in sorted(ends):
            lines.append(
                f"{worker:<8} {count[worker]:>6} {busy[worker]:>8.0f} "
                f"{ends[worker] - first:>11.0f} {last - ends[worker]:>12.0f}"
            )
    by_dir: dict[str, list[float]] = defaultdict(list)
    by_file: dict[str, list[float]] = defaultdict(list)
    for c in cases:
        by_dir[directory_of(c.file)].append(c.seconds)
        by_file[c.file].append(c.seconds)
    lines.append("")
    lines.append(f"{'directory':<28} {'tests':>6} {'sum s':>8}")
    for name, times in sorted(by_dir.items(), key=lambda kv: -sum(kv[1])):
        lines.append(f"{name:<28} {len(times):>6} {sum(times):>8.0f}")
    lines.append("")
    lines.append(f"the {top} longest files (one worker each when they have at most 60 tests):")
    for name, times in sorted(by_file.items(), key=lambda kv: -sum(kv[1]))[:top]:
        lines.append(f"{sum(times):>8.1f} s {len(times):>5} tests  {name}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("report", type=Path, help="a pytest --junitxml report")
    parser.add_argument("--top", type=int, default=15, help="how many files to list")
    args = parser.parse_args(argv)
    print(report(read_cases(args.report), args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
