"""The complexity gate: no function or method of games/ or lessons/ scores above 20 (radon).

A function past 20 independent paths is one nobody reads whole before changing it; the gate
keeps the move path and the diagnosis splittable into parts that each say what they do.
"""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Function

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 20
GATED = ("games", "lessons")


def too_complex(source: str, limit: int = LIMIT) -> list[tuple[str, int]]:
    """Return (name, score) of each function or method in ``source`` scoring over ``limit``."""
    return [
        (block.fullname, block.complexity)
        for block in cc_visit(source)
        if isinstance(block, Function) and block.complexity > limit
    ]


def test_no_function_of_games_or_lessons_scores_above_the_limit() -> None:
    found = []
    for folder in GATED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for name, score in too_complex(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}: {name} scores {score}")
    assert not found, f"over the complexity limit of {LIMIT}:\n" + "\n".join(found)


def test_the_gate_catches_a_function_with_too_many_paths() -> None:
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(LIMIT))
    source = f"def many(x):\n{branches}\n    return -1\n"
    assert too_complex(source) == [("many", LIMIT + 1)]
    assert too_complex(source.replace("    if x == 0:\n        return 0\n", "")) == []


def test_methods_are_gated_by_their_own_score() -> None:
    body = "\n".join(f"        if x == {i}:\n            return {i}" for i in range(LIMIT))
    source = f"class Big:\n    def method(self, x):\n{body}\n        return -1\n"
    assert too_complex(source) == [("Big.method", LIMIT + 1)]
