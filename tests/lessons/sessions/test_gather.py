"""The next game waits for the table's students (issue 30, section 1, point 7).

Robots used to start the next game while its students were still on the last game's end
screen: they came to it mid-game, with a robot's nine cards. A session's table now gathers:
nothing moves (robots, timer) until each student has come to it, or has left (no sign for
games.presence.PRESENT_FOR) and the stated arrival wait is over; then a robot plays for them.
The clock is moved, never slept on.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import presence
from games.engine import Game
from games.models import Seat, Table, TableEvent
from games.services import table_act, table_finish, table_step
from games.table_seat import _mark_seen
from lessons.models import SessionTable
from lessons.sessions.services import (
    ARRIVAL_WAIT_SECONDS,
    LONE_WAIT_SECONDS,
    session_seat_due,
)
from tests.lessons.sessions.helpers import at, class_of, join_all, start

pytestmark = pytest.mark.django_db

WAIT = timedelta(seconds=ARRIVAL_WAIT_SECONDS)


@pytest.fixture(autouse=True)
def _fresh_throttle() -> Any:
    presence.forget()
    yield
    presence.forget()


def _first_table(teacher: Any, count: int) -> tuple[Any, list[Any], SessionTable]:
    classroom, students = class_of(teacher, count)
    session = start(teacher, classroom)
    join_all(session, students)
    (seated,) = session_seat_due(session=session, now=at(LONE_WAIT_SECONDS))
    return session, students, seated


def _seat_of(table: Table, student: Any) -> Seat:
    return Seat.objects.get(table=table, user=student.user)


def _comes(table: Table, student: Any, now: datetime) -> None:
    """What the student's page does on the table: connect (or send any frame)."""
    _mark_seen(table.pk, _seat_of(table, student).index, now)


def _step(table: Table, now: datetime) -> Any:
    table.refresh_from_db()
    return table_step(table_id=table.pk, state_id=table.state_id, now=now)


def _play_out_turn_if_due(table: Table, student: Any) -> None:
    seat = _seat_of(table, student).index
    table.refresh_from_db()
    while (game := Game.from_dict(table.state)).acting_seat() == seat:
        action = game.timeout_action(seat)  # a draw, then a pass
        table_act(table_id=table.pk, user=student.user, action=action, state_id=table.state_id)
        table.refresh_from_db()


def _next_table(session: Any, old: SessionTable) -> Table:
    table_finish(table_id=old.table_id)
    (made,) = session_seat_due(session=session, now=at(LONE_WAIT_SECONDS + 1))
    return made.table


def test_robots_wait_for_a_student_who_has_not_come(class_a: Any) -> None:
    _session, (student,), seated = _first_table(class_a.teacher, 1)
    table = seated.table
    assert table.play_settings["gather"] is True
    now = timezone.now()
    for seconds in (2, 20, 40):  # the robots' turns do not start before the student comes
        _step(table, now + timedelta(seconds=seconds))
    assert not TableEvent.objects.filter(table=table).exists()
    _comes(table, student, now + timedelta(seconds=41))
    table = Table.objects.get(pk=table.pk)  # read again (mypy keeps what was asserted)
    assert table.play_settings["gather"] is False  # everyone is here: the game goes
    _play_out_turn_if_due(table, student)  # the deal is random: the student may be first
    for seconds in range(42, 60):
        _step(table, now + timedelta(seconds=seconds))
    robots = TableEvent.objects.filter(table=table, actor=TableEvent.Actor.BOT)
    assert robots.exists()
    assert not _seat_of(table, student).bot_takeover


def test_the_next_game_waits_for_a_student_still_on_the_end_screen(class_a: Any) -> None:
    session, students, seated = _first_table(class_a.teacher, 2)
    alice, bruno = students
    now = timezone.now()
    for student in students:  # both read the last game's end screen
        _comes(seated.table, student, now)
    table = _next_table(session, seated)
    table.refresh_from_db()
    assert table.deadline is None  # they are there: no "a robot plays in 45 s"
    _comes(table, alice, now + timedelta(seconds=1))  # Alice pressed "Next game"
    # Bruno stays on the end screen for three minutes, his page alive.
    for seconds in range(10, 190, 10):
        _comes(seated.table, bruno, now + timedelta(seconds=seconds))
        _step(table, now + timedelta(seconds=seconds + 5))
    assert not _seat_of(table, bruno).is_automatic
    assert not TableEvent.objects.filter(table=table).exclude(actor=TableEvent.Actor.PLAYER)
    _comes(table, bruno, now + timedelta(seconds=191))  # he presses "Next game": all here
    table.refresh_from_db()
    assert table.play_settings["gather"] is False
    assert not _seat_of(table, bruno).bot_takeover


def test_a_student_who_left_gets_a_robot_after_the_stated_wait(class_a: Any) -> None:
    session, students, seated = _first_table(class_a.teacher, 2)
    alice, bruno = students
    table = _next_table(session, seated)  # Bruno has closed his page: no sign of him
    created = table.created_at
    _comes(table, alice, created + timedelta(seconds=1))
    _step(table, created + WAIT - timedelta(seconds=1))
    assert not _seat_of(table, bruno).is_automatic  # the stated wait is not over
    _step(table, created + WAIT + timedelta(seconds=1))
    seat = _seat_of(table, bruno)
    assert seat.bot_takeover and seat.is_automatic
    table.refresh_from_db()
    assert table.play_settings["gather"] is False  # the game goes on without him


def test_a_student_seen_lately_is_given_present_for_before_a_robot(class_a: Any) -> None:
    session, students, seated = _first_table(class_a.teacher, 2)
    alice, bruno = students
    last = timezone.now()
    _comes(seated.table, bruno, last)  # his last sign, then he closed the end screen
    table = _next_table(session, seated)
    _comes(table, alice, last + timedelta(seconds=1))
    _step(table, last + presence.PRESENT_FOR - timedelta(seconds=1))
    assert not _seat_of(table, bruno).is_automatic
    _step(table, max(last + presence.PRESENT_FOR, table.created_at + WAIT) + timedelta(seconds=1))
    assert _seat_of(table, bruno).is_automatic


def test_the_overview_says_away_only_of_a_student_who_is(class_a: Any) -> None:
    from lessons.sessions.overview import session_overview

    session, students, seated = _first_table(class_a.teacher, 2)
    alice, bruno = students
    now = timezone.now()
    _comes(seated.table, alice, now)  # Alice's page is open; Bruno's is not
    overview = session_overview(session=session, now=now + timedelta(seconds=30))
    (table,) = overview.tables
    by_name = {seat.name: seat for seat in table.seats}
    assert not by_name[alice.display_name].absent
    assert by_name[alice.display_name].robot_in is None  # no "a robot plays in…" of her
    assert by_name[bruno.display_name].absent
    assert by_name[bruno.display_name].robot_in is not None
    data = overview.as_data()["tables"][0]["seats"]
    assert {s["name"]: s["absent"] for s in data} == {
        alice.display_name: False,
        bruno.display_name: True,
    }
    # Alice goes quiet for PRESENT_FOR (her page closed): now she is away too.
    later = session_overview(session=session, now=now + presence.PRESENT_FOR)
    assert all(seat.absent for seat in later.tables[0].seats)


def test_a_turn_timer_starts_when_the_table_is_gathered(class_a: Any) -> None:
    classroom, students = class_of(class_a.teacher, 2)
    session = start(class_a.teacher, classroom, turn_timer=30)
    join_all(session, students)
    (seated,) = session_seat_due(session=session, now=at(LONE_WAIT_SECONDS))
    table = seated.table
    now = timezone.now()
    _comes(table, students[0], now)
    table.refresh_from_db()
    assert table.play_settings["gather"] is True
    assert table.deadline is None or table.deadline <= table.created_at + WAIT  # no turn timer
    _comes(table, students[1], now + timedelta(seconds=5))  # everyone is here
    table = Table.objects.get(pk=table.pk)  # read again (mypy keeps what was asserted)
    assert table.play_settings["gather"] is False
    assert table.deadline == now + timedelta(seconds=35)  # the turn timer, from now on
    # A table whose last student left is gathered by the server's step, its timer planned too.
    session2, students2, seated2 = _first_table(class_a.teacher, 2)
    del session2
    table2 = seated2.table
    later = table2.created_at + presence.PRESENT_FOR + timedelta(seconds=1)
    _comes(table2, students2[0], table2.created_at)
    _comes(table2, students2[0], later - timedelta(seconds=1))  # Alice's page is still open
    _step(table2, later)
    table2.refresh_from_db()
    assert table2.play_settings["gather"] is False
    assert Seat.objects.filter(table=table2, bot_takeover=True).count() == 1
