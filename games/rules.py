"""Small facts about cards and rulesets that the web layer needs (the engine decides the rest)."""

from __future__ import annotations

from typing import Any

# Rulesets a student can pick for practice, with their seat limits.
PLAYER_LIMITS = {"fractions": (2, 5), "classic": (2, 10), "family_quick": (2, 10)}


def is_fraction_card(code: Any) -> bool:
    """Tell whether a card code is a fraction card, such as `3/6r`."""
    return isinstance(code, str) and "/" in code


def parse_fraction(code: str) -> tuple[int, int]:
    """Split a fraction card code (`3/6r`) or a plain fraction (`3/6`) into its two numbers."""
    numerator, _, rest = code.partition("/")
    digits = "".join(ch for ch in rest if ch.isdigit())
    return int(numerator), int(digits)
