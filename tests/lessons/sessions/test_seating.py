"""Seating: balanced tables for every class size, nobody alone, late arrivals, the settle rule."""

from __future__ import annotations

import math

import pytest

from games.engine.options import PLAYER_LIMITS
from games.models import Table
from lessons.models import ClassSession, SessionMember, SessionTable, WarmupRound
from lessons.sessions.services import (
    LONE_WAIT_SECONDS,
    SETTLE_SECONDS,
    plan_table_sizes,
    session_join,
    session_move,
    session_seat_due,
    session_seat_now,
)
from lessons.warmup.services import warmup_answer, warmup_reason
from tests.conftest import ClassWorld
from tests.lessons.sessions.helpers import at, class_of, join_all, start
from tests.lessons.warmup.helpers import scripted
from tests.support.factories import make_teacher


@pytest.mark.parametrize("ruleset", sorted(PLAYER_LIMITS))
def test_plan_is_balanced_and_within_limits_for_every_count(ruleset: str) -> None:
    low, high = PLAYER_LIMITS[ruleset]
    for size in range(low, high + 1):
        for count in range(1, 32):
            plan = plan_table_sizes(count, size)
            assert sum(plan) == count
            assert len(plan) == math.ceil(count / size)
            assert max(plan) - min(plan) <= 1
            assert max(plan) <= size


def test_plan_examples() -> None:
    assert plan_table_sizes(7, 4) == [4, 3]
    assert plan_table_sizes(5, 4) == [3, 2]
    assert plan_table_sizes(9, 4) == [3, 3, 3]
    assert plan_table_sizes(0, 4) == []


def _check_seating(session: ClassSession, count: int) -> None:
    tables = list(SessionTable.objects.filter(session=session).select_related("table"))
    size = session.table_size
    assert len(tables) == math.ceil(count / size)
    humans = []
    for seated in tables:
        table: Table = seated.table
        seats = list(table.seats.all())
        people = [seat for seat in seats if seat.user_id is not None]
        humans.append(len(people))
        assert table.kind == Table.Kind.LESSON and table.ruleset == session.ruleset
        assert table.status == Table.Status.PLAYING
        assert 2 <= len(seats) <= size
        assert people, "a table without any student"
        if len(people) == 1:
            assert len(seats) >= 2  # a lone student plays with bots
        assert {m.student.user_id for m in seated.members.all()} == {s.user_id for s in people}
    assert sum(humans) == count
    assert max(humans) - min(humans) <= 1
    assert not SessionMember.objects.filter(session=session, table__isnull=True).exists()
    assert sorted(t.number for t in tables) == list(range(1, len(tables) + 1))


@pytest.mark.django_db
@pytest.mark.parametrize("count", range(1, 32))
def test_every_class_size_from_1_to_31_is_seated_at_balanced_tables(
    count: int, class_a: ClassWorld
) -> None:
    classroom, students = class_of(class_a.teacher, count)
    session = start(class_a.teacher, classroom)
    join_all(session, students)
    session_seat_due(session=session, now=at(LONE_WAIT_SECONDS))
    _check_seating(session, count)


@pytest.mark.django_db
@pytest.mark.parametrize(("ruleset", "size", "count"), [
    ("fractions", 2, 7), ("fractions", 5, 31), ("fractions", 3, 4), ("classic", 10, 31),
    ("classic", 2, 1), ("family_quick", 6, 13),
])  # fmt: skip
def test_other_sizes_and_rulesets(ruleset: str, size: int, count: int, class_a: ClassWorld) -> None:
    classroom, students = class_of(class_a.teacher, count)
    session = start(class_a.teacher, classroom, ruleset=ruleset, table_size=size)
    join_all(session, students)
    session_seat_due(session=session, now=at(LONE_WAIT_SECONDS))
    _check_seating(session, count)


@pytest.mark.django_db
def test_students_wait_until_nobody_has_joined_for_a_while(class_a: ClassWorld) -> None:
    classroom, students = class_of(class_a.teacher, 7)
    session = start(class_a.teacher, classroom)
    join_all(session, students[:4], seconds=0)
    assert SessionTable.objects.count() == 0
    join_all(session, students[4:], seconds=SETTLE_SECONDS - 2)
    assert session_seat_due(session=session, now=at(SETTLE_SECONDS + 1)) == []
    made = session_seat_due(session=session, now=at(2 * SETTLE_SECONDS))
    assert sorted(t.members.count() for t in made) == [3, 4]


@pytest.mark.django_db
def test_a_lone_student_waits_for_a_partner_then_plays_with_bots(class_a: ClassWorld) -> None:
    classroom, students = class_of(class_a.teacher, 1)
    session = start(class_a.teacher, classroom)
    member = session_join(session=session, student=students[0], now=at(0))
    assert member.table is None
    assert session_seat_due(session=session, now=at(LONE_WAIT_SECONDS - 1)) == []
    (seated,) = session_seat_due(session=session, now=at(LONE_WAIT_SECONDS))
    seats = list(seated.table.seats.all())
    assert len(seats) == 3 and sum(1 for s in seats if s.bot and s.user_id is None) == 2


@pytest.mark.django_db
def test_the_teacher_seats_a_lone_student_at_once(class_a: ClassWorld) -> None:
    classroom, students = class_of(class_a.teacher, 1)
    session = start(class_a.teacher, classroom, table_size=2)
    session_join(session=session, student=students[0], now=at(0))
    (seated,) = session_seat_now(session=session, teacher=class_a.teacher)
    assert seated.table.seats.count() == 2  # never more than the table size


@pytest.mark.django_db
def test_late_arrivals_wait_then_get_a_new_table_together(class_a: ClassWorld) -> None:
    classroom, students = class_of(class_a.teacher, 10)
    session = start(class_a.teacher, classroom)
    join_all(session, students[:8])
    first = session_seat_due(session=session, now=at(SETTLE_SECONDS))
    assert [t.members.count() for t in first] == [4, 4]
    late = session_join(session=session, student=students[8], now=at(100))
    assert late.table is None  # running games cannot take a new player
    session_join(session=session, student=students[9], now=at(105))
    assert session_seat_due(session=session, now=at(110)) == []
    (table,) = session_seat_due(session=session, now=at(115))
    assert table.number == 3 and table.members.count() == 2
    # Joining again changes nothing.
    again = session_join(session=session, student=students[8], now=at(200))
    assert again.table == table and SessionMember.objects.count() == 10


@pytest.mark.django_db
def test_nobody_is_seated_while_the_session_is_paused(class_a: ClassWorld) -> None:
    from lessons.sessions.services import session_set_paused

    classroom, students = class_of(class_a.teacher, 3)
    session = start(class_a.teacher, classroom)
    session_set_paused(session=session, teacher=class_a.teacher, paused=True)
    join_all(session, students)
    assert session_seat_due(session=session, now=at(LONE_WAIT_SECONDS)) == []
    session_set_paused(session=session, teacher=class_a.teacher, paused=False)
    assert len(session_seat_due(session=session, now=at(LONE_WAIT_SECONDS))) == 1


@pytest.mark.django_db
def test_students_of_a_finished_game_get_a_new_game_together(class_a: ClassWorld) -> None:
    from lessons.sessions.overview import session_overview

    classroom, students = class_of(class_a.teacher, 7)
    session = start(class_a.teacher, classroom)
    join_all(session, students)
    first, second = session_seat_due(session=session, now=at(SETTLE_SECONDS))
    together = {m.student_id for m in first.members.all()}
    Table.objects.filter(pk=first.table_id).update(status=Table.Status.FINISHED)
    (again,) = session_seat_due(session=session, now=at(100))
    # The same children at the same table: its number stays (1, 2 within a session, issue 30).
    assert (again.number, again.game) == (1, 2) and again.table.status == Table.Status.PLAYING
    assert {m.student_id for m in again.members.all()} == together
    assert second.members.count() == 3  # the other table plays on
    assert session_seat_due(session=session, now=at(200)) == []
    # The overview leaves out the finished game nobody sits at any more.
    rows = session_overview(session=session).tables
    assert [(t.number, t.table_id) for t in rows] == [(1, again.table_id), (2, second.table_id)]
    # Two games later the tables are still 1 and 2; a move to "table 1" goes to its game now.
    for _ in range(2):
        Table.objects.filter(pk=again.table_id).update(status=Table.Status.FINISHED)
        (again,) = session_seat_due(session=session, now=at(300))
    assert (again.number, again.game) == (1, 4)
    assert [t.number for t in session_overview(session=session).tables] == [1, 2]
    mover = again.members.first()
    assert mover is not None
    for number in (None, 1):  # out to the waiting list, back to its robot's seat
        session_move(
            session=session, teacher=class_a.teacher, student_id=mover.student_id,
            table_number=number,
        )  # fmt: skip
    mover.refresh_from_db()
    assert mover.table == again


@pytest.mark.django_db
def test_a_latecomer_answering_the_warm_up_is_dealt_only_once_done(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scripted(monkeypatch, ask=True)  # "why?" after every answer: each is answered below
    teacher = make_teacher()
    classroom, (ada, bob, cleo) = class_of(teacher, 3)
    session = start(teacher, classroom, warmup=True)
    join_all(session, [ada, bob])
    # The teacher seats Ada and Bob; Cleo has not come yet.
    assert len(session_seat_now(session=session, teacher=teacher)) == 1
    session_join(session=session, student=cleo, now=at(60))
    late = WarmupRound.objects.get(student=cleo)
    assert late.finished_at is None
    # Long after every wait, Cleo is still answering: nobody deals her yet.
    assert session_seat_due(session=session, now=at(3600)) == []
    for choice in ("3/6", "4/12", "8/12"):
        warmup_answer(student=cleo, warmup_id=late.pk, item_number=late.answered + 1, choice=choice)
        warmup_reason(student=cleo, warmup_id=late.pk, reason=None)
        late = WarmupRound.objects.get(pk=late.pk)  # read again (mypy keeps the None above)
    assert late.finished_at is not None
    assert len(session_seat_due(session=session, now=at(3600))) == 1
