"""All the data stored about one pupil, for a family's request of access (JSON and CSV).

Everything the database holds about the pupil except the PIN and password hashes (they reveal
nothing, and a hash of a 4-digit PIN is guessable): the profile and account, class sessions
joined, every judged play and missed equivalence, the seats held at game tables and the
pupil's own moves there, the tables the pupil started, assigned practice and its tables, and
the pupil's ENT link, ENT sign-ins and the link's history.

Each section lists every column of its rows (read from the model, so a new column is exported
without anyone remembering it); `RELATIONS` says which section holds each relation from a
table to the pupil or their account, and `NOT_THE_PUPILS` why the others are not the pupil's
(tests/lessons/school/test_student_data.py fails on a relation in neither). A game move's
events are shown as the pupil's seat saw them: never another player's drawn cards.

The CSV is the same data in long form, one value a row (`section, row, field, value`), so that
any spreadsheet opens it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q

from games.engine import events_for
from games.models import Seat, Table, TableEvent
from lessons.csv_writer import csv_text
from lessons.exported_columns import columns
from lessons.models import (
    Attempt,
    CompareAnswer,
    EntIdentity,
    EntLinkEvent,
    EntSignIn,
    GroupPlan,
    MissedEquivalence,
    PlanMember,
    PracticeAssignment,
    PracticeTable,
    SeatStudent,
    SessionMember,
    Student,
    WarmupRound,
)

# Which export section holds the rows of each relation to the pupil ("app.Model.field").
RELATIONS: dict[str, str] = {
    "lessons.Student.user": "profile",
    "lessons.SessionMember.student": "sessions",
    "lessons.Attempt.student": "attempts",
    "lessons.MissedEquivalence.student": "missed_equivalences",
    "games.Seat.user": "seats",
    "games.TableEvent.user": "game_actions",
    "games.Table.created_by": "tables_started",
    "lessons.PracticeTable.student": "practice_tables",
    "lessons.PracticeAssignment.students": "assignments",
    "lessons.WarmupRound.student": "warmup_rounds",
    "lessons.SeatStudent.student": "seat_facts",
    "lessons.SeatStudent.user": "seat_facts",
    "lessons.EntIdentity.user": "ent_link",
    "lessons.EntSignIn.user": "ent_sign_ins",
    "lessons.EntLinkEvent.student": "ent_link_events",
    "lessons.PlanMember.student": "group_plan_memberships",
    "lessons.GroupPlan.members": "group_plans",
    "lessons.CompareAnswer.student": "compare_answers",
}
# Relations to a user that only a teacher's or an admin's account ever has.
NOT_THE_PUPILS: dict[str, str] = {
    "lessons.Classroom.teacher": "the class's teacher",
    "lessons.Classroom.co_teachers": "the class's co-teachers",
    "lessons.TeacherInvitation.created_by": "a teacher's invitation",
    "lessons.TeacherInvitation.used_by": "a teacher's invitation",
    "lessons.PracticeAssignment.created_by": "the teacher who assigned practice",
    "lessons.WarmupRound.created_by": "the teacher who asked for a warm-up round",
    "admin.LogEntry.user": "the Django admin's log (staff only)",
    "lessons.EntIdentity.linked_by": "the teacher who linked an ENT account",
    "lessons.EntLinkEvent.by": "the teacher who linked or unlinked an ENT account",
    "lessons.GroupPlan.created_by": "the teacher who planned for a group",
}


def _value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def _rows(queryset: models.QuerySet[Any]) -> list[dict[str, Any]]:
    names = columns(queryset.model)
    return [{name: _value(row[name]) for name in names} for row in queryset.values(*names)]


def _profile(student: Student) -> dict[str, Any]:
    """Return the pupil's row and their account's, with the class's name for the reader."""
    own = _rows(Student.objects.filter(pk=student.pk))[0]
    account = _rows(type(student.user).objects.filter(pk=student.user_id))[0]
    return {
        **own,
        "classroom": student.classroom.name,
        **{f"account_{name}": value for name, value in account.items()},
    }


def _sessions(student: Student) -> list[dict[str, Any]]:
    members = SessionMember.objects.filter(student=student).select_related("session", "table")
    rows = {row["id"]: row for row in _rows(SessionMember.objects.filter(student=student))}
    return [
        {
            **rows[member.pk],
            "started_at": _value(member.session.started_at),
            "ended_at": _value(member.session.ended_at),
            "game": member.session.ruleset,
            "table_number": member.table.number if member.table else None,
            "joined_at": _value(member.joined_at),
        }
        for member in members
    ]


def _game_actions(student: Student) -> list[dict[str, Any]]:
    """Return the pupil's own moves; their events as the pupil's seat saw them."""
    rows = _rows(TableEvent.objects.filter(user_id=student.user_id).order_by("table_id", "seq"))
    for row in rows:
        row["result"] = events_for(list(row["result"]), row["seat"])
    return rows


def _assignments(student: Student) -> models.QuerySet[PracticeAssignment]:
    """Return the practice assigned to the pupil: by name, to the whole class, or started."""
    started = PracticeTable.objects.filter(student=student).values("assignment_id")
    return PracticeAssignment.objects.filter(
        Q(students=student)
        | Q(classroom_id=student.classroom_id, students=None)
        | Q(pk__in=started)
    ).distinct()


def student_data(*, student: Student) -> dict[str, Any]:
    """Return everything stored about the student (no PIN or password hash), JSON-ready."""
    user_id = student.user_id
    named = set(PracticeAssignment.objects.filter(students=student).values_list("pk", flat=True))
    assignments = [
        # The assignment's list of pupils, as far as this pupil goes: named, or the whole class.
        {**row, "students": [student.pk] if row["id"] in named else []}
        for row in _rows(_assignments(student).order_by("pk"))
    ]
    return {
        "profile": _profile(student),
        "sessions": _sessions(student),
        "attempts": _rows(Attempt.objects.filter(student=student)),
        "missed_equivalences": _rows(MissedEquivalence.objects.filter(student=student)),
        "seats": _rows(Seat.objects.filter(user_id=user_id).order_by("table_id")),
        "game_actions": _game_actions(student),
        "tables_started": _rows(Table.objects.filter(created_by_id=user_id).order_by("pk")),
        "practice_tables": _rows(PracticeTable.objects.filter(student=student)),
        "assignments": assignments,
        "warmup_rounds": _rows(WarmupRound.objects.filter(student=student).order_by("pk")),
        # Which pupil, class and session each of their seats logs to (lessons.attempts).
        "seat_facts": _rows(SeatStudent.objects.filter(student=student).order_by("pk")),
        "ent_link": _rows(EntIdentity.objects.filter(user_id=user_id)),
        "ent_sign_ins": _rows(EntSignIn.objects.filter(user_id=user_id).order_by("pk")),
        "ent_link_events": _rows(EntLinkEvent.objects.filter(student=student).order_by("pk")),
        # The group plans the pupil belongs to (lessons.plans), and their own place in each.
        "group_plans": _rows(GroupPlan.objects.filter(memberships__student=student).order_by("pk")),
        "group_plan_memberships": _rows(PlanMember.objects.filter(student=student).order_by("pk")),
        # The compare questions after a refused trap and the answers (never evidence).
        "compare_answers": _rows(CompareAnswer.objects.filter(student=student).order_by("pk")),
    }


def student_json(*, student: Student) -> str:
    """Return the student's data as indented JSON."""
    return json.dumps(
        student_data(student=student), cls=DjangoJSONEncoder, ensure_ascii=False, indent=2
    )


def value_text(value: Any) -> str:
    """Return a value as the pupil's CSV writes it: text as it is, anything else as JSON."""
    if value is None or isinstance(value, str):
        return value or ""
    return json.dumps(value, ensure_ascii=False, cls=DjangoJSONEncoder)


def student_csv(*, student: Student) -> str:
    """Return the student's data as a long CSV: section, row, field, value.

    Written by lessons.csv_writer (a name such as "=1+1" comes out as text, never a formula).
    """
    data = student_data(student=student)

    def rows() -> Iterator[list[object]]:
        yield ["section", "row", "field", "value"]
        for field, value in data["profile"].items():
            yield ["profile", 1, field, value_text(value)]
        for section, section_rows in data.items():
            if section == "profile":
                continue
            for number, row in enumerate(section_rows, start=1):
                for field, value in row.items():
                    yield [section, number, field, value_text(value)]

    return csv_text(rows())
