"""The next table of a session: nobody holds it up, and every page hears the session's end.

Issue 21, point 2: after a game, the next table started with all four seats while only one
child had pressed "Next game"; it waited for ever, and when the teacher ended the session the
pages still showing the last game's end were never told.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.broadcast import table_group
from games.services import ACTIVITY_ENDED, table_finish
from lessons.sessions.services import (
    ARRIVAL_WAIT_ACCESSIBLE_SECONDS,
    ARRIVAL_WAIT_SECONDS,
    LONE_WAIT_SECONDS,
    session_end,
    session_seat_due,
)
from tests.lessons.sessions.helpers import at, class_of, join_all, start

pytestmark = pytest.mark.django_db(transaction=True)


def _seated(session: Any, students: list[Any]) -> list[Any]:
    join_all(session, students)
    return session_seat_due(session=session, now=at(LONE_WAIT_SECONDS))


@pytest.mark.parametrize(
    ("accessible", "wait"), [(False, ARRIVAL_WAIT_SECONDS), (True, ARRIVAL_WAIT_ACCESSIBLE_SECONDS)]
)
def test_every_table_of_a_session_waits_a_stated_time_for_whoever_has_not_come(
    class_a: Any, accessible: bool, wait: int
) -> None:
    classroom, students = class_of(class_a.teacher, 4)
    session = start(class_a.teacher, classroom, accessible=accessible)
    (seated,) = _seated(session, students)
    table = seated.table
    assert table.play_settings["arrival_wait"] == wait
    assert table.play_settings["turn_timer"] == 0
    assert table.deadline is not None  # the first player has not acted: the wait runs


async def _receive(layer: Any, channel: str) -> dict[str, Any]:
    return dict(await asyncio.wait_for(layer.receive(channel), timeout=5))


def test_ending_the_session_reaches_the_pages_of_a_game_already_over(class_a: Any) -> None:
    classroom, students = class_of(class_a.teacher, 2)
    session = start(class_a.teacher, classroom)
    (seated,) = _seated(session, students)
    table_finish(table_id=seated.table_id)  # the game is over: a page shows its end screen
    layer = get_channel_layer()
    assert layer is not None
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(table_group(seated.table_id), channel)
    session_end(session=session, teacher=class_a.teacher, now=at(600))
    message = async_to_sync(_receive)(layer, channel)
    assert message["type"] == "table.notice"
    assert message["notice"] == ACTIVITY_ENDED
    assert message["table_id"] == seated.table_id


def test_the_overview_shows_the_wait_for_a_student_who_has_not_come(class_a: Any) -> None:
    from django.utils import timezone

    from lessons.sessions.overview import session_overview

    classroom, students = class_of(class_a.teacher, 2)
    session = start(class_a.teacher, classroom)
    (seated,) = _seated(session, students)
    overview = session_overview(session=session, now=timezone.now())
    (table,) = overview.tables
    waited = [seat for seat in table.seats if seat.waited_on]
    assert len(waited) == 1
    assert waited[0].robot_in is not None and 0 < waited[0].robot_in <= ARRIVAL_WAIT_SECONDS
    # The game gathers: each student who has not come is waited for the same stated time.
    assert all(seat.robot_in == waited[0].robot_in and seat.absent for seat in table.seats)
