"""Fraction values: the one parser of fraction text, and the one name for a parsed fraction.

A *card code* (``3/6r``) names a card; a *fraction value* is the pair of numbers printed on it,
``(3, 6)``. Everything that reasons about fractions (explanations, diagnosis, reports) works on
fraction values and gets them from ``parse_fraction``.
"""

from __future__ import annotations

import re
from typing import Final, TypeGuard

from .cards import COLOURS

FractionValue = tuple[int, int]
"""A fraction as printed on a card: (numerator, denominator), both positive, not reduced."""

FractionLike = str | FractionValue
"""What ``parse_fraction`` accepts: a fraction card code, a plain fraction, or a parsed pair."""

# ASCII digits only: int() would also take "+3", "3_0" or Arabic-Indic digits.
_TEXT: Final = re.compile(rf"\s*(\d+)\s*/\s*(\d+)[{COLOURS}]?\s*", re.ASCII)


def parse_fraction(value: FractionLike) -> FractionValue:
    """Return (numerator, denominator) of a fraction; raise ValueError on anything else.

    Accepted: a fraction card code (``"3/6r"``: the colour letter, one of r j v b, is
    dropped), a plain fraction (``"3/6"``, as the view's ``reference``), or an already parsed
    pair (``(3, 6)``, returned as it is). Both numbers must be positive integers. Spaces around
    the numbers are tolerated; anything else (``"3/6x"``, ``"3"``, ``"1/0"``, ``"-1/3"``,
    ``(1, 2, 3)``, ``(True, 2)``, ``None``) raises ValueError.
    """
    if isinstance(value, str):
        match = _TEXT.fullmatch(value)
        if match is None:
            raise ValueError(f"not a fraction: {value!r} (expected 'a/b' or a card code 'a/bc')")
        pair = (int(match[1]), int(match[2]))
    elif isinstance(value, tuple) and len(value) == 2:
        pair = value
    else:
        raise ValueError(f"not a fraction: {value!r} (expected 'a/b' or (a, b))")
    for part in pair:
        # bool is an int subclass; True/False are never card numbers.
        if isinstance(part, bool) or not isinstance(part, int) or part <= 0:
            raise ValueError(f"not a fraction: {value!r} (parts must be positive integers)")
    return pair[0], pair[1]


def format_fraction(fraction: FractionValue) -> str:
    """Return "a/b" for (a, b)."""
    return f"{fraction[0]}/{fraction[1]}"


def is_fraction_card(code: object) -> TypeGuard[str]:
    """Tell whether a card code is a fraction card, such as ``3/6r`` (not a joker or +4)."""
    return isinstance(code, str) and "/" in code
