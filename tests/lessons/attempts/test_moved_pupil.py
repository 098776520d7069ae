"""A pupil moved to another class (issue 22, point 3): their next plays go to the new class,
and they no longer play at the old class's session tables."""

from __future__ import annotations

from typing import Any

import pytest

from games.errors import TableError
from games.models import Seat, Table
from games.services import table_act
from lessons.models import Attempt, SeatStudent, SessionMember
from lessons.pupils.changes import student_move
from lessons.sessions.services import session_join, session_seat_now, session_start
from tests.games.helpers import FRACTIONS_SETUP, make_table
from tests.support.factories import make_classroom

pytestmark = pytest.mark.django_db(transaction=True)


def _try(table: Table, user: Any, card: str) -> str:
    """Play `card` as an equal fraction; return the refusal's code ("" when accepted)."""
    table.refresh_from_db()
    try:
        table_act(
            table_id=table.pk,
            user=user,
            action={"type": "play", "card": card, "claim": "equal"},
            state_id=table.state_id,
        )
    except TableError as exc:
        return exc.code
    return ""


def test_a_moved_pupils_next_attempt_at_a_table_already_played_goes_to_the_new_class(
    class_a: Any,
) -> None:
    student = class_a.student.student
    # A practice table of the pupil (seat 1 plays first, on 1/3), against a robot.
    table = make_table([None, student.user], setup=FRACTIONS_SETUP)
    assert _try(table, student.user, "2/3r") == "not_equivalent"
    other = make_classroom(teacher=class_a.teacher, name="CM2 bis")
    student_move(student=student, to=other)
    assert _try(table, student.user, "10/12v") == "not_equivalent"
    tries = Attempt.objects.filter(table_id=table.pk).order_by("id")
    # The first attempt follows the pupil too (a move mends a wrong placement).
    assert [(a.card, a.classroom_id) for a in tries] == [("2/3r", other.pk), ("10/12v", other.pk)]
    assert SeatStudent.objects.get(seat__table=table).classroom_id == other.pk
    # Still the same turn: the move changed the class, not the game.
    assert {a.turn for a in tries} == {0}


def test_a_moved_pupil_no_longer_plays_at_the_old_class_session_tables(class_a: Any) -> None:
    session = session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    for login in (class_a.student, class_a.other_student):
        session_join(session=session, student=login.student)
    session_seat_now(session=session, teacher=class_a.teacher)
    member = SessionMember.objects.get(student=class_a.student.student)
    assert member.table is not None
    table = member.table.table
    moved = class_a.student.student
    seat = Seat.objects.get(table=table, user=moved.user)
    assert SeatStudent.objects.get(seat=seat).session_id == session.pk  # written on seating
    student_move(student=moved, to=make_classroom(teacher=class_a.teacher, name="CM2 bis"))
    seat.refresh_from_db()
    assert seat.user_id is None and seat.bot  # handed on to a robot, with the hand
    assert not SeatStudent.objects.filter(seat=seat).exists()
    assert not SessionMember.objects.filter(student=moved).exists()
    assert _try(table, moved.user, "2/3r") == "not_seated"
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # the classmate plays on
    assert not Attempt.objects.filter(student=moved, table_id=table.pk).exists()
