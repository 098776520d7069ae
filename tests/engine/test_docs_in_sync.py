"""docs/engine.md names every option, error code and event type the engine has."""

from __future__ import annotations

import re
from pathlib import Path

from games.engine.errors import MESSAGES
from games.engine.options import DEFAULTS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text(encoding="utf-8")
ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def test_every_option_is_documented() -> None:
    for defaults in DEFAULTS.values():
        for key in defaults:
            assert f"`{key}`" in DOC, key


def test_every_error_code_is_documented() -> None:
    for code in MESSAGES:
        assert f"`{code}`" in DOC, code


def test_every_event_type_is_documented() -> None:
    found: set[str] = set()
    for name in ("game.py", "deal.py", "scoring.py"):
        found |= set(re.findall(r'"type": "([a-z_]+)"', (ENGINE / name).read_text()))
    actions = {"play", "draw", "pass", "uno", "catch", "challenge", "accept", "quickos"}
    for event in found - actions | {"uno", "quickos"}:
        assert f"| `{event}` |" in DOC, event
