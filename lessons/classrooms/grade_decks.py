"""Which Uno Fractions deck suits a class's grade (the default of its session and practice forms).

French primary grades first (the product is French first), then the English "Year n" and
"Grade n". The gentler decks for the younger: CE1 to CM1 meet halves, thirds and sixths;
CM2 twelfths; from 6e the full deck. An unknown grade keeps the full deck.
"""

from __future__ import annotations

import re
from typing import Final

FULL_DECK: Final = "full"
_FRENCH: Final = {
    "cp": "sixths",
    "ce1": "sixths",
    "ce2": "sixths",
    "cm1": "sixths",
    "cm2": "twelfths",
}
# The first grade in the text decides ("CM1-CM2": a double-level class starts with the younger).
_GRADE = re.compile(r"(cp|ce1|ce2|cm1|cm2)|([3-6])\s*(?:e|è|ème|eme)\b|(year|grade)\s*(\d+)", re.I)
# English years and US grades: the deck for each (Year 5 and Grade 4 are about CM1's age).
_YEARS: Final = {"year": {3: "sixths", 4: "sixths", 5: "sixths", 6: "twelfths"}}
_YEARS["grade"] = {2: "sixths", 3: "sixths", 4: "sixths", 5: "twelfths"}
_FIRST_FULL: Final = {"year": 7, "grade": 6}


def deck_for_grade(grade: str) -> str:
    """Return the deck level for a class's grade text ("CM1", "6e", "Year 5"…)."""
    found = _GRADE.search(grade or "")
    if found is None:
        return FULL_DECK
    french, college, scheme, number = found.groups()
    if french:
        return _FRENCH[french.lower()]
    if college:
        return FULL_DECK
    scheme, year = scheme.lower(), int(number)
    if year >= _FIRST_FULL[scheme]:
        return FULL_DECK
    return _YEARS[scheme].get(year, "sixths")
