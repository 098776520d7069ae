"""The class dashboard: who needs help with what, accuracy and trend, heatmaps, wrong plays.

Everything except the per-session trend reads the evidence window (lessons.evidence.loading):
one indexed query loads it, and the rest is computed in Python per student, so the number of
queries does not grow with the class. Statuses are lessons.diagnosis.diagnose()'s (through
loading.statuses_of); only "likely" counts a student as affected by a misconception.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from statistics import median
from typing import Final

from django.db.models import Count

from games.engine.fractions import FractionValue
from lessons.classrooms.names import by_name
from lessons.diagnosis import (
    REASONS,
    RULE_IDS,
    RULES_BY_ID,
    RULES_VERSION,
    SKILL_IDS,
    STATUS_EMERGING,
    STATUS_HELD,
    STATUS_LIKELY,
    STATUS_RESOLVED,
    Agreement,
    Rule,
    SkillProgress,
    reason_agreement,
)
from lessons.evidence.evidence import (
    PupilEvidence,
    Tally,
    evidence_by_student,
    no_evidence,
    total,
)
from lessons.evidence.loading import (
    SOURCE_BOTH,
    Row,
    RuleStatus,
    Window,
    class_rows,
    evidence_window,
    longest_wrong_run,
    session_light_rows,
    statuses_of,
    statuses_then_and_now,
)
from lessons.evidence.reading import LowAccuracy, low_accuracy
from lessons.models import Attempt, Classroom, ClassSession, MissedEquivalence, Student

TREND_SESSIONS: Final = 8
TOP_WRONG_PLAYS: Final = 10
WRONG_RUN_ALERT: Final = 5
# A likely misconception is "still active after 2 sessions" when it was already likely at
# the end of the student's session before their last two, and is likely now.
PERSISTENT_AFTER_SESSIONS: Final = 2
PANEL_EXAMPLES: Final = 3


@dataclass(frozen=True)
class SessionPoint:
    """A class session on the trend: its date and the class accuracy in it."""

    session_id: int
    started_at: datetime
    correct: int
    claims: int

    @property
    def accuracy(self) -> float | None:
        """Return the share of right claims, or None without claims."""
        return self.correct / self.claims if self.claims else None


@dataclass
class StudentLine:
    """One student's row of the dashboard."""

    student: Student
    correct: int = 0
    claims: int = 0
    trend: list[float | None] = field(default_factory=list)
    evidence: dict[str, RuleStatus] = field(default_factory=dict)
    skills: dict[str, SkillProgress] = field(default_factory=dict)
    missed: int = 0
    wrong_run: int = 0
    low_accuracy: LowAccuracy | None = None
    tries: int = 0  # every card tried in the window (claims: one per turn)

    @property
    def accuracy(self) -> float | None:
        """Return the share of right claims in the window, or None without claims."""
        return self.correct / self.claims if self.claims else None


@dataclass
class RulePanel:
    """One misconception across the class: who shows it, how often, real example pairs."""

    rule: Rule
    likely: list[Student] = field(default_factory=list)
    emerging: list[Student] = field(default_factory=list)
    resolved: list[Student] = field(default_factory=list)
    held: list[Student] = field(default_factory=list)  # still resolved a week later
    # Each resolved or held student with their status (the words of their re-checks).
    checked: list[tuple[Student, RuleStatus]] = field(default_factory=list)
    events: int = 0
    examples: list[tuple[FractionValue, FractionValue, int]] = field(default_factory=list)

    @property
    def affected(self) -> int:
        """Return how many students show it now: "likely" only (emerging is a hint to watch)."""
        return len(self.likely)


@dataclass(frozen=True)
class Alert:
    """A student who needs a look: a run of wrong claims, or a misconception that persists."""

    student: Student
    kind: str  # "wrong_run" or "persistent"
    count: int
    rule: Rule | None = None


@dataclass(frozen=True)
class WrongPlay:
    """A wrong play that several claims share (a/b → c/d), with the rules it fits."""

    reference: FractionValue | None
    played: FractionValue
    claim: str
    count: int
    students: int
    tags: tuple[str, ...]
    named_denominator: int | None = None  # a Joker on top: the denominator its player asked for


@dataclass(frozen=True)
class Quality:
    """What the figures rest on: rule versions seen, and the share nobody could classify."""

    versions: list[tuple[str, int]]
    current_version: str
    wrong_equal: int
    unclassified: int

    @property
    def unclassified_share(self) -> float | None:
        """Return the share of wrong "equal" claims no rule fits."""
        return self.unclassified / self.wrong_equal if self.wrong_equal else None


@dataclass(frozen=True)
class Tiles:
    """The headline figures of the window."""

    active_students: int
    sessions: int
    claims: int
    accuracy: float | None
    last_week: float | None
    week_before: float | None
    median_rt_correct_s: float | None
    tries: int = 0  # every card tried (claims: one per turn)

    @property
    def week_change(self) -> float | None:
        """Return the change of accuracy from the week before to the last week."""
        if self.last_week is None or self.week_before is None:
            return None
        return self.last_week - self.week_before


@dataclass(frozen=True)
class WeeklyRate:
    """One misconception week by week: wrong claims fitting it ÷ claims where it could fit."""

    rule: Rule
    weeks: list[tuple[int, int]]  # (matches, opportunities), oldest week first

    def rate(self, index: int) -> float | None:
        """Return the week's rate, or None without opportunities."""
        matches, chances = self.weeks[index]
        return matches / chances if chances else None


@dataclass
class ClassDashboard:
    """Everything the class dashboard shows."""

    classroom: Classroom
    window: Window
    tiles: Tiles
    lines: list[StudentLine]
    sessions: list[SessionPoint]
    rule_ids: tuple[str, ...]
    skill_ids: tuple[str, ...]
    wrong_plays: list[WrongPlay]
    panels: list[RulePanel]
    alerts: list[Alert]
    quality: Quality
    weekly: list[WeeklyRate] = field(default_factory=list)
    week_starts: list[datetime] = field(default_factory=list)
    agreement: dict[str, Agreement] = field(default_factory=dict)

    @property
    def groups(self) -> list[RulePanel]:
        """Return the misconceptions some student is likely to hold, most students first."""
        return [panel for panel in self.panels if panel.likely]

    @property
    def low_accuracy(self) -> list[StudentLine]:
        """Return the students with low accuracy and no likely misconception, lowest first."""
        lines = [line for line in self.lines if line.low_accuracy is not None]
        return sorted(lines, key=lambda line: line.low_accuracy.share if line.low_accuracy else 0)


def _share(correct: int, total: int) -> float | None:
    return correct / total if total else None


# Per student, per session: (right claims, claims).
PerStudentSessions = dict[int, dict[int, tuple[int, int]]]


def _trend(classroom: Classroom) -> tuple[list[SessionPoint], PerStudentSessions]:
    """Return the last sessions (oldest first) and per student, per session (correct, claims)."""
    sessions = list(
        ClassSession.objects.filter(classroom=classroom)
        .order_by("-started_at", "-id")
        .values_list("id", "started_at")[:TREND_SESSIONS]
    )
    sessions.reverse()
    per_student: PerStudentSessions = {}
    totals: dict[int, list[int]] = {sid: [0, 0] for sid, _start in sessions}
    if sessions:
        # Claims, as every page counts them (lessons.evidence.evidence): one per turn.
        rows = session_light_rows([sid for sid, _start in sessions])
        for student_id, evidence in evidence_by_student(rows).items():
            for claim in evidence.claims:
                if claim.session_id not in totals:
                    continue
                right, claims = per_student.setdefault(student_id, {}).get(claim.session_id, (0, 0))
                per_student[student_id][claim.session_id] = (right + claim.correct, claims + 1)
                totals[claim.session_id][0] += claim.correct
                totals[claim.session_id][1] += 1
    points = [SessionPoint(sid, start, *totals[sid]) for sid, start in sessions]
    return points, per_student


def _session_cut(rows: list[Row]) -> int | None:
    """Return where the student's session before their last PERSISTENT_AFTER_SESSIONS ends."""
    order: list[int] = []
    for row in rows:
        if row.session_id is not None and row.session_id not in order:
            order.append(row.session_id)
    if len(order) <= PERSISTENT_AFTER_SESSIONS:
        return None
    boundary = order[-1 - PERSISTENT_AFTER_SESSIONS]
    return max(i for i, row in enumerate(rows) if row.session_id == boundary) + 1


def _statuses(rows: list[Row]) -> tuple[dict[str, RuleStatus], list[str]]:
    """Return the student's statuses now and the rules likely now and already at the cut."""
    cut = _session_cut(rows)
    if cut is None:
        return statuses_of(rows), []
    then, now = statuses_then_and_now(rows, cut)
    persistent = [
        rule
        for rule in RULE_IDS
        if now[rule].status == STATUS_LIKELY and then[rule] == STATUS_LIKELY
    ]
    return now, persistent


def _last_session_run(first: Sequence[Row]) -> int:
    """Return the longest run of wrong first claims in the student's last session."""
    if not first:
        return 0
    last = first[-1].session_id
    return longest_wrong_run(row for row in first if row.session_id == last)


def wrong_plays(rows: Iterable[Row]) -> list[WrongPlay]:
    """Return the most common wrong plays (a/b → c/d and claim), most frequent first.

    `rows` are claims (the first try of each turn): a card retried is not a more common play.
    """
    # A Joker on top has no fraction: the denominator asked for tells two such plays apart.
    Key = tuple[FractionValue | None, int | None, FractionValue, str]
    counts: Counter[Key] = Counter()
    students: dict[Key, set[int]] = {}
    tags: dict[Key, tuple[str, ...]] = {}
    for row in rows:
        if row.correct:
            continue
        named = row.named_denominator if row.reference is None else None
        key = (row.reference, named, row.played, row.claim)
        counts[key] += 1
        students.setdefault(key, set()).add(row.student_id)
        tags[key] = row.tags
    return [
        WrongPlay(ref, played, claim, count, len(students[key]), tags[key], named)
        for key, count in counts.most_common(TOP_WRONG_PLAYS)
        for ref, named, played, claim in [key]
    ]


def _panels(lines: list[StudentLine], rows: list[Row]) -> list[RulePanel]:
    panels = {rule: RulePanel(RULES_BY_ID[rule]) for rule in RULE_IDS}
    for line in lines:
        for rule, evidence in line.evidence.items():
            panel = panels[rule]
            panel.events += evidence.k
            if evidence.status == STATUS_LIKELY:
                panel.likely.append(line.student)
            elif evidence.status == STATUS_EMERGING:
                panel.emerging.append(line.student)
            elif evidence.status == STATUS_RESOLVED:
                panel.resolved.append(line.student)
                panel.checked.append((line.student, evidence))
            elif evidence.status == STATUS_HELD:
                panel.held.append(line.student)
                panel.checked.append((line.student, evidence))
    pairs: dict[str, Counter[tuple[FractionValue, FractionValue]]] = {
        rule: Counter() for rule in RULE_IDS
    }
    for row in rows:
        if row.reference is None:
            continue
        for tag in row.tags:
            if tag in pairs:
                pairs[tag][(row.reference, row.played)] += 1
    for rule, panel in panels.items():
        panel.examples = [(r, p, n) for (r, p), n in pairs[rule].most_common(PANEL_EXAMPLES)]
    shown = [p for p in panels.values() if p.events or p.checked]
    shown.sort(key=lambda p: (-p.affected, -len(p.likely), -p.events, RULE_IDS.index(p.rule.id)))
    return shown


WEEKS: Final = 4


def _weekly(
    window: Window, rows: list[Row], panels: list[RulePanel]
) -> tuple[list[WeeklyRate], list[datetime]]:
    """Return the rate of each shown misconception in each week of the window."""
    if window.end is None:
        return [], []
    starts = [window.end - timedelta(days=7 * (WEEKS - i)) for i in range(WEEKS)]
    rules = [panel.rule for panel in panels]
    counts = {rule.id: [[0, 0] for _week in range(WEEKS)] for rule in rules}
    for row in rows:
        week = WEEKS - 1 - min(int((window.end - row.created_at).days // 7), WEEKS - 1)
        for rule_id in row.opportunities:
            if rule_id in counts:
                counts[rule_id][week][1] += 1
        for rule_id in row.tags:
            if rule_id in counts:
                counts[rule_id][week][0] += 1
    weekly = [WeeklyRate(rule, [(m, c) for m, c in counts[rule.id]]) for rule in rules]
    return weekly, starts


def _quality(classroom: Classroom, window: Window, rows: list[Row]) -> Quality:
    versions: list[tuple[str, int]] = []
    if not window.empty:
        versions = list(
            Attempt.objects.filter(classroom=classroom, created_at__gte=window.start)
            .values_list("rules_version")
            .annotate(n=Count("id"))
            .order_by("-n")
        )
    wrong_equal = [r for r in rows if not r.correct and r.claim == Attempt.Claim.EQUAL]
    unclassified = sum(1 for r in wrong_equal if r.tags == ("U",))
    return Quality(versions, RULES_VERSION, len(wrong_equal), unclassified)


def _tiles(window: Window, rows: list[Row], evidence: Iterable[PupilEvidence]) -> Tiles:
    pupils = list(evidence)
    whole = total(e.tally for e in pupils)
    last_week = week_before = None
    if window.end is not None:
        cut, before = window.end - timedelta(days=7), window.end - timedelta(days=14)
        last_week = total(e.tally_since(cut) for e in pupils).share
        week_before = total(e.tally_since(before, cut) for e in pupils).share
    times = [r.response_ms for e in pupils for r in e.claims if r.correct and r.response_ms]
    return Tiles(
        active_students=len({r.student_id for r in rows}),
        sessions=len({r.session_id for r in rows if r.session_id is not None}),
        claims=whole.claims,
        accuracy=whole.share,
        last_week=last_week,
        week_before=week_before,
        median_rt_correct_s=median(times) / 1000 if times else None,
        tries=whole.tries,
    )


def class_dashboard(classroom: Classroom, *, source: str = SOURCE_BOTH) -> ClassDashboard:
    """Build the class dashboard (a fixed number of queries, whatever the class size).

    `source` keeps the plays of class sessions, of practice, or both (loading.of_source).
    """
    window = evidence_window(classroom)
    students = by_name(classroom.students.only("id", "display_name", "classroom"))
    rows = class_rows(classroom, window, source=source)
    grouped = evidence_by_student(rows)
    sessions, per_student_trend = _trend(classroom)
    missed: dict[int, int] = {}
    if not window.empty:
        missed = dict(
            MissedEquivalence.objects.filter(classroom=classroom, created_at__gte=window.start)
            .values_list("student_id")
            .annotate(n=Count("id"))
            .order_by()
        )
    lines: list[StudentLine] = []
    alerts: list[Alert] = []
    for student in students:
        evidence = grouped.get(student.pk) or no_evidence(student.pk)
        tally: Tally = evidence.tally
        trend = per_student_trend.get(student.pk, {})
        statuses, persistent = _statuses(list(evidence.rows))
        line = StudentLine(
            student=student,
            correct=tally.right,
            claims=tally.claims,
            trend=[_share(*trend.get(point.session_id, (0, 0))) for point in sessions],
            evidence=statuses,
            skills=evidence.skills,
            missed=missed.get(student.pk, 0),
            wrong_run=_last_session_run(evidence.claims),
            low_accuracy=low_accuracy(evidence.claims, statuses),
            tries=tally.tries,
        )
        lines.append(line)
        if line.wrong_run >= WRONG_RUN_ALERT:
            alerts.append(Alert(student, "wrong_run", line.wrong_run))
        for rule in persistent:
            alerts.append(Alert(student, "persistent", line.evidence[rule].k, RULES_BY_ID[rule]))
    panels = _panels(lines, rows)
    weekly, week_starts = _weekly(window, rows, panels)
    agreement = reason_agreement((row.tags, row.reason) for row in rows if row.reason in REASONS)
    return ClassDashboard(
        classroom=classroom,
        window=window,
        tiles=_tiles(window, rows, grouped.values()),
        lines=lines,
        sessions=sessions,
        rule_ids=RULE_IDS,
        skill_ids=SKILL_IDS,
        wrong_plays=wrong_plays(c for e in grouped.values() for c in e.claims),
        panels=panels,
        alerts=alerts,
        quality=_quality(classroom, window, rows),
        weekly=weekly,
        week_starts=week_starts,
        agreement=agreement,
    )
