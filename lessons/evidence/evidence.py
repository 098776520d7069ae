"""One pupil's evidence, read once, the one way every page counts it.

The live overview, the session page, the class dashboard, the pupil page and its PDF all build
their figures from PupilEvidence, so the same games give the same numbers, in the same words:

- an **essai** (try): a card the pupil put down, a refused one tried again included;
- a **tour** (turn): a turn of the pupil's in which they put a card down;
- an **annonce** (claim): the first try of a turn, the one the diagnosis reads as evidence
  (lessons.diagnosis.first_claim_indices). One turn gives one claim, so a card refused and
  tried again, then a right one, is one claim, wrong.

**Justes** (accuracy) is the share of claims that were right at the first try: a turn of two
refused tries then a right card is 0 right of 1 claim, as the diagnosis counts it. Warm-up
answers (lessons.warmup) are no game's turn: they are rows of the evidence (the diagnosis
reads them), never claims.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from lessons.diagnosis import SkillProgress
from lessons.evidence.loading import (
    Row,
    RuleStatus,
    by_student,
    evidence_window,
    longest_wrong_run,
    skills_from,
    statuses_of,
    student_rows,
    turns_of,
)
from lessons.evidence.reading import first_claims, fitting_rules
from lessons.models import Student

# The words of what is counted, the same on every page (French first: "essais", "tours",
# "annonces").
TRIES_WORD = pgettext_lazy("what is counted", "tries")
TURNS_WORD = pgettext_lazy("what is counted", "turns")
CLAIMS_WORD = pgettext_lazy("what is counted", "claims")
RIGHT_WORD = pgettext_lazy("what is counted", "right at the first try")
# The one definition of accuracy, said under every figure of it.
ACCURACY_WORDS = _(
    "Right: the claims whose card was right at the first try. One claim per turn: a card "
    "refused and tried again in the same turn is one more try, not one more claim."
)


@dataclass(frozen=True, slots=True)
class Tally:
    """What every page counts: claims (one per turn), the right ones, and every try."""

    claims: int = 0
    right: int = 0
    tries: int = 0

    @property
    def wrong(self) -> int:
        """Return the claims that were wrong."""
        return self.claims - self.right

    @property
    def turns(self) -> int:
        """Return the turns with a card put down: one claim each."""
        return self.claims

    @property
    def share(self) -> float | None:
        """Return the share of right claims, or None without a claim."""
        return self.right / self.claims if self.claims else None

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.claims + other.claims, self.right + other.right, self.tries + other.tries)


def tally_of(claims: Iterable[Row], tries: int) -> Tally:
    """Count claims and their right ones (`tries`: the game's tries they came from)."""
    right = total = 0
    for claim in claims:
        total += 1
        right += claim.correct
    return Tally(total, right, tries)


def total(tallies: Iterable[Tally]) -> Tally:
    """Return the sum of several pupils' tallies."""
    out = Tally()
    for one in tallies:
        out = out + one
    return out


@dataclass(frozen=True)
class PupilEvidence:
    """One pupil's rows (oldest first), their claims and what pages compute from them, once."""

    student_id: int
    rows: tuple[Row, ...]

    @cached_property
    def claims(self) -> tuple[Row, ...]:
        """Return the first try of each game turn: the claims."""
        return tuple(first_claims(self.rows))

    @cached_property
    def tries(self) -> tuple[Row, ...]:
        """Return every game try (warm-up answers left out)."""
        return tuple(row for row in self.rows if not row.probe)

    @cached_property
    def tally(self) -> Tally:
        """Return the claims, right claims and tries."""
        return tally_of(self.claims, len(self.tries))

    def tally_where(self, keep: Callable[[Row], bool]) -> Tally:
        """Return the tally of the claims and tries `keep` keeps (a session, a week)."""
        return tally_of(
            (row for row in self.claims if keep(row)), sum(1 for row in self.tries if keep(row))
        )

    def tally_since(self, after: datetime | None, until: datetime | None = None) -> Tally:
        """Return the tally of the claims made after `after` (and up to `until`)."""
        return self.tally_where(
            lambda row: (
                (after is None or row.created_at > after)
                and (until is None or row.created_at <= until)
            )
        )

    @cached_property
    def wrong_run(self) -> int:
        """Return the longest run of wrong claims."""
        return longest_wrong_run(self.claims)

    @cached_property
    def outcomes(self) -> tuple[bool, ...]:
        """Return each claim's outcome, oldest first."""
        return tuple(claim.correct for claim in self.claims)

    @cached_property
    def fits(self) -> tuple[tuple[str, ...], ...]:
        """Return what each wrong claim fits (reading.fitting_rules), oldest first."""
        return tuple(fitting_rules(claim.tags) for claim in self.claims if not claim.correct)

    @cached_property
    def statuses(self) -> dict[str, RuleStatus]:
        """Return diagnose()'s status of every rule over the rows (cached per content)."""
        return statuses_of(self.rows)

    @cached_property
    def skills(self) -> dict[str, SkillProgress]:
        """Return every skill's progress over the rows."""
        return skills_from(self.rows)

    @cached_property
    def turns(self) -> list[dict[str, Any]]:
        """Return the rows as diagnose()'s turns (game turns and warm-up answers), oldest first."""
        return turns_of(self.rows)


def evidence_of(student_id: int, rows: Sequence[Row]) -> PupilEvidence:
    """Return one pupil's evidence from their rows, oldest first."""
    return PupilEvidence(student_id, tuple(rows))


def evidence_by_student(rows: Iterable[Row]) -> dict[int, PupilEvidence]:
    """Return each pupil's evidence from rows of several pupils (each pupil's oldest first)."""
    return {sid: PupilEvidence(sid, tuple(own)) for sid, own in by_student(rows).items()}


def window_evidence(student: Student) -> PupilEvidence:
    """Return a pupil's evidence over their class's evidence window (what every page reads):
    the warm-up's next item and the practice's aim read it too."""
    window = evidence_window(student.classroom)
    rows = student_rows(student.pk, since=window.start) if not window.empty else []
    return PupilEvidence(student.pk, tuple(rows))


def no_evidence(student_id: int) -> PupilEvidence:
    """Return the evidence of a pupil without a row."""
    return PupilEvidence(student_id, ())
