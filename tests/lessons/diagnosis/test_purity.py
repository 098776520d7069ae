"""The diagnosis modules and the engine stay pure Python (no Django, no lessons in games).

Two views of the same rule: what importing them really loads (at run time, so an import
hidden in a function called at import time counts), and what their source imports, directly
or not (the import graph, so an import inside a function not yet called counts). The import
contracts of pyproject.toml (tests/unoclass/test_contracts.py) say the same for lint-imports.
"""

from __future__ import annotations

import subprocess
import sys

import grimp

CHECK = """
import sys
import games.engine.explain
assert not any(m == "lessons" or m.startswith("lessons.") for m in sys.modules), "games->lessons"
import lessons.diagnosis
bad = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
assert not bad, bad
"""


def test_no_django_and_no_lessons_import_from_the_engine() -> None:
    result = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def _within(module: str, *packages: str) -> bool:
    return any(module == p or module.startswith(f"{p}.") for p in packages)


def _reached(graph: grimp.ImportGraph, package: str) -> set[str]:
    """Return every module the package's modules import, directly or not."""
    sources = {package, *graph.find_descendants(package)}
    reached: set[str] = set()
    for source in sources:
        reached |= graph.find_upstream_modules(source)
    return reached - sources


def test_the_diagnosis_reaches_nothing_of_the_project_but_the_engine() -> None:
    graph = grimp.build_graph("games", "lessons", "unoclass", cache_dir=None)
    reached = _reached(graph, "lessons.diagnosis")
    # The graph does see the diagnosis's imports (it parses fractions with the engine's help).
    assert any(_within(module, "games.engine") for module in reached), reached
    outside = sorted(module for module in reached if not _within(module, "games.engine"))
    assert not outside, outside


def test_the_engine_reaches_nothing_of_the_project_but_itself() -> None:
    graph = grimp.build_graph("games", "lessons", "unoclass", cache_dir=None)
    assert not sorted(_reached(graph, "games.engine"))
