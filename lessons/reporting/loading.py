"""Load attempt rows for reports in as few queries as possible, and turn them into evidence.

Statuses and skill states read a recent slice of the log, the *evidence window*: the
WINDOW_DAYS days up to the classroom's latest attempt (so a class back from holidays still
sees its last lessons). A year of plays would otherwise dilute what a student does now, and
the window keeps every dashboard query bounded by an index range.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Final

from django.db.models import Max
from django.utils import timezone

from lessons.diagnosis import (
    AttemptEvidence,
    RuleEvidence,
    SkillProgress,
    progress_by_skill,
    skill_tags,
    student_evidence,
)
from lessons.models import Attempt, Classroom

WINDOW_DAYS: Final = 28
WRONG: Final = Attempt.Outcome.WRONG.value
Card = tuple[int, int]

# Columns of a full evidence row (with the JSON fields) and of a light row (without them).
EVIDENCE_FIELDS: Final = (
    "student_id",
    "session_id",
    "table_id",
    "created_at",
    "reference_num",
    "reference_den",
    "named_denominator",
    "played_num",
    "played_den",
    "claim",
    "outcome",
    "response_ms",
    "tags",
    "p0",
    "opportunities",
)
LIGHT_FIELDS: Final = EVIDENCE_FIELDS[:12]


@dataclass(frozen=True)
class Window:
    """The evidence window: attempts from `start` (inclusive) to `end`."""

    start: datetime | None
    end: datetime | None
    days: int = WINDOW_DAYS

    @property
    def empty(self) -> bool:
        """Tell whether the class has no attempt at all."""
        return self.end is None


@dataclass(frozen=True)
class Row:
    """One attempt as reports read it (tags, p0 and opportunities only on full rows)."""

    student_id: int
    session_id: int | None
    table_id: int | None
    created_at: datetime
    reference: Card | None
    named_denominator: int | None
    played: Card
    claim: str
    outcome: str
    response_ms: int | None
    tags: tuple[str, ...] = ()
    p0: dict[str, float] | None = None
    opportunities: frozenset[str] = frozenset()

    @property
    def correct(self) -> bool:
        """Tell whether the claim was right."""
        return self.outcome != WRONG

    @property
    def day(self) -> date:
        """Return the local day of the attempt."""
        return timezone.localdate(self.created_at)

    @property
    def skills(self) -> tuple[str, ...]:
        """Return the skills this claim exercised."""
        return skills_of(self.reference, self.played, self.claim)

    def evidence(self) -> AttemptEvidence:
        """Return the diagnosis input for this attempt."""
        reference = self.reference or (0, self.named_denominator or 0)
        return AttemptEvidence(
            reference=reference,
            played=self.played,
            claim=self.claim,
            tags=self.tags,
            p0=self.p0 or {},
            opportunities=self.opportunities,
        )


@lru_cache(maxsize=4096)
def skills_of(reference: Card | None, played: Card, claim: str) -> tuple[str, ...]:
    """Return the skills of a claim; a claim on a named denominator exercises S1 only."""
    if reference is None:
        return ("S1",) if claim == Attempt.Claim.DENOMINATOR else ()
    return tuple(skill_tags(reference, played))


def _row(values: Sequence[object]) -> Row:
    (student, session, table, created, rn, rd, named, pn, pd, claim, outcome, rt) = values[:12]
    full = len(values) > 12
    return Row(
        student_id=student,  # type: ignore[arg-type]
        session_id=session,  # type: ignore[arg-type]
        table_id=table,  # type: ignore[arg-type]
        created_at=created,  # type: ignore[arg-type]
        reference=(rn, rd) if rn is not None and rd is not None else None,  # type: ignore[arg-type]
        named_denominator=named,  # type: ignore[arg-type]
        played=(pn, pd),  # type: ignore[arg-type]
        claim=claim,  # type: ignore[arg-type]
        outcome=outcome,  # type: ignore[arg-type]
        response_ms=rt,  # type: ignore[arg-type]
        tags=tuple(values[12] or ()) if full else (),  # type: ignore[arg-type]
        p0=(values[13] or {}) if full else None,  # type: ignore[assignment]
        opportunities=frozenset(values[14] or ()) if full else frozenset(),  # type: ignore[arg-type]
    )


def evidence_window(classroom: Classroom) -> Window:
    """Return the classroom's evidence window (one indexed query)."""
    latest = Attempt.objects.filter(classroom=classroom).aggregate(latest=Max("created_at"))[
        "latest"
    ]
    if latest is None:
        return Window(None, None)
    return Window(latest - timedelta(days=WINDOW_DAYS), latest)


def class_rows(classroom: Classroom, window: Window) -> list[Row]:
    """Return the window's attempts of a class with their evidence, per student, oldest first."""
    if window.empty:
        return []
    query = (
        Attempt.objects.filter(classroom=classroom, created_at__gte=window.start)
        .order_by("student_id", "created_at", "id")
        .values_list(*EVIDENCE_FIELDS)
    )
    return [_row(values) for values in query]


def student_rows(student_id: int, *, since: datetime | None = None, full: bool = True) -> list[Row]:
    """Return one student's attempts, oldest first (since a time; light rows skip the JSON)."""
    query = Attempt.objects.filter(student_id=student_id)
    if since is not None:
        query = query.filter(created_at__gte=since)
    fields = EVIDENCE_FIELDS if full else LIGHT_FIELDS
    return [_row(values) for values in query.order_by("created_at", "id").values_list(*fields)]


def session_rows(session_id: int) -> list[Row]:
    """Return a session's attempts with their evidence, per student, oldest first."""
    query = (
        Attempt.objects.filter(session_id=session_id)
        .order_by("student_id", "created_at", "id")
        .values_list(*EVIDENCE_FIELDS)
    )
    return [_row(values) for values in query]


def by_student(rows: Iterable[Row]) -> dict[int, list[Row]]:
    """Group rows by student, keeping their order."""
    grouped: dict[int, list[Row]] = {}
    for row in rows:
        grouped.setdefault(row.student_id, []).append(row)
    return grouped


def evidence_of(rows: Sequence[Row]) -> dict[str, RuleEvidence]:
    """Return every rule's evidence for one student's rows (oldest first)."""
    return student_evidence(row.evidence() for row in rows)


def skills_from(rows: Iterable[Row]) -> dict[str, SkillProgress]:
    """Return every skill's progress for one student's rows (oldest first)."""
    claims: list[tuple[Card, Card, bool, Hashable, date]] = []
    for row in rows:
        if row.reference is None:
            if row.claim != Attempt.Claim.DENOMINATOR:
                continue
            # The card against itself has the named denominator: it exercises S1 (and S6
            # only when the card is worth 1 or more).
            reference: Card = row.played
        else:
            reference = row.reference
        claims.append((reference, row.played, row.correct, row.session_id, row.day))
    return progress_by_skill(claims)


def accuracy(rows: Iterable[Row]) -> tuple[int, int]:
    """Return (correct, claims)."""
    correct = total = 0
    for row in rows:
        total += 1
        correct += row.correct
    return correct, total


def longest_wrong_run(rows: Iterable[Row]) -> int:
    """Return the longest run of consecutive wrong claims."""
    best = run = 0
    for row in rows:
        run = 0 if row.correct else run + 1
        best = max(best, run)
    return best
