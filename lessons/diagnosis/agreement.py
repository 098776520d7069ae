"""How often the students' own reasons and the rule tags agree, per rule (Cohen's kappa).

The research digest asks for this check: on every wrong "equal" claim the student explained,
two raters say whether the claim shows a rule: the tags (the card fits it) and the student
(the reason names it). Cohen's kappa is their agreement beyond what chance agreement would
give (1: always agree; 0: no better than chance; below 0: worse). Below
KAPPA_MIN_ANSWERS answers the figure is too unsteady to show.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Final

from .reasons import REASONS

__all__ = ["KAPPA_MIN_ANSWERS", "REASON_RULES", "Agreement", "cohen_kappa", "reason_agreement"]

KAPPA_MIN_ANSWERS: Final = 20
# The rules a reason can name, in REASONS order.
REASON_RULES: Final[tuple[str, ...]] = tuple(rule for rule in REASONS.values() if rule is not None)


@dataclass(frozen=True)
class Agreement:
    """One rule: answers read, both say yes, tags only, reason only, both say no; kappa."""

    rule: str
    n: int
    both: int
    tags_only: int
    reason_only: int
    neither: int

    @property
    def enough(self) -> bool:
        """Tell whether there are enough answers to show kappa."""
        return self.n >= KAPPA_MIN_ANSWERS

    @property
    def kappa(self) -> float | None:
        """Return Cohen's kappa, or None when it is undefined (no answers, or one class only)."""
        return cohen_kappa(self.both, self.tags_only, self.reason_only, self.neither)


def cohen_kappa(both: int, first_only: int, second_only: int, neither: int) -> float | None:
    """Return Cohen's kappa of two yes/no raters from their 2x2 table (None if undefined)."""
    n = both + first_only + second_only + neither
    if n == 0:
        return None
    observed = (both + neither) / n
    first_yes, second_yes = (both + first_only) / n, (both + second_only) / n
    expected = first_yes * second_yes + (1 - first_yes) * (1 - second_yes)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1 - expected)


def reason_agreement(answers: Iterable[tuple[Collection[str], str]]) -> dict[str, Agreement]:
    """Return each reason rule's agreement from (tags of a wrong "equal" claim, reason code).

    Every answer counts for every rule ("I guessed" says no rule fits it).
    """
    counts = {rule: [0, 0, 0, 0] for rule in REASON_RULES}
    for tags, reason in answers:
        if reason not in REASONS:
            raise ValueError(f"unknown reason {reason!r}")
        named = REASONS[reason]
        for rule, cell in counts.items():
            tagged, said = rule in tags, named == rule
            cell[0 if tagged and said else 1 if tagged else 2 if said else 3] += 1
    return {rule: Agreement(rule, sum(cell), *cell) for rule, cell in counts.items()}
