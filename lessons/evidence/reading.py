"""Read one student's evidence the one way every page reads it.

The class dashboard, the student page, the family report, the session page and the live
overview all call these, so they count the same plays and name the same needs:

- **first claims**: only the first claim of a turn is evidence (diagnose()'s rule: a card
  refused and tried again in the same turn is a probe, not a second wrong play); right and
  wrong counts, runs of wrong plays and repeated mistakes read these;
- **needs**: a misconception diagnose() calls "likely", or, without one, **low accuracy**:
  fewer than LOW_ACCURACY_BELOW of at least LOW_ACCURACY_MIN_CLAIMS first claims right in the
  evidence window. That is a figure, not a diagnosis: the words give the count it rests on
  and never name a cause;
- **what one wrong play fits**: the specific rules, never the M0 umbrella or U ("no rule
  fits"), a sub-rule rather than its parent; several of them are "one of" these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from lessons.diagnosis import (
    RULE_IDS,
    RULES_BY_ID,
    SKILL_CUTOFFS,
    STATUS_LIKELY,
    first_claim_indices,
)
from lessons.evidence.loading import Row, RuleStatus, accuracy, attempt_records

# The skills' "familiar" mark (lessons.diagnosis.SKILL_CUTOFFS): below it a child's plays are
# not yet familiar with equal fractions, whichever mistake (if any one) they make.
LOW_ACCURACY_BELOW: Final = SKILL_CUTOFFS["familiar_min_accuracy"]
# Under 10 claims one unlucky game would decide: no need is named on fewer.
LOW_ACCURACY_MIN_CLAIMS: Final = 10
# Tags that describe no mistake a child could be taught out of (the umbrella, none fits).
NOT_A_CHILD_MISTAKE: Final = frozenset({"M0", "U"})


def first_claims(rows: Sequence[Row]) -> list[Row]:
    """Return the first claim of each turn (one student's rows, oldest first)."""
    return [rows[i] for i in first_claim_indices(attempt_records(rows))]


@dataclass(frozen=True)
class LowAccuracy:
    """A need without a named misconception: few first claims right, with the figures."""

    right: int
    claims: int

    @property
    def share(self) -> float:
        """Return the share of right first claims."""
        return self.right / self.claims


def low_accuracy(first: Iterable[Row], statuses: Mapping[str, RuleStatus]) -> LowAccuracy | None:
    """Return the low-accuracy need of a student without a likely misconception, or None.

    `first` are the student's first claims in the evidence window, `statuses` diagnose()'s
    over the same rows: a child with a likely misconception is named for it instead.
    """
    right, claims = accuracy(first)
    if claims < LOW_ACCURACY_MIN_CLAIMS or right >= LOW_ACCURACY_BELOW * claims:
        return None
    if any(status.status == STATUS_LIKELY for status in statuses.values()):
        return None
    return LowAccuracy(right, claims)


def fitting_rules(tags: Iterable[str]) -> tuple[str, ...]:
    """Return the rules one wrong play fits that can name a child's mistake (RULE_IDS order).

    Without M0 and U, and without a rule whose part (M2a of M2) fits too: it says more.
    """
    fits = {tag for tag in tags if tag in RULES_BY_ID and tag not in NOT_A_CHILD_MISTAKE}
    parts = {RULES_BY_ID[tag].part_of for tag in fits}
    return tuple(rule for rule in RULE_IDS if rule in fits and rule not in parts)
