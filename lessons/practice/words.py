"""What the student's home says to practise next, in words a child understands (fr/en).

One short tip per family of mistakes, never a misconception's code or name: the rulebook's
family notes speak about the child to grown-ups, these speak to the child.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# Rules grouped by what the child should look at; a rule outside every family gets GENERAL.
FAMILIES: Final[dict[str, tuple[str, ...]]] = {
    "same_number": ("M1", "M2a", "M3a", "M4", "M5"),
    "top_and_bottom": ("M2", "M3"),
    "whole": ("M6", "M7"),
    "more_than_one": ("M8", "M9", "M10"),
}
TIPS: Final[dict[str, Promise]] = {
    "same_number": _(
        "To make an equal fraction, multiply the top and the bottom by the same number: "
        "1/2 = 2/4. Adding the same number does not work: 1/2 and 2/3 are not equal."
    ),
    "top_and_bottom": _(
        "Look at the top and the bottom together. The bottom number tells the size of the "
        "pieces, the top how many you take: 1/3 and 1/6 are not equal, 5/12 and 9/12 neither."
    ),
    "whole": _(
        "The bottom number counts all the pieces of the whole. 1/3 is 1 piece out of 3, "
        "and the part that is left over is not the same part."
    ),
    "more_than_one": _(
        "Some fractions are more than one whole, like 3/2. Before saying two fractions are "
        "equal, check whether each one is more or less than 1."
    ),
}
GENERAL: Final = _(
    "Look for equal fractions, like 1/2 and 2/4: the same size, written another way."
)
# The deck level that can show each family (the practice form's default is the full deck).
DECKS: Final[dict[str, str]] = {"more_than_one": "improper"}


@dataclass(frozen=True)
class NextPractice:
    """What the home tells the student to practise, and the deck level to practise it with."""

    tip: Promise
    deck: str | None = None
    # Whether the diagnosis points at something (a likely or emerging rule).
    aimed: bool = False


def next_practice(rule: str | None) -> NextPractice:
    """Return the tip for the rule the student should practise (None: the general tip)."""
    if rule is None:
        return NextPractice(GENERAL)
    for family, rules in FAMILIES.items():
        if rule in rules:
            return NextPractice(TIPS[family], DECKS.get(family), aimed=True)
    return NextPractice(GENERAL)
