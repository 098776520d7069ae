"""What every server frame must look like, whatever the client sent."""

from __future__ import annotations

import json
from typing import Any

from games.engine import Game

LEAK_MARKERS = ("Traceback", 'File "', "Exception", "django.", "/site-packages/", "Error:")
# Error codes after which the server also sends a fresh state.
RESYNC_CODES = frozenset({"stale_state", "not_equivalent", "wrong_denominator"})
DECK_SIZE = {"fractions": 116, "classic": 108, "family_quick": 68}


def check_server_frame(raw: str) -> dict[str, Any]:
    """Parse a server frame and assert it is a clean protocol frame without a stack trace."""
    for marker in LEAK_MARKERS:
        assert marker not in raw, f"server frame leaks {marker!r}: {raw[:300]}"
    frame: dict[str, Any] = json.loads(raw)
    assert frame["type"] in {"state", "event", "error"}, frame
    for item in frame.get("events", []) if frame["type"] == "state" else []:
        assert isinstance(item["event"], dict) and isinstance(item["text"], str), item
    if frame["type"] == "error":
        assert isinstance(frame["code"], str) and frame["code"], frame
        assert isinstance(frame["message"], str) and frame["message"].strip(), frame
        assert isinstance(frame["details"], dict), frame
    return frame


def check_game(state: dict[str, Any], ruleset: str = "fractions") -> None:
    """Assert the stored game loads and conserves its cards."""
    view = Game.from_dict(state).view(None)
    total = sum(view["hand_sizes"]) + view["draw_pile_size"] + view["discard_size"]
    assert total == DECK_SIZE[ruleset]
