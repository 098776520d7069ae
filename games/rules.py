"""Small facts about cards that the web layer needs (the engine decides the rest).

Seat limits are the engine's (``games.engine.options.PLAYER_LIMITS``, re-exported here for
older imports) and fractions are parsed by ``games.engine.fractions.parse_fraction``.
"""

from __future__ import annotations

from typing import Any

from games.engine.options import PLAYER_LIMITS

__all__ = ["PLAYER_LIMITS", "is_fraction_card"]


def is_fraction_card(code: Any) -> bool:
    """Tell whether a card code is a fraction card, such as `3/6r`."""
    return isinstance(code, str) and "/" in code
