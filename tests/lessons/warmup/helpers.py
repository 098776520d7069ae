"""A scripted item source for warm-up tests: the items are fixed, the turns are real.

The services' tests check storage, order and refusals, not which item probe_next picks, so
they replace lessons.diagnosis.probe_next by a script that gives ITEMS in turn: the n-th item
once the student's turns (as loaded from the database) hold n - 1 warm-up answers. A stored
answer that did not reach the turns would therefore repeat an item. `ask` fixes whether "why?"
follows every answer (True) or none (False); None keeps lessons.diagnosis.why's rule.
"""

from __future__ import annotations

from typing import Any

import pytest

ITEMS: list[dict[str, Any]] = [
    {"reference": "1/2", "options": ["3/6", "2/3", "1/6", "2/12"]},  # 2/3: M1 (one added)
    {"reference": "1/3", "options": ["1/6", "4/12", "2/3", "5/6"]},
    {"reference": "2/3", "options": ["3/6", "5/6", "8/12", "2/12"]},
]


class Script:
    """The scripted probe_next, with the turns and arguments of every call."""

    def __init__(self, items: list[dict[str, Any]]) -> None:
        self.items = items
        self.calls: list[tuple[list[dict[str, Any]], str, int]] = []
        self.rounds: list[str | int | None] = []

    def __call__(
        self,
        turns: list[dict[str, Any]],
        *,
        level: str = "full",
        seed: int = 0,
        round_id: str | int | None = None,
    ) -> dict[str, Any] | None:
        self.calls.append((list(turns), level, seed))
        self.rounds.append(round_id)
        answered = sum(1 for turn in turns if turn.get("source") == "probe")
        return dict(self.items[answered]) if answered < len(self.items) else None


def scripted(
    monkeypatch: pytest.MonkeyPatch,
    items: list[dict[str, Any]] = ITEMS,
    *,
    ask: bool | None = None,
) -> Script:
    """Replace probe_next for the warm-up by a script of `items` (and the "why?" rule: `ask`)."""
    script = Script(items)
    monkeypatch.setattr("lessons.warmup.items.probe_next", script)
    if ask is not None:
        monkeypatch.setattr("lessons.warmup.services.reason_asked", lambda *a, **kw: ask)
    return script
