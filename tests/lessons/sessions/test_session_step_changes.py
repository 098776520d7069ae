"""A session's step planned, then the class changes before it runs: the step deals what is true.

Between the plan (a join, a finished game) and the run, a pupil may move to another class or
be removed, the session end or the class be archived. The step reads everything again under
the session's lock: it seats nobody who left, deals nothing into an ended session, does not
crash, and a second run changes nothing more.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from games import driver
from games.models import Seat, Table
from games.services import table_finish
from lessons.models import SessionMember, SessionTable, Student
from lessons.pupils.changes import student_move, student_remove
from lessons.school.class_years import classroom_archive
from lessons.sessions.services import (
    SETTLE_SECONDS,
    session_end,
    session_pending_step,
    session_seat_now,
    session_step,
)
from tests.lessons.sessions.helpers import at, class_of, join_all, start
from tests.support.factories import make_classroom

LATE = SETTLE_SECONDS + 30


@pytest.fixture(autouse=True)
def _clean_driver() -> Iterator[None]:
    driver.cancel_all()
    yield
    driver.cancel_all()


def _waiting_three(class_a: Any) -> tuple[Any, list[Student]]:
    """Open a session whose three pupils joined at T0: a deal is planned for them."""
    classroom, students = class_of(class_a.teacher, 3)
    session = start(class_a.teacher, classroom)
    join_all(session, students)
    assert session_pending_step(session=session, now=at(0)) is not None
    return session, students


def _game_over(class_a: Any, pupils: int) -> tuple[Any, SessionTable, list[Student]]:
    """Seat `pupils` at one table and finish its game: its next game's step is planned."""
    classroom, students = class_of(class_a.teacher, pupils)
    session = start(class_a.teacher, classroom)
    join_all(session, students)
    (first,) = session_seat_now(session=session, teacher=class_a.teacher)
    table_finish(table_id=first.table_id)
    return session, first, students


def _next_game_users(session: Any) -> set[int]:
    second = SessionTable.objects.get(session=session, game=2)
    return set(second.table.seats.values_list("user_id", flat=True)) - {None}


def _seated_users() -> set[int | None]:
    return set(Seat.objects.values_list("user_id", flat=True))


def _run_twice(session_id: int) -> list[Any]:
    """Run the step late, then once more (a second process, a late timer): the second is a no-op."""
    steps = session_step(session_id, now=at(LATE))
    tables = Table.objects.count()
    assert session_step(session_id, now=at(LATE + 1)) == []
    assert Table.objects.count() == tables
    return steps


@pytest.mark.django_db
def test_a_pupil_moved_before_the_deal_gets_no_seat_in_the_old_class(class_a: Any) -> None:
    session, (moved, *others) = _waiting_three(class_a)
    student_move(student=moved, to=make_classroom(teacher=class_a.teacher))
    _run_twice(session.pk)
    assert _seated_users() == {s.user_id for s in others}
    assert not SessionMember.objects.filter(student=moved).exists()


@pytest.mark.django_db
def test_a_pupil_moved_from_a_finished_game_is_not_dealt_its_next(class_a: Any) -> None:
    session, _first, (moved, other) = _game_over(class_a, 2)
    student_move(student=moved, to=make_classroom(teacher=class_a.teacher))
    _run_twice(session.pk)
    assert _next_game_users(session) == {other.user_id}


@pytest.mark.django_db
def test_an_erased_pupil_gets_no_seat_and_the_others_are_dealt(class_a: Any) -> None:
    session, (erased, *others) = _waiting_three(class_a)
    user_id, name = erased.user_id, erased.display_name
    student_remove(student=erased, mode="erase")
    _run_twice(session.pk)
    assert _seated_users() == {s.user_id for s in others}
    assert user_id not in _seated_users()
    assert not Seat.objects.filter(name=name).exists()


@pytest.mark.django_db
def test_a_pupil_removed_from_a_finished_game_is_not_dealt_its_next(class_a: Any) -> None:
    # Pseudonymised: their place at the finished table stays as the session's record.
    session, first, (removed, other) = _game_over(class_a, 2)
    student_remove(student=removed, mode="pseudonymise")
    _run_twice(session.pk)
    assert _next_game_users(session) == {other.user_id}
    assert SessionMember.objects.get(student=removed).table == first  # the record stays


@pytest.mark.django_db
def test_a_finished_game_whose_pupils_were_all_removed_is_not_dealt_again(class_a: Any) -> None:
    session, _first, (removed,) = _game_over(class_a, 1)
    student_remove(student=removed, mode="pseudonymise")
    assert _run_twice(session.pk) == []  # nothing dealt, nothing left to look at again
    session.refresh_from_db()
    assert session_pending_step(session=session, now=at(LATE)) is None
    assert not SessionTable.objects.filter(game=2).exists()


@pytest.mark.django_db
def test_an_ended_session_deals_none_of_its_waiting_pupils(class_a: Any) -> None:
    session, _students = _waiting_three(class_a)
    session_end(session=session, teacher=class_a.teacher)
    assert _run_twice(session.pk) == []
    assert not Table.objects.exists()
    assert not SessionMember.objects.filter(table__isnull=False).exists()


@pytest.mark.django_db
def test_a_session_ended_after_its_first_game_starts_no_next_one(class_a: Any) -> None:
    session, _first, _students = _game_over(class_a, 2)  # the next game is planned
    session_end(session=session, teacher=class_a.teacher)
    assert _run_twice(session.pk) == []
    assert list(SessionTable.objects.values_list("game", flat=True)) == [1]


@pytest.mark.django_db
def test_a_class_archived_after_its_session_ended_gets_no_deal(class_a: Any) -> None:
    session, _students = _waiting_three(class_a)
    with pytest.raises(ValidationError):  # not while its session is open: the deal would run
        classroom_archive(classroom=session.classroom, by=class_a.teacher)
    session_end(session=session, teacher=class_a.teacher)
    classroom_archive(classroom=session.classroom, by=class_a.teacher)
    assert _run_twice(session.pk) == []
    assert not Table.objects.exists()
