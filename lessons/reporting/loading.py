"""Load attempt rows for reports in as few queries as possible, and turn them into evidence.

Statuses and skill states read a recent slice of the log, the *evidence window*: the
WINDOW_DAYS days up to the classroom's latest attempt (so a class back from holidays still
sees its last lessons). A year of plays would otherwise dilute what a student does now, and
the window keeps every dashboard query bounded by an index range.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Any, Final

from django.db import connections
from django.db.models import F, Max, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from games.engine.fractions import FractionValue
from lessons.diagnosis import (
    SKILL_IDS,
    Opportunity,
    RuleEvidence,
    SkillProgress,
    skill_progress,
    skill_tags,
)
from lessons.models import Attempt, Classroom
from lessons.reporting.rule_evidence import student_evidence_fast

WINDOW_DAYS: Final = 28
WRONG: Final = Attempt.Outcome.WRONG.value

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
JSON_FIELDS: Final = EVIDENCE_FIELDS[12:]
# The JSON columns come back as text and are decoded through a cache: the same few hundred
# tag lists and chance-rate maps repeat across thousands of attempts, and Django's per-row
# JSON converter was the largest cost of the class dashboard.
_RAW_JSON: Final = {f"{name}_raw": Cast(F(name), TextField()) for name in JSON_FIELDS}


@lru_cache(maxsize=1 << 14)
def _decoded(text: str | None) -> Any:
    return json.loads(text) if text else None


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


@dataclass(slots=True)
class Row:
    """One attempt as reports read it (tags, p0 and opportunities only on full rows)."""

    student_id: int
    session_id: int | None
    table_id: int | None
    created_at: datetime
    reference: FractionValue | None
    named_denominator: int | None
    played: FractionValue
    claim: str
    outcome: str
    response_ms: int | None
    day: date  # the local day of the attempt
    correct: bool  # whether the claim was right
    tags: tuple[str, ...] = ()
    p0: dict[str, float] | None = None
    opportunities: frozenset[str] = frozenset()

    @property
    def reference_key(self) -> FractionValue:
        """Return the top card for counting distinct ones; (0, d) after a named denominator."""
        return self.reference or (0, self.named_denominator or 0)

    @property
    def skills(self) -> tuple[str, ...]:
        """Return the skills this claim exercised."""
        return skills_of(self.reference, self.played, self.claim)


@lru_cache(maxsize=4096)
def skills_of(
    reference: FractionValue | None, played: FractionValue, claim: str
) -> tuple[str, ...]:
    """Return the skills of a claim.

    After a named denominator there is no reference fraction: the card against itself has
    the named denominator, so a "denominator" claim exercises S1 (and S6 for a card worth 1
    or more); an "equal" claim exercises nothing.
    """
    if reference is None:
        return tuple(skill_tags(played, played)) if claim == Attempt.Claim.DENOMINATOR else ()
    return tuple(skill_tags(reference, played))


def _row(values: Sequence[Any], zone: tzinfo) -> Row:
    (student, session, table, created, rn, rd, named, pn, pd, claim, outcome, rt) = values[:12]
    if created.tzinfo is None:
        # SQLite gives back the stored UTC time without its zone (Django's converter, skipped
        # here, would add it).
        created = created.replace(tzinfo=UTC)
    full = len(values) > 12
    return Row(
        student,
        session,
        table,
        created,
        (rn, rd) if rn is not None and rd is not None else None,
        named,
        (pn, pd),
        claim,
        outcome,
        rt,
        created.astimezone(zone).date(),
        outcome != WRONG,
        _tags(values[12]) if full else (),
        (_decoded(values[13]) or {}) if full else None,
        _opportunities(values[14]) if full else frozenset(),
    )


@lru_cache(maxsize=1 << 12)
def _tags(text: str | None) -> tuple[str, ...]:
    return tuple(_decoded(text) or ())


@lru_cache(maxsize=1 << 14)
def _opportunities(text: str | None) -> frozenset[str]:
    return frozenset(_decoded(text) or ())


def _rows(query: Any) -> list[Row]:
    """Run a values_list query without Django's per-value converters and build rows.

    On a class's window (thousands of rows) the converters and the per-row time zone lookup
    cost more than the query itself.
    """
    sql, params = query.query.get_compiler(using=query.db).as_sql()
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    zone = timezone.get_current_timezone()
    return [_row(values, zone) for values in fetched]


def _values(query: Any, full: bool) -> Any:
    """Select the row columns; the JSON ones as text (decoded by _row through a cache)."""
    if not full:
        return query.values_list(*LIGHT_FIELDS)
    return query.annotate(**_RAW_JSON).values_list(*LIGHT_FIELDS, *_RAW_JSON)


def evidence_window(classroom: Classroom) -> Window:
    """Return the classroom's evidence window (one indexed query)."""
    latest = Attempt.objects.filter(classroom=classroom).aggregate(latest=Max("created_at"))[
        "latest"
    ]
    if latest is None:
        return Window(None, None)
    return Window(latest - timedelta(days=WINDOW_DAYS), latest)


def class_rows(classroom: Classroom, window: Window) -> list[Row]:
    """Return the window's attempts of a class with their evidence, oldest first."""
    if window.empty:
        return []
    # Time order follows the (classroom, created_at) index: no sort; by_student() keeps it.
    query = Attempt.objects.filter(classroom=classroom, created_at__gte=window.start).order_by(
        "created_at", "id"
    )
    return _rows(_values(query, True))


def student_rows(student_id: int, *, since: datetime | None = None, full: bool = True) -> list[Row]:
    """Return one student's attempts, oldest first (since a time; light rows skip the JSON)."""
    query = Attempt.objects.filter(student_id=student_id)
    if since is not None:
        query = query.filter(created_at__gte=since)
    return _rows(_values(query.order_by("created_at", "id"), full))


def session_rows(session_id: int) -> list[Row]:
    """Return a session's attempts with their evidence, per student, oldest first."""
    query = Attempt.objects.filter(session_id=session_id).order_by("student_id", "created_at", "id")
    return _rows(_values(query, True))


def by_student(rows: Iterable[Row]) -> dict[int, list[Row]]:
    """Group rows by student, keeping their order."""
    grouped: dict[int, list[Row]] = {}
    for row in rows:
        grouped.setdefault(row.student_id, []).append(row)
    return grouped


def evidence_of(rows: Sequence[Row]) -> dict[str, RuleEvidence]:
    """Return every rule's evidence for one student's rows (oldest first)."""
    return student_evidence_fast(rows, reference=_reference_key)


def _reference_key(row: Row) -> FractionValue:
    return row.reference_key


def skills_from(rows: Iterable[Row]) -> dict[str, SkillProgress]:
    """Return every skill's progress for one student's rows (oldest first).

    Same result as lessons.diagnosis.progress_by_skill, with each pair's skills cached.
    """
    per_skill: dict[str, list[Opportunity]] = {skill: [] for skill in SKILL_IDS}
    # Opportunities are immutable and few differ (right or not, per session and day): share them.
    shared: dict[tuple[bool, int | None, date], Opportunity] = {}
    for row in rows:
        skills = row.skills
        if skills:
            key = (row.correct, row.session_id, row.day)
            opportunity = shared.get(key)
            if opportunity is None:
                opportunity = shared[key] = Opportunity(*key)
            for skill in skills:
                per_skill[skill].append(opportunity)
    return {skill: skill_progress(per_skill[skill]) for skill in SKILL_IDS}


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
