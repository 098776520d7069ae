"""What the teacher's live overview of a class session shows: tables, students, alerts.

Nothing secret: cards left per seat, never a hand. Plays are counted as the diagnosis counts
them (lessons.evidence.reading): the first claim of each turn, so a card refused and tried
again in the same turn is one wrong play. Alerts:

- "wrong_streak": the student's last WRONG_STREAK first claims of the session are all wrong;
- "repeat": the same misconception fits at least two of the student's wrong first claims of
  the session (the M0 umbrella and U, "no rule fits", are never a child's misconception);
- "idle": the game has waited on the student (their turn, or an answer) for IDLE_SECONDS.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone, translation

from games.engine import Game
from games.models import Seat, Table
from games.presence import last_signs, present_for
from games.services import due_seat, robot_time
from lessons.classrooms.names import name_key
from lessons.diagnosis import RULE_IDS, RULES_BY_ID
from lessons.evidence.evidence import evidence_by_student
from lessons.evidence.loading import session_rows
from lessons.models import ClassSession, MissedEquivalence, SessionMember, SessionTable

WRONG_STREAK = 3
IDLE_SECONDS = 120


@dataclass(frozen=True)
class SeatRow:
    """One seat as the teacher sees it: who, how many cards, whether the game waits on it."""

    index: int
    name: str
    bot: bool
    student_id: int | None
    cards: int
    waited_on: bool
    # Seconds before a robot plays this seat whose student has not come to the table yet (the
    # table's arrival wait, lessons.sessions.services), else None. Only of an absent student.
    robot_in: int | None = None
    # The student shows no sign of life (games.presence): no page of theirs open for a while.
    absent: bool = False


@dataclass(frozen=True)
class TableRow:
    """One table of the session."""

    number: int
    table_id: int
    status: str
    seats: list[SeatRow]
    round_over: bool
    winner: bool


@dataclass(frozen=True)
class Alert:
    """Something the teacher should look at."""

    kind: str
    student_id: int
    student: str
    tag: str = ""
    rule_name: dict[str, str] = field(default_factory=dict)

    @property
    def rule_label(self) -> str:
        """Name the rule in the active language (the rulebook carries fr and en)."""
        language = "en" if translation.get_language() == "en" else "fr"
        return self.rule_name.get(language, self.tag)


@dataclass(frozen=True)
class Fit:
    """What some wrong plays fit: one misconception, or "one of" several (never M0 or U)."""

    rules: tuple[str, ...]
    count: int  # wrong first claims that fit exactly these

    @property
    def names(self) -> list[dict[str, str]]:
        """Name each rule in the active language (the rulebook carries fr and en)."""
        language = "en" if translation.get_language() == "en" else "fr"
        return [{"id": rule, "name": RULES_BY_ID[rule].name[language]} for rule in self.rules]


@dataclass
class StudentRow:
    """One student of the session: where they sit and how their plays went."""

    student_id: int
    name: str
    table_number: int | None
    attempts: int = 0  # claims: one per turn (lessons.evidence.evidence)
    errors: int = 0  # wrong claims
    tries: int = 0  # every card tried, a refused one tried again included
    missed: int = 0
    tags: list[str] = field(default_factory=list)
    fits: list[Fit] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)


@dataclass(frozen=True)
class Overview:
    """Everything the overview page and socket show."""

    session: ClassSession
    tables: list[TableRow]
    students: list[StudentRow]
    alerts: list[Alert]

    @property
    def waiting(self) -> list[StudentRow]:
        """Return the students waiting for a table."""
        return [row for row in self.students if row.table_number is None]

    def as_data(self) -> dict[str, Any]:
        """Return JSON-ready data (the socket sends it with the rendered HTML)."""
        return {
            "session": self.session.pk,
            "status": self.session.status,
            "tables": [
                {
                    "number": t.number,
                    "table": t.table_id,
                    "status": t.status,
                    "seats": [
                        {
                            "seat": s.index,
                            "name": s.name,
                            "bot": s.bot,
                            "cards": s.cards,
                            "turn": s.waited_on,
                            "absent": s.absent,
                        }
                        for s in t.seats
                    ],
                }
                for t in self.tables
            ],
            "students": [
                {
                    "id": s.student_id,
                    "name": s.name,
                    "table": s.table_number,
                    "attempts": s.attempts,
                    "errors": s.errors,
                    "tries": s.tries,
                    "missed": s.missed,
                    "alerts": [a.kind for a in s.alerts],
                }
                for s in self.students
            ],
            "alerts": [
                {"kind": a.kind, "student": a.student_id, "tag": a.tag} for a in self.alerts
            ],
        }


def _tables(session: ClassSession) -> QuerySet[SessionTable]:
    seats = Prefetch("table__seats", queryset=Seat.objects.order_by("index"))
    return session.tables.select_related("table").prefetch_related(seats).order_by("number", "game")


def _robot_in(
    table: Table, seat: Seat, last_sign: datetime | None, acting: int | None, now: datetime
) -> int | None:
    """Return the seconds before a robot takes an absent student's seat (games.services)."""
    at = robot_time(table, seat, last_sign, acting)
    return None if at is None else max(0, int((at - now).total_seconds()))


def _table_row(
    seated: SessionTable,
    now: datetime,
    idle: dict[int, Table],
    students: dict[int, int],
    signs: dict[int, datetime],
) -> TableRow:
    table = seated.table
    game = Game.from_dict(table.state)
    public = game.view(None)
    waited = due_seat(public) if table.status == Table.Status.PLAYING else None
    if public.get("round_over") or public.get("winner") is not None:
        waited = None
    sizes = public.get("hand_sizes") or []
    rows = []
    for seat in table.seats.all():
        automatic = seat.is_automatic
        last = signs.get(seat.user_id) if seat.user_id else None
        # The same presence the server's robot rules read: absent only of a child who is.
        absent = (
            seat.user_id is not None
            and not automatic
            and table.status != Table.Status.FINISHED
            and (last is None or now - last >= present_for())
        )
        rows.append(
            SeatRow(
                index=seat.index,
                name=seat.name,
                bot=automatic,
                student_id=students.get(seat.user_id) if seat.user_id else None,
                cards=sizes[seat.index] if seat.index < len(sizes) else 0,
                waited_on=seat.index == waited,
                robot_in=_robot_in(table, seat, last, waited, now) if absent else None,
                absent=absent,
            )
        )
        if (
            seat.index == waited
            and not automatic
            and seat.user_id is not None
            and now - table.updated_at >= timedelta(seconds=IDLE_SECONDS)
        ):
            idle[seat.user_id] = table
    return TableRow(
        number=seated.number,
        table_id=table.pk,
        status=table.status,
        seats=rows,
        round_over=bool(public.get("round_over")),
        winner=public.get("winner") is not None,
    )


def _student_alerts(row: StudentRow, outcomes: list[bool], fits: list[tuple[str, ...]]) -> None:
    """Add the streak and repeat alerts from the first claims' outcomes and fitting rules."""
    if len(outcomes) >= WRONG_STREAK and not any(outcomes[-WRONG_STREAK:]):
        row.alerts.append(Alert("wrong_streak", row.student_id, row.name))
    counts = Counter(rule for rules in fits for rule in rules)
    for tag in sorted(counts, key=lambda t: (-counts[t], t)):
        if counts[tag] >= 2:
            row.alerts.append(
                Alert("repeat", row.student_id, row.name, tag, dict(RULES_BY_ID[tag].name))
            )


def _fit_order(rules: tuple[str, ...]) -> tuple[int, tuple[int, ...]]:
    """Order fits: one misconception before "one of" several, then in the rulebook's order."""
    return len(rules), tuple(RULE_IDS.index(rule) for rule in rules)


def _count_plays(session: ClassSession, rows: dict[int, StudentRow]) -> None:
    """Count each student's first claims, wrong plays in words and missed equivalences.

    A card retried in one turn is one claim (the diagnosis's evidence rule), so a retry never
    makes a streak or a repeat.
    """
    outcomes: dict[int, list[bool]] = defaultdict(list)
    fits: dict[int, list[tuple[str, ...]]] = defaultdict(list)
    for student_id, evidence in evidence_by_student(session_rows(session.pk)).items():
        row = rows.get(student_id)
        if row is None:
            continue
        tally = evidence.tally
        row.attempts, row.errors, row.tries = tally.claims, tally.wrong, tally.tries
        outcomes[student_id] = list(evidence.outcomes)
        fits[student_id] = list(evidence.fits)
    missed = MissedEquivalence.objects.filter(session=session).values_list("student_id", flat=True)
    for student_id in missed:
        if student_id in rows:
            rows[student_id].missed += 1
    for student_id, row in rows.items():
        _student_alerts(row, outcomes[student_id], fits[student_id])
        row.tags = sorted({r for rules in fits[student_id] for r in rules}, key=RULE_IDS.index)
        seen = Counter(rules for rules in fits[student_id] if rules)
        row.fits = [Fit(rules, seen[rules]) for rules in sorted(seen, key=_fit_order)]


def session_overview(*, session: ClassSession, now: datetime | None = None) -> Overview:
    """Build the live overview of a session (a fixed number of queries, whatever its size)."""
    now = now or timezone.now()
    members = (
        SessionMember.objects.filter(session=session)
        .select_related("student", "table")
        .order_by("student_id")
    )
    rows: dict[int, StudentRow] = {}
    user_to_student: dict[int, int] = {}
    for member in members:
        student = member.student
        number = member.table.number if member.table else None
        rows[student.pk] = StudentRow(student.pk, student.display_name, number)
        user_to_student[student.user_id] = student.pk
    idle: dict[int, Table] = {}
    occupied = {member.table_id for member in members if member.table_id is not None}
    # A finished game nobody sits at any more (its students play again elsewhere) is left out.
    shown = [
        seated
        for seated in _tables(session)
        if seated.pk in occupied or seated.table.status != Table.Status.FINISHED
    ]
    signs = last_signs(list(user_to_student))
    tables = [_table_row(seated, now, idle, user_to_student, signs) for seated in shown]
    _count_plays(session, rows)
    for user_id in idle:
        idle_student = user_to_student.get(user_id)
        if idle_student is not None:
            row = rows[idle_student]
            row.alerts.append(Alert("idle", idle_student, row.name))
    students = sorted(rows.values(), key=lambda row: (name_key(row.name), row.student_id))
    alerts = [alert for row in students for alert in row.alerts]
    return Overview(session=session, tables=tables, students=students, alerts=alerts)
