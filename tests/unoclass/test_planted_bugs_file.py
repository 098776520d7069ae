"""Every planted bug of bench/planted_bugs.toml still names code that exists, once.

A bug whose snippet no longer matches after a refactor is silently counted as not run; this
test says so at once (two did, unnoticed, after games/services.py and the links moved on).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_each_planted_bug_finds_its_snippet_exactly_once() -> None:
    data = tomllib.loads((ROOT / "bench" / "planted_bugs.toml").read_text(encoding="utf-8"))
    stale = []
    for bug in data["bug"]:
        path = ROOT / bug["file"]
        found = path.read_text(encoding="utf-8").count(bug["original"]) if path.exists() else 0
        if found != 1 or bug["original"] == bug["replacement"]:
            stale.append(f"{bug['id']}: {found}x in {bug['file']}")
    assert stale == []
