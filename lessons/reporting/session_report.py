"""One lesson: who played, how each student did, which misconceptions and wrong plays showed."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count
from django.utils import timezone

from lessons.classrooms.names import name_key
from lessons.diagnosis import (
    RULE_IDS,
    RULES_BY_ID,
    STATUS_HELD,
    STATUS_LIKELY,
    STATUS_RESOLVED,
    Rule,
)
from lessons.evidence.evidence import Tally, evidence_by_student, no_evidence, total
from lessons.evidence.loading import (
    WINDOW_DAYS,
    Row,
    session_rows,
    statuses_then_and_now,
    students_rows_between,
)
from lessons.models import ClassSession, MissedEquivalence, SessionMember, Student
from lessons.reporting.class_report import WrongPlay, wrong_plays
from lessons.reporting.student_report import play_minutes


@dataclass
class SessionLine:
    """One student in the lesson."""

    student: Student
    correct: int = 0  # claims right at the first try (lessons.evidence.evidence)
    claims: int = 0  # one per turn
    tries: int = 0  # every card tried
    wrong_run: int = 0
    missed: int = 0
    tags: Counter[str] = field(default_factory=Counter)
    minutes: float | None = None  # time at a table while playing (student_report.play_minutes)

    @property
    def accuracy(self) -> float | None:
        """Return the share of right claims."""
        return self.correct / self.claims if self.claims else None


@dataclass(frozen=True)
class Change:
    """A rule whose status one student's lesson changed: before it, and at its end."""

    student: Student
    rule: str
    before: str
    after: str


# What a teacher acts on: a rule becoming likely, or a likely one checked clean again.
NEWS = (STATUS_LIKELY, STATUS_RESOLVED, STATUS_HELD)


@dataclass
class SessionReport:
    """Everything the session page shows."""

    session: ClassSession
    lines: list[SessionLine]
    tag_counts: list[tuple[Rule, int, int]]  # rule, events, students
    wrong_plays: list[WrongPlay]
    correct: int
    claims: int
    tries: int = 0
    changes: list[Change] = field(default_factory=list)

    @property
    def accuracy(self) -> float | None:
        """Return the share of right claims in the lesson."""
        return self.correct / self.claims if self.claims else None


def session_changes(session: ClassSession, students: list[Student]) -> list[Change]:
    """Return what the lesson changed: each student's statuses before it and at its end.

    Both read the diagnosis over the evidence window (WINDOW_DAYS) up to the lesson's end, so
    "after" is what the dashboards said when the lesson ended (one query).
    """
    if not students:
        return []
    until = session.ended_at or timezone.now()
    rows = students_rows_between(
        [s.pk for s in students], until - timedelta(days=WINDOW_DAYS), until
    )
    grouped: dict[int, list[Row]] = {}
    for row in rows:
        grouped.setdefault(row.student_id, []).append(row)
    changes = []
    for student in students:
        own = grouped.get(student.pk, [])
        cut = sum(1 for row in own if row.created_at < session.started_at)
        if cut == len(own):
            continue  # nothing in the lesson: nothing it changed
        before, after = statuses_then_and_now(own, cut)
        for rule in RULE_IDS:
            now = after[rule].status
            if now != before[rule] and (now in NEWS or before[rule] == STATUS_LIKELY):
                changes.append(Change(student, rule, before[rule], now))
    return changes


def session_report(session: ClassSession) -> SessionReport:
    """Build the session page (four queries)."""
    rows = session_rows(session.pk)
    grouped = evidence_by_student(rows)
    members = {
        m.student_id: m.student
        for m in SessionMember.objects.filter(session=session).select_related("student")
    }
    missed = dict(
        MissedEquivalence.objects.filter(session=session)
        .values_list("student_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    # Someone who only drew (a missed equivalence) or played without a member row still counts.
    missing = (set(grouped) | set(missed)) - set(members)
    if missing:
        members.update({s.pk: s for s in Student.objects.filter(pk__in=missing)})
    lines = []
    events: Counter[str] = Counter()
    students_per_tag: dict[str, set[int]] = {}
    tallies: list[Tally] = []
    for student_id, student in members.items():
        evidence = grouped.get(student_id) or no_evidence(student_id)
        tally = evidence.tally
        tallies.append(tally)
        # Runs and mistakes read the claims (the first try of each turn), as the diagnosis does.
        tags: Counter[str] = Counter(rule for rules in evidence.fits for rule in rules)
        for tag, count in tags.items():
            events[tag] += count
            students_per_tag.setdefault(tag, set()).add(student_id)
        lines.append(
            SessionLine(
                student=student,
                correct=tally.right,
                claims=tally.claims,
                tries=tally.tries,
                wrong_run=evidence.wrong_run,
                missed=missed.get(student_id, 0),
                tags=tags,
                minutes=play_minutes(evidence.rows) if evidence.rows else None,
            )
        )
    lines.sort(key=lambda line: (name_key(line.student.display_name), line.student.pk))
    whole = total(tallies)
    claims = [claim for evidence in grouped.values() for claim in evidence.claims]
    return SessionReport(
        session=session,
        lines=lines,
        tag_counts=[
            (RULES_BY_ID[rule], events[rule], len(students_per_tag[rule]))
            for rule in RULE_IDS
            if events[rule]
        ],
        wrong_plays=wrong_plays(claims),
        correct=whole.right,
        claims=whole.claims,
        tries=whole.tries,
        changes=session_changes(session, [line.student for line in lines]),
    )
