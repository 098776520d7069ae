"""A player who has not come to a new table does not hold it up (issue 21, point 2).

Without a turn timer, a table with an arrival wait gives a seat whose player has never acted
there a stated time; then a robot plays it until the player comes (they take it back by
playing). A player who has come is never timed, and a turn timer keeps its own rules.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Seat, Table, TableEvent
from games.services import table_act, table_step
from lessons.models import User
from tests.games.helpers import FRACTIONS_SETUP, make_table

pytestmark = pytest.mark.django_db

WAIT = {"arrival_wait": 45}


def _expire(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def test_a_player_who_never_came_is_waited_for_then_played_by_a_robot(
    pair: tuple[User, User],
) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings=WAIT)
    # Seat 1 plays first and has never acted: the wait is stated (the table's deadline).
    assert table.deadline is not None
    left = (table.deadline - timezone.now()).total_seconds()
    assert 40 < left <= 45
    early = table_step(table_id=table.pk, state_id=0)  # not yet due: looked at again later
    assert early is not None and early.events == [] and early.next_step is not None
    assert not TableEvent.objects.filter(table=table).exists()
    assert not Seat.objects.get(table=table, index=1).is_automatic
    _expire(table)
    outcome = table_step(table_id=table.pk, state_id=0)
    assert outcome is not None
    seat = Seat.objects.get(table=table, index=1)
    assert seat.bot_takeover and seat.is_automatic  # the players and the teacher see "robot"
    event = TableEvent.objects.get(table=table)
    assert (event.seat, event.actor) == (1, TableEvent.Actor.BOT)
    # The student comes and plays on their turn: the seat is theirs again.
    table.refresh_from_db()
    _play_out_turn(table, pair[0], 0)
    table_act(table_id=table.pk, user=pair[1], action={"type": "draw"}, state_id=table.state_id)
    seat.refresh_from_db()
    assert not seat.bot_takeover


def _play_out_turn(table: Table, user: User, seat: int) -> None:
    """Draw, then pass while the turn stays with the seat."""
    table_act(table_id=table.pk, user=user, action={"type": "draw"}, state_id=table.state_id)
    table.refresh_from_db()
    while table.state["turn"] == seat:
        table_act(table_id=table.pk, user=user, action={"type": "pass"}, state_id=table.state_id)
        table.refresh_from_db()


def test_a_player_who_has_come_is_never_timed(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings=WAIT)
    table_act(
        table_id=table.pk,
        user=pair[1],
        action={"type": "play", "card": "4/12j", "claim": "equal"},
        state_id=0,
    )
    table.refresh_from_db()
    # Seat 0 (never acted) is now due and waited for; seat 1 has come.
    assert table.deadline is not None
    _play_out_turn(table, pair[0], 0)
    assert table.deadline is None  # seat 1 is due again, and is never timed


def test_without_an_arrival_wait_nothing_is_timed(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    assert table.play_settings["arrival_wait"] == 0 and table.deadline is None


def test_a_turn_timer_keeps_its_own_rules(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings={**WAIT, "turn_timer": 30})
    _expire(table)
    table_step(table_id=table.pk, state_id=0)
    event = TableEvent.objects.get(table=table)
    assert event.actor == TableEvent.Actor.TIMER  # the timer drew for them: no robot yet
    assert not Seat.objects.get(table=table, index=1).bot_takeover
