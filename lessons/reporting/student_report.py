"""One student's page and progress report: skill ladder, accuracy, misconceptions, time played.

Skill states (and the days they were reached), claims and accuracy and misconception statuses
read the class's evidence window, as the class dashboard does (lessons.evidence.evidence:
one PupilEvidence), so the student page, the family report and the class dashboard always
agree; only the time played, the sessions list and the last claims' strip read the whole
history (light rows, without the JSON fields). A family report names a misconception only when it is
"likely" (beyond chance at the stated error rate), and "fixed" only when diagnose() says
"resolved" (a rule that was likely, then a clean re-check in a later warm-up) or "held" (a
second clean re-check a week later or more), each with words.check_words: the days and figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Final

from games.engine.fractions import FractionValue
from lessons.diagnosis import (
    RULE_IDS,
    RULES_BY_ID,
    SKILL_IDS,
    SKILLS,
    STATUS_HELD,
    STATUS_LIKELY,
    STATUS_NONE,
    STATUS_NOT_POSSIBLE,
    STATUS_RESOLVED,
    UMBRELLA_MEMBERS,
    Rule,
    Skill,
    SkillProgress,
    m1_readings,
)
from lessons.evidence.evidence import evidence_of
from lessons.evidence.loading import (
    SOURCE_BOTH,
    Row,
    RuleStatus,
    Window,
    evidence_window,
    student_rows,
)
from lessons.evidence.reading import LowAccuracy, low_accuracy
from lessons.models import MissedEquivalence, Student

SPARK_CLAIMS: Final = 20
OWN_EXAMPLES: Final = 2
REPORT_FOCUS: Final = 2
MISSED_SHOWN: Final = 5
# A session's play time is its first to last play, plus this for the thinking before the first.
SESSION_LEAD_IN: Final = timedelta(minutes=1)


@dataclass(frozen=True)
class Example:
    """One of the student's own wrong plays for a rule (with both M1 readings for M1)."""

    reference: FractionValue
    played: FractionValue
    readings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Finding:
    """One misconception for this student: the evidence and the student's own pairs."""

    rule: Rule
    evidence: RuleStatus
    examples: tuple[Example, ...]


@dataclass(frozen=True)
class SkillStep:
    """One skill of the ladder: its state, the figures behind it, when each state was reached."""

    skill: Skill
    progress: SkillProgress


@dataclass(frozen=True)
class SessionSummary:
    """One session (or practice) of the student: when, claims, accuracy, minutes played."""

    session_id: int | None
    day: date
    correct: int
    claims: int
    minutes: float

    @property
    def accuracy(self) -> float | None:
        """Return the share of right claims."""
        return self.correct / self.claims if self.claims else None


@dataclass
class StudentReport:
    """Everything the student page and the progress report show."""

    student: Student
    window: Window
    ladder: list[SkillStep]
    last_claims: list[bool]
    correct: int
    claims: int
    findings: list[Finding]
    focus: list[Finding]
    fixed: list[Finding]
    missed_count: int
    missed_recent: list[tuple[datetime, str, list[str]]]
    sessions: list[SessionSummary]
    minutes_played: float
    games: int
    first_play: datetime | None = None
    last_play: datetime | None = None
    lang: str = "fr"
    all_correct: int = 0
    all_claims: int = 0
    low_accuracy: LowAccuracy | None = None

    @property
    def accuracy(self) -> float | None:
        """Return the share of right claims in the evidence window."""
        return self.correct / self.claims if self.claims else None

    @property
    def last_accuracy(self) -> float | None:
        """Return the share of right claims among the last claims."""
        return sum(self.last_claims) / len(self.last_claims) if self.last_claims else None


def _examples(rows: list[Row], rule: str, lang: str) -> tuple[Example, ...]:
    """Return the student's latest distinct pairs that fit the rule, newest first."""
    found: list[Example] = []
    seen: set[tuple[FractionValue, FractionValue]] = set()
    for row in reversed(rows):
        if rule not in row.tags or row.reference is None:
            continue
        pair = (row.reference, row.played)
        if pair in seen:
            continue
        seen.add(pair)
        readings = tuple(m1_readings(row.reference, row.played, lang)) if rule == "M1" else ()
        found.append(Example(row.reference, row.played, readings))
        if len(found) >= OWN_EXAMPLES:
            break
    return tuple(found)


def play_minutes(rows: Sequence[Row]) -> float:
    """Return the minutes one session's plays took: at each table, first to last play, plus
    SESSION_LEAD_IN for the thinking before the first (rows oldest first).

    Time between games (waiting for a table, another table's game) is not play: a student who
    played 1 minute at one table and 5 at another played about 8 minutes, whatever the
    session's clock says. Rows without a table (older logs) count as one span. The student
    page, the report and the session page all use it, so they show the same time.
    """
    spans: dict[int | None, tuple[datetime, datetime]] = {}
    for row in rows:
        first, _last = spans.get(row.table_id, (row.created_at, row.created_at))
        spans[row.table_id] = (first, row.created_at)
    return sum(
        ((last - first + SESSION_LEAD_IN).total_seconds() / 60 for first, last in spans.values()),
        0.0,
    )


def _sessions(history: list[Row]) -> list[SessionSummary]:
    spans: dict[int | None, list[Row]] = {}
    for row in history:
        key = row.session_id if row.session_id is not None else None
        spans.setdefault(key, []).append(row)
    summaries = []
    for session_id, rows in spans.items():
        tally = evidence_of(rows[0].student_id, rows).tally
        minutes = play_minutes(rows)
        summaries.append(
            SessionSummary(session_id, rows[0].day, tally.right, tally.claims, minutes)
        )
    summaries.sort(key=lambda s: s.day)
    return summaries


def _focus(findings: list[Finding]) -> list[Finding]:
    """Pick at most REPORT_FOCUS likely misconceptions, specific rules before the umbrella."""
    likely = [f for f in findings if f.evidence.status == STATUS_LIKELY and f.examples]
    specific_ids = {f.rule.id for f in likely if f.rule.id in UMBRELLA_MEMBERS}
    if specific_ids:
        likely = [f for f in likely if f.rule.id != "M0"]
    # A sub-rule (M2a) says more than its parent (M2): keep the parent out when both are likely.
    ids = {f.rule.id for f in likely}
    likely = [f for f in likely if not any(RULES_BY_ID[i].part_of == f.rule.id for i in ids)]
    likely.sort(key=lambda f: (-f.evidence.k, f.evidence.p_value or 1.0))
    return likely[:REPORT_FOCUS]


def student_report(student: Student, *, lang: str, source: str = SOURCE_BOTH) -> StudentReport:
    """Build a student's page and report (five queries).

    `source` keeps the plays of class sessions, of practice, or both (loading.of_source).
    """
    classroom = student.classroom
    window = evidence_window(classroom)
    history = student_rows(student.pk, full=False, source=source)
    recent = student_rows(student.pk, since=window.start, source=source) if not window.empty else []
    missed = (
        list(
            MissedEquivalence.objects.filter(student=student, created_at__gte=window.start)
            .order_by("-created_at")
            .values_list("created_at", "reference", "equal_cards")
        )
        if not window.empty
        else []
    )
    pupil = evidence_of(student.pk, recent)
    whole = evidence_of(student.pk, history)
    evidence = pupil.statuses
    findings = [
        Finding(RULES_BY_ID[rule], evidence[rule], _examples(recent, rule, lang))
        for rule in RULE_IDS
        if evidence[rule].k or evidence[rule].status not in (STATUS_NONE, STATUS_NOT_POSSIBLE)
    ]
    # The class heatmap's window: one window, so both say the same state.
    skills = pupil.skills
    sessions = _sessions(history)
    return StudentReport(
        student=student,
        window=window,
        ladder=[SkillStep(SKILLS[skill], skills[skill]) for skill in SKILL_IDS],
        last_claims=list(whole.outcomes[-SPARK_CLAIMS:]),
        correct=pupil.tally.right,
        claims=pupil.tally.claims,
        findings=findings,
        focus=_focus(findings),
        fixed=[f for f in findings if f.evidence.status in (STATUS_RESOLVED, STATUS_HELD)],
        missed_count=len(missed),
        missed_recent=[(when, ref, list(cards)) for when, ref, cards in missed[:MISSED_SHOWN]],
        sessions=sessions,
        minutes_played=sum(s.minutes for s in sessions),
        games=len({row.table_id for row in history if row.table_id is not None}),
        first_play=history[0].created_at if history else None,
        last_play=history[-1].created_at if history else None,
        lang=lang,
        all_correct=whole.tally.right,
        all_claims=whole.tally.claims,
        low_accuracy=low_accuracy(pupil.claims, evidence),
    )
