"""Helpers for the class-session tests: a class of n students, a session, the clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.models import Table
from lessons.models import Classroom, ClassSession, SessionMember, SessionTable, Student, User
from lessons.sessions import services as class_sessions
from tests.games.helpers import FRACTIONS_SETUP, make_table
from tests.support.factories import make_classroom, make_students

T0 = timezone.make_aware(datetime(2026, 11, 20, 9, 0, 0))


def at(seconds: float) -> datetime:
    """Return the moment `seconds` after T0."""
    return T0 + timedelta(seconds=seconds)


def class_of(teacher: User, count: int) -> tuple[Classroom, list[Student]]:
    """Create a classroom of `count` students for the teacher."""
    classroom = make_classroom(teacher=teacher)
    names = [f"Élève {index:02d}" for index in range(1, count + 1)]
    return classroom, [login.student for login in make_students(classroom=classroom, names=names)]


def start(teacher: User, classroom: Classroom, **kw: Any) -> ClassSession:
    """Open a session at T0."""
    return class_sessions.session_start(teacher=teacher, classroom=classroom, now=T0, **kw)


def join_all(session: ClassSession, students: list[Student], seconds: float = 0) -> None:
    """Let every student join at the same moment."""
    for student in students:
        class_sessions.session_join(session=session, student=student, now=at(seconds))


def scripted_session(class_a: Any) -> tuple[ClassSession, Table]:
    """Open a session whose one table is the scripted two-student table (seat 1 plays first)."""
    session = class_sessions.session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    users = [class_a.student.user, class_a.other_student.user]
    table = make_table(users, setup=FRACTIONS_SETUP)
    seated = SessionTable.objects.create(session=session, table=table, number=1)
    for login in (class_a.student, class_a.other_student):
        SessionMember.objects.create(session=session, student=login.student, table=seated)
    return session, table
