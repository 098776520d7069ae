"""A class session's seating deadlines are server steps (games.driver), not the overview's.

The students are dealt at their time with no overview open and no waiting page asking; a
step that arrives twice, early or late deals each student once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games import driver
from games.models import Table
from games.services import NextStep, table_finish
from lessons.attempts.hooks import SESSION_STEP
from lessons.models import SessionMember, SessionTable
from lessons.sessions.services import (
    LONE_WAIT_SECONDS,
    MIN_LOOK_AGAIN,
    SETTLE_SECONDS,
    session_join,
    session_pending_step,
    session_seat_now,
    session_step,
)
from tests.lessons.sessions.helpers import at, class_of, join_all, start


@pytest.fixture(autouse=True)
def _clean_driver() -> Iterator[None]:
    driver.cancel_all()
    yield
    driver.cancel_all()


def _seated() -> set[int]:
    return set(SessionMember.objects.filter(table__isnull=False).values_list("pk", flat=True))


@pytest.mark.django_db
def test_the_step_deals_the_settled_class_once_and_plans_their_tables(class_a: Any) -> None:
    classroom, students = class_of(class_a.teacher, 5)
    session = start(class_a.teacher, classroom)
    join_all(session, students)
    pending = session_pending_step(session=session, now=at(0))
    assert pending == driver.HostStep(SESSION_STEP, session.pk, float(SETTLE_SECONDS))
    # Early (a student joined meanwhile, say): nothing is dealt, it looks again at the time.
    (again,) = session_step(session.pk, now=at(SETTLE_SECONDS - 4))
    assert again == driver.HostStep(SESSION_STEP, session.pk, 4.0)
    assert _seated() == set()
    # Late: the whole class is dealt, and each new table's first step is returned.
    steps = session_step(session.pk, now=at(SETTLE_SECONDS + 30))
    tables = SessionTable.objects.all()
    assert len(tables) == 2 and len(_seated()) == 5
    planned = {s.table_id for s in steps if isinstance(s, NextStep)}
    assert planned <= {t.table_id for t in tables}
    assert not [s for s in steps if isinstance(s, driver.HostStep)]  # nobody left waiting
    # Twice: nothing more.
    assert session_step(session.pk, now=at(SETTLE_SECONDS + 31)) == []
    assert SessionTable.objects.count() == 2 and Table.objects.count() == 2


@pytest.mark.django_db
def test_a_lone_student_waits_for_company_then_the_step_deals_them(class_a: Any) -> None:
    classroom, (student,) = class_of(class_a.teacher, 1)
    session = start(class_a.teacher, classroom)
    session_join(session=session, student=student, now=at(0))
    pending = session_pending_step(session=session, now=at(SETTLE_SECONDS))
    assert pending is not None and pending.delay == LONE_WAIT_SECONDS - SETTLE_SECONDS
    session_step(session.pk, now=at(LONE_WAIT_SECONDS - 1))
    assert _seated() == set()
    session_step(session.pk, now=at(LONE_WAIT_SECONDS))
    assert len(_seated()) == 1


@pytest.mark.django_db
def test_a_step_with_nothing_due_never_spins(class_a: Any) -> None:
    classroom, students = class_of(class_a.teacher, 2)
    session = start(class_a.teacher, classroom)
    join_all(session, students)
    (again,) = session_step(session.pk, now=at(SETTLE_SECONDS - 0.01))
    assert isinstance(again, driver.HostStep) and again.delay >= MIN_LOOK_AGAIN
    assert session_step(10**9) == []  # no such session


@pytest.mark.django_db
def test_a_paused_or_ended_session_has_no_deadline(class_a: Any) -> None:
    from lessons.sessions.services import session_end, session_set_paused

    classroom, students = class_of(class_a.teacher, 2)
    session = start(class_a.teacher, classroom)
    join_all(session, students)
    session_set_paused(session=session, teacher=class_a.teacher, paused=True)
    session.refresh_from_db()
    assert session_pending_step(session=session, now=at(100)) is None
    assert session_step(session.pk, now=at(100)) == [] and _seated() == set()
    session_end(session=session, teacher=class_a.teacher)
    session.refresh_from_db()
    assert session_pending_step(session=session, now=at(100)) is None


def _joined_long_ago(class_a: Any) -> Any:
    classroom, students = class_of(class_a.teacher, 3)
    session = start(class_a.teacher, classroom)
    long_ago = timezone.now() - timedelta(seconds=SETTLE_SECONDS + 5)
    join_all(session, students[:2])
    SessionMember.objects.update(joined_at=long_ago)
    # The last one joins now, through the service, as a sign-in does: it plans the deal.
    session_join(session=session, student=students[2], now=long_ago)
    return session


async def _until(check: Any, seconds: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not await database_sync_to_async(check)():
        assert asyncio.get_running_loop().time() < deadline, "the step never ran"
        await asyncio.sleep(0.05)


@pytest.mark.django_db(transaction=True)
async def test_the_driver_deals_the_class_with_no_overview_open(class_a: Any) -> None:
    session = await database_sync_to_async(_joined_long_ago)(class_a)
    # Nothing but the driver runs: no overview socket, no waiting page.
    await _until(lambda: SessionMember.objects.filter(table__isnull=False).count() == 3)
    assert await database_sync_to_async(SessionTable.objects.filter(session=session).count)() == 1


def _seat_then_finish(class_a: Any) -> tuple[Any, int]:
    classroom, students = class_of(class_a.teacher, 2)
    session = start(class_a.teacher, classroom)
    join_all(session, students)
    (old,) = session_seat_now(session=session, teacher=class_a.teacher)
    table_finish(table_id=old.table_id)
    return session, old.table_id


@pytest.mark.django_db(transaction=True)
async def test_a_finished_table_gets_its_next_game_with_no_overview_open(class_a: Any) -> None:
    session, old = await database_sync_to_async(_seat_then_finish)(class_a)
    await _until(lambda: SessionTable.objects.filter(session=session, game=2).exists())
    new = await database_sync_to_async(SessionTable.objects.get)(session=session, game=2)
    assert new.number == 1 and new.table_id != old
    # The finished table's step, planned again (a second process, a late timer): no third game.
    await database_sync_to_async(session_step)(session.pk)
    assert not await database_sync_to_async(SessionTable.objects.filter(game=3).exists)()


def _waiting_class(class_a: Any) -> tuple[int, Any]:
    classroom, students = class_of(class_a.teacher, 2)
    session = start(class_a.teacher, classroom)
    for student in students:  # now: their deal falls due in SETTLE_SECONDS
        session_join(session=session, student=student, now=timezone.now())
    return session.pk, students[0]


def _waiting_page(session_id: int, student: Any) -> None:
    from django.urls import reverse

    from tests.support.factories import student_client

    response = student_client(student).get(reverse("session_play", args=[session_id]))
    assert response.status_code == 200 and 'id="waiting-check"' in response.content.decode()
    assert not SessionMember.objects.filter(table__isnull=False).exists()  # changed nothing
    assert not Table.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_the_waiting_page_only_plans_the_pending_deal_again(class_a: Any) -> None:
    session_id, student = await database_sync_to_async(_waiting_class)(class_a)
    await asyncio.sleep(0)  # the joins' plans reach the loop
    driver.cancel_all()  # a restarted server: nothing planned
    # A sync view under daphne runs in a worker thread of the loop, as here.
    await database_sync_to_async(_waiting_page)(session_id, student)
    await _until(lambda: (SESSION_STEP, session_id) in driver._host_pending, SETTLE_SECONDS / 2)
