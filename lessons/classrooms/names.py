"""Sort people's names as a French (or English) reader expects: accents do not send Léa last.

Python compares code points, so "Léa" came after "Lucas" and "Éloïse" after "Zoé". The key
compares names without accents and case first (NFKD, combining marks dropped, casefold), then
breaks ties accented-after-plain and lower-before-upper, as French dictionaries do, then by the
name itself, so the order is total. Not a full collation (PyICU is heavy for a name list): it
covers Latin names with accents, ligatures by NFKD ("ﬁ"), and keeps other scripts in code-point
order after the Latin letters of the same base.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Protocol, TypeVar


def _base(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def name_key(name: str) -> tuple[str, str, str, str]:
    """Return the sort key of a name: without accents and case, then accents, then case."""
    folded = unicodedata.normalize("NFKD", name).casefold()
    return (_base(name), folded, name.swapcase(), name)


class Named(Protocol):
    """Anything with a display name (a student, a seat's row)."""

    @property
    def display_name(self) -> str: ...


N = TypeVar("N", bound=Named)


def by_name(people: Iterable[N]) -> list[N]:
    """Return the people sorted by display name (name_key), then by id for equal names."""
    return sorted(people, key=lambda p: (name_key(p.display_name), getattr(p, "pk", 0) or 0))
