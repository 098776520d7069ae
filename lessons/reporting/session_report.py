"""One lesson: who played, how each student did, which misconceptions and wrong plays showed."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count

from lessons.classrooms.names import name_key
from lessons.diagnosis import RULE_IDS, RULES_BY_ID, Rule
from lessons.models import ClassSession, MissedEquivalence, SessionMember, Student
from lessons.reporting.class_report import WrongPlay, wrong_plays
from lessons.reporting.loading import accuracy, by_student, longest_wrong_run, session_rows
from lessons.reporting.reading import first_claims, fitting_rules
from lessons.reporting.student_report import play_minutes


@dataclass
class SessionLine:
    """One student in the lesson."""

    student: Student
    correct: int = 0
    claims: int = 0
    wrong_run: int = 0
    missed: int = 0
    tags: Counter[str] = field(default_factory=Counter)
    minutes: float | None = None  # time at a table while playing (student_report.play_minutes)

    @property
    def accuracy(self) -> float | None:
        """Return the share of right claims."""
        return self.correct / self.claims if self.claims else None


@dataclass
class SessionReport:
    """Everything the session page shows."""

    session: ClassSession
    lines: list[SessionLine]
    tag_counts: list[tuple[Rule, int, int]]  # rule, events, students
    wrong_plays: list[WrongPlay]
    correct: int
    claims: int

    @property
    def accuracy(self) -> float | None:
        """Return the share of right claims in the lesson."""
        return self.correct / self.claims if self.claims else None


def session_report(session: ClassSession) -> SessionReport:
    """Build the session page (four queries)."""
    rows = session_rows(session.pk)
    grouped = by_student(rows)
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
    for student_id, student in members.items():
        own = grouped.get(student_id, [])
        correct, claims = accuracy(own)
        # Runs and mistakes read the first claim of each turn, as the diagnosis does.
        first = first_claims(own)
        tags: Counter[str] = Counter(
            rule for row in first if not row.correct for rule in fitting_rules(row.tags)
        )
        for tag, count in tags.items():
            events[tag] += count
            students_per_tag.setdefault(tag, set()).add(student_id)
        lines.append(
            SessionLine(
                student=student,
                correct=correct,
                claims=claims,
                wrong_run=longest_wrong_run(first),
                missed=missed.get(student_id, 0),
                tags=tags,
                minutes=play_minutes(own) if own else None,
            )
        )
    lines.sort(key=lambda line: (name_key(line.student.display_name), line.student.pk))
    correct, claims = accuracy(rows)
    return SessionReport(
        session=session,
        lines=lines,
        tag_counts=[
            (RULES_BY_ID[rule], events[rule], len(students_per_tag[rule]))
            for rule in RULE_IDS
            if events[rule]
        ],
        wrong_plays=wrong_plays(rows),
        correct=correct,
        claims=claims,
    )
