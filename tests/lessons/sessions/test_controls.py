"""Starting, pausing, resuming, ending a session and moving a student; refused input."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils import translation

from games.errors import TableError
from games.models import Seat, Table
from games.services import table_act
from lessons.models import ClassSession, SessionMember, SessionTable, Student
from lessons.sessions.services import (
    LONE_WAIT_SECONDS,
    session_end,
    session_join,
    session_move,
    session_seat_due,
    session_seat_now,
    session_set_paused,
    session_start,
)
from tests.conftest import ClassWorld
from tests.lessons.sessions.helpers import T0, at, class_of, join_all, start
from tests.support.factories import make_student

pytestmark = pytest.mark.django_db


def _seated(session: ClassSession, students: list[Student]) -> list[SessionTable]:
    join_all(session, students)
    return session_seat_due(session=session, now=at(LONE_WAIT_SECONDS))


def _statuses(session: ClassSession) -> list[str]:
    return [t.table.status for t in session.tables.select_related("table").order_by("number")]


def test_a_session_records_its_settings(class_a: ClassWorld) -> None:
    session = start(
        class_a.teacher,
        class_a.classroom,
        ruleset="classic",
        table_size=6,
        options={"stacking": True},
        turn_timer=30,
    )
    session.refresh_from_db()
    assert (session.ruleset, session.table_size, session.options) == (
        "classic",
        6,
        {"stacking": True},
    )
    assert session.play_settings == {
        "turn_timer": 30, "accessible": False, "animations": True, "sound": True,
    }  # fmt: skip
    assert session.status == ClassSession.Status.OPEN and session.started_at == T0
    (table,) = _seated(session, [class_a.student.student, class_a.other_student.student])
    assert table.table.options == {"stacking": True}
    assert table.table.play_settings["turn_timer"] == 30


def test_accessible_mode_never_runs_a_turn_timer(class_a: ClassWorld) -> None:
    session = start(class_a.teacher, class_a.classroom, turn_timer=30, accessible=True)
    assert session.play_settings["turn_timer"] == 0 and session.play_settings["accessible"]


def test_pause_and_resume_every_table(class_a: ClassWorld) -> None:
    classroom, students = class_of(class_a.teacher, 6)
    session = start(class_a.teacher, classroom, table_size=3)
    tables = _seated(session, students)
    session_set_paused(session=session, teacher=class_a.teacher, paused=True)
    assert _statuses(session) == [Table.Status.PAUSED] * 2
    session.refresh_from_db()
    assert session.status == ClassSession.Status.PAUSED
    first = tables[0].table
    first.refresh_from_db()
    seat = first.seats.filter(user__isnull=False).first()
    assert seat is not None
    player = seat.user
    with pytest.raises(TableError) as err:
        table_act(table_id=first.pk, user=player, action={"type": "draw"}, state_id=first.state_id)
    assert err.value.code == "paused"
    session_set_paused(session=session, teacher=class_a.teacher, paused=False)
    assert _statuses(session) == [Table.Status.PLAYING] * 2
    session.refresh_from_db()
    assert session.status == ClassSession.Status.OPEN


def test_end_finishes_every_table_and_keeps_the_record(class_a: ClassWorld) -> None:
    classroom, students = class_of(class_a.teacher, 5)
    session = start(class_a.teacher, classroom)
    _seated(session, students)
    ended = session_end(session=session, teacher=class_a.teacher, now=at(600))
    assert ended.status == ClassSession.Status.ENDED and ended.ended_at == at(600)
    assert _statuses(session) == [Table.Status.FINISHED] * 2
    assert SessionMember.objects.filter(session=session, table__isnull=False).count() == 5
    assert session_seat_due(session=session, now=at(700)) == []  # no new game after the end
    # Another session can start now.
    assert start(class_a.teacher, classroom).pk != session.pk


def test_ending_twice_is_refused_and_changes_nothing(class_a: ClassWorld) -> None:
    session = start(class_a.teacher, class_a.classroom)
    session_end(session=session, teacher=class_a.teacher, now=at(60))
    with pytest.raises(ValidationError) as err:
        session_end(session=session, teacher=class_a.teacher, now=at(120))
    assert err.value.code == "ended"
    session.refresh_from_db()
    assert session.ended_at == at(60)
    for call in (
        lambda: session_set_paused(session=session, teacher=class_a.teacher, paused=True),
        lambda: session_join(session=session, student=class_a.student.student),
        lambda: session_seat_now(session=session, teacher=class_a.teacher),
    ):
        with pytest.raises(ValidationError):
            call()
    assert SessionMember.objects.count() == 0


def _two_tables_with_a_robot(
    class_a: ClassWorld,
) -> tuple[ClassSession, list[Student], SessionTable, SessionTable]:
    """Five students at size 4: tables of 3 and 2; seat the first one alone first."""
    classroom, students = class_of(class_a.teacher, 5)
    session = start(class_a.teacher, classroom)
    session_join(session=session, student=students[0], now=at(0))
    (lone,) = session_seat_now(session=session, teacher=class_a.teacher)
    join_all(session, students[1:], seconds=100)
    (group,) = session_seat_due(session=session, now=at(200))
    return session, students, lone, group


def test_move_a_student_into_a_robots_seat(class_a: ClassWorld) -> None:
    session, students, lone, group = _two_tables_with_a_robot(class_a)
    mover = students[1]
    member = session_move(
        session=session, teacher=class_a.teacher, student_id=mover.pk, table_number=lone.number
    )
    assert member.table == lone
    seat = lone.table.seats.get(user=mover.user)
    assert seat.name == mover.display_name and not seat.is_automatic
    # The seat left behind is played by a bot; the table goes on with its students.
    left = group.table.seats.get(index=0)
    assert left.user_id is None and left.is_automatic
    group.table.refresh_from_db()
    assert group.table.status == Table.Status.PLAYING


def test_move_a_student_back_to_the_waiting_list(class_a: ClassWorld) -> None:
    session, students, lone, group = _two_tables_with_a_robot(class_a)
    member = session_move(
        session=session, teacher=class_a.teacher, student_id=students[0].pk, table_number=None
    )
    assert member.table is None
    lone.table.refresh_from_db()
    assert lone.table.status == Table.Status.FINISHED  # no student left at it
    assert not lone.table.seats.filter(user=students[0].user).exists()


@pytest.mark.parametrize(
    ("who", "table", "code"),
    [
        ("group", "group", "same_table"),
        ("lone", "group", "no_free_seat"),
        ("lone", 99, "no_such_table"),
        ("outsider", "lone", "not_a_member"),
        ("waiting", None, "already_waiting"),
    ],
)
def test_refused_moves_change_nothing(
    class_a: ClassWorld,
    who: str,
    table: Any,
    code: str,  # table: a name, a number or None
) -> None:
    session, students, lone, group = _two_tables_with_a_robot(class_a)
    if who == "waiting":
        session_move(
            session=session, teacher=class_a.teacher, student_id=students[1].pk, table_number=None
        )
    student = {"group": students[1], "lone": students[0], "waiting": students[1]}.get(who)
    student_id = student.pk if student else class_a.student.student.pk
    number = {"group": group.number, "lone": lone.number}.get(table, table)
    before = [(s.table_id, s.index, s.user_id, s.name) for s in _all_seats(session)]
    members = list(SessionMember.objects.values_list("student_id", "table_id"))
    with pytest.raises(ValidationError) as err:
        session_move(
            session=session, teacher=class_a.teacher, student_id=student_id, table_number=number
        )
    assert err.value.code == code
    assert [(s.table_id, s.index, s.user_id, s.name) for s in _all_seats(session)] == before
    assert list(SessionMember.objects.values_list("student_id", "table_id")) == members


def _all_seats(session: ClassSession) -> QuerySet[Seat]:
    from games.models import Seat

    return Seat.objects.filter(table__lesson_table__session=session).order_by("table", "index")


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"table_size": 6}, "bad_table_size"),
        ({"table_size": 1}, "bad_table_size"),
        ({"ruleset": "classic", "table_size": 11}, "bad_table_size"),
        ({"table_size": "4"}, "bad_table_size"),
        ({"ruleset": "poker"}, "bad_ruleset"),
        ({"options": {"stacking": True}}, "bad_options"),
        ({"options": {"wrong_attempt_penalty": 99}}, "bad_options"),
        ({"turn_timer": -1}, "bad_turn_timer"),
        ({"turn_timer": 601}, "bad_turn_timer"),
    ],
)
def test_bad_settings_are_refused_and_create_nothing(
    class_a: ClassWorld, kwargs: dict[str, Any], code: str
) -> None:
    with pytest.raises(ValidationError) as err:
        session_start(teacher=class_a.teacher, classroom=class_a.classroom, **kwargs)
    assert err.value.code == code
    assert ClassSession.objects.count() == 0


def test_engine_refusals_of_options_come_in_the_active_language(class_a: ClassWorld) -> None:
    for language, words in [("fr", "est un entier de 0 à 10"), ("en", "integer from 0 to 10")]:
        with translation.override(language), pytest.raises(ValidationError) as err:
            session_start(
                teacher=class_a.teacher,
                classroom=class_a.classroom,
                options={"wrong_attempt_penalty": 11},
            )
        assert words in err.value.messages[0]


def test_errors_are_translated(class_a: ClassWorld) -> None:
    with pytest.raises(ValidationError) as err:
        session_start(teacher=class_a.teacher, classroom=class_a.classroom, table_size=9)
    with translation.override("fr"):
        french = err.value.messages[0]
    with translation.override("en"):
        english = err.value.messages[0]
    assert english == "In this game a table seats 2 to 5 players."
    assert french != english and "2" in french and "5" in french


def test_a_second_open_session_is_refused(class_a: ClassWorld) -> None:
    start(class_a.teacher, class_a.classroom)
    with pytest.raises(ValidationError) as err:
        start(class_a.teacher, class_a.classroom)
    assert err.value.code == "already_open"
    assert ClassSession.objects.count() == 1


def test_another_teachers_class_and_session_are_refused(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    with pytest.raises(ValidationError) as err:
        session_start(teacher=class_b.teacher, classroom=class_a.classroom)
    assert err.value.code == "not_your_class"
    session = start(class_a.teacher, class_a.classroom)
    _seated(session, [class_a.student.student, class_a.other_student.student])
    intruder = class_b.teacher
    calls: list[Callable[[], object]] = [
        lambda: session_set_paused(session=session, teacher=intruder, paused=True),
        lambda: session_end(session=session, teacher=intruder),
        lambda: session_seat_now(session=session, teacher=intruder),
        lambda: session_move(
            session=session,
            teacher=intruder,
            student_id=class_a.student.student.pk,
            table_number=None,
        ),
    ]
    for call in calls:
        with pytest.raises(ValidationError) as err:
            call()
        assert err.value.code == "not_your_class"
    session.refresh_from_db()
    assert session.status == ClassSession.Status.OPEN
    assert _statuses(session) == [Table.Status.PLAYING]
    assert SessionMember.objects.filter(table__isnull=True).count() == 0


def test_a_student_of_another_class_cannot_join(class_a: ClassWorld, class_b: ClassWorld) -> None:
    session = start(class_a.teacher, class_a.classroom)
    with pytest.raises(ValidationError) as err:
        session_join(session=session, student=class_b.student.student)
    assert err.value.code == "not_in_class"
    assert SessionMember.objects.count() == 0


def test_a_late_student_can_be_moved_into_a_robots_seat(class_a: ClassWorld) -> None:
    session, _students, lone, _group = _two_tables_with_a_robot(class_a)
    newcomer = make_student(classroom=session.classroom).student
    member = session_join(session=session, student=newcomer, now=at(300))
    assert member.table is None
    moved = session_move(
        session=session, teacher=class_a.teacher, student_id=newcomer.pk, table_number=lone.number
    )
    assert moved.table == lone
    seat = lone.table.seats.get(user=newcomer.user)
    assert seat.name == newcomer.display_name and not seat.is_automatic


def test_ask_why_reaches_every_fractions_table(class_a: ClassWorld) -> None:
    session = start(class_a.teacher, class_a.classroom, ask_reason=True)
    assert session.play_settings["ask_reason"] == 100
    (table,) = _seated(session, [class_a.student.student, class_a.other_student.student])
    assert table.table.play_settings["ask_reason"] == 100


def test_ask_why_is_off_unless_ticked_and_only_for_fractions(class_a: ClassWorld) -> None:
    assert "ask_reason" not in start(class_a.teacher, class_a.classroom).play_settings
    other_class, _students = class_of(class_a.teacher, 2)
    classic = start(class_a.teacher, other_class, ruleset="classic", ask_reason=True)
    assert "ask_reason" not in classic.play_settings
