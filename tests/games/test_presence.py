"""A child who is there never loses the seat to a robot (issue 30, section 1, point 1).

A turn's wrong play, the "why?" question and reading the explanation used to take the whole
arrival wait of a table with no turn timer: a refused card stores no move, so the child
counted as "not come", the page counted 45 s down and a robot took the seat. Presence
(games.presence) is what a child's pages tell: every frame and every connection is a sign;
PRESENT_FOR after the last one the child is absent and the robot rules apply. Clocks are
moved, never slept on.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import presence
from games.errors import TableError
from games.models import Seat, Table, TableEvent
from games.players import table_info
from games.services import next_step_for, table_act, table_step
from games.table_seat import _mark_seen
from tests.games.helpers import FRACTIONS_SETUP, make_table

pytestmark = pytest.mark.django_db

# No turn timer ("Temps par tour : 0"), the class session's arrival wait.
WAIT = {"arrival_wait": 45}


@pytest.fixture(autouse=True)
def _fresh_throttle() -> Any:
    presence.forget()
    yield
    presence.forget()


def _seat(table: Table, index: int) -> Seat:
    return Seat.objects.get(table=table, index=index)


def _wrong_play(table: Table, user: Any) -> None:
    """Seat 1 claims 2/3 equal to 1/3: refused, nothing stored (a judged play)."""
    with pytest.raises(TableError):
        table_act(
            table_id=table.pk,
            user=user,
            action={"type": "play", "card": "2/3r", "claim": "equal"},
            state_id=0,
        )


def _sign(table: Table, seat: int, now: datetime) -> None:
    """What a seat's link does with a frame it receives, or when it connects."""
    _mark_seen(table.pk, seat, now)


def test_a_child_who_thinks_after_a_wrong_play_keeps_the_seat_and_sees_no_countdown(
    pair: Any,
) -> None:
    start = timezone.now()
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings=WAIT)
    _sign(table, 1, start)  # the child's page connects: the countdown goes
    table.refresh_from_db()
    assert table.deadline is None
    assert table_info(table=table)["deadline"] is None  # the page hides its timer row
    _wrong_play(table, pair[1])
    _sign(table, 1, start + timedelta(seconds=20))  # the refused play's frame
    _sign(table, 1, start + timedelta(seconds=40))  # the "why?" answer's frame
    # 60 s later, reading the explanation: still theirs, nobody counts down.
    later = start + timedelta(seconds=100)
    outcome = table_step(table_id=table.pk, state_id=0, now=later)
    assert outcome is not None and outcome.events == []  # looked at again, nothing done
    seat = _seat(table, 1)
    assert not seat.bot_takeover and not seat.is_automatic
    assert not TableEvent.objects.filter(table=table).exists()
    table.refresh_from_db()
    assert table.deadline is None
    # The server looks again when the child's signs may have stopped, not before.
    step = next_step_for(table, now=later)
    assert step is not None
    assert step.delay == pytest.approx((presence.PRESENT_FOR - timedelta(seconds=60)).seconds)


def test_a_child_gone_silent_for_present_for_is_absent_and_a_robot_plays(pair: Any) -> None:
    start = timezone.now()
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings=WAIT)
    _sign(table, 1, start)
    _wrong_play(table, pair[1])
    # The page closed at `start`: just before PRESENT_FOR the seat is still theirs.
    almost = start + presence.PRESENT_FOR - timedelta(seconds=1)
    table_step(table_id=table.pk, state_id=0, now=almost)
    assert not _seat(table, 1).bot_takeover
    gone = start + presence.PRESENT_FOR + timedelta(seconds=1)
    outcome = table_step(table_id=table.pk, state_id=0, now=gone)
    assert outcome is not None and outcome.events  # a robot played the turn
    assert _seat(table, 1).bot_takeover
    event = TableEvent.objects.get(table=table)
    assert (event.seat, event.actor) == (1, TableEvent.Actor.BOT)


def test_a_page_that_opens_does_not_take_a_robots_seat_back(pair: Any) -> None:
    """Acting, or "Take my seat back", gives it back (docs/engine.md): a tablet left open
    that reconnects says nothing of who sits before it."""
    start = timezone.now()
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings=WAIT)
    Table.objects.filter(pk=table.pk).update(deadline=start - timedelta(seconds=1))
    table_step(table_id=table.pk, state_id=0, now=start)  # never came: a robot plays
    assert _seat(table, 1).bot_takeover
    _sign(table, 1, start + timedelta(seconds=5))  # their page opens
    assert _seat(table, 1).bot_takeover


def test_signs_are_written_at_most_every_few_seconds(pair: Any) -> None:
    start = timezone.now()
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings=WAIT)
    assert presence.mark_seen(table_id=table.pk, seat_index=1, now=start)  # comes
    soon = start + presence.WRITE_EVERY - timedelta(seconds=1)
    assert not presence.write_due(table_id=table.pk, seat_index=1, now=soon)
    assert not presence.mark_seen(table_id=table.pk, seat_index=1, now=soon)
    assert _seat(table, 1).last_seen == start  # not written again
    later = start + presence.WRITE_EVERY
    assert not presence.mark_seen(table_id=table.pk, seat_index=1, now=later)  # stays
    assert _seat(table, 1).last_seen == later
    back = later + presence.PRESENT_FOR
    assert presence.mark_seen(table_id=table.pk, seat_index=1, now=back)  # comes back


def test_a_sign_after_one_this_process_wrote_recently_is_one_statement(
    pair: Any, django_assert_num_queries: Any
) -> None:
    start = timezone.now()
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    assert presence.mark_seen(table_id=table.pk, seat_index=1, now=start)  # comes
    later = start + presence.WRITE_EVERY
    with django_assert_num_queries(1):  # the write only: the player is known to be there
        assert not presence.mark_seen(table_id=table.pk, seat_index=1, now=later)
    assert _seat(table, 1).last_seen == later
    presence.forget()  # another process, or a restart: the row is read again
    back = later + presence.PRESENT_FOR
    with django_assert_num_queries(2):
        assert presence.mark_seen(table_id=table.pk, seat_index=1, now=back)  # comes back


def test_a_seat_without_a_player_keeps_no_sign(pair: Any) -> None:
    now = timezone.now()
    table = make_table([pair[0], None], setup=FRACTIONS_SETUP)
    assert not presence.mark_seen(table_id=table.pk, seat_index=1, now=now)
    assert not presence.mark_seen(table_id=table.pk, seat_index=1, now=now + presence.PRESENT_FOR)
    assert _seat(table, 1).last_seen is None


def test_any_seat_of_the_child_tells_they_are_there(pair: Any) -> None:
    now = timezone.now()
    old = make_table(list(pair), setup=FRACTIONS_SETUP)
    new = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings=WAIT)
    seat = _seat(new, 1)
    assert not presence.is_present(seat, now)
    presence.mark_seen(table_id=old.pk, seat_index=1, now=now)  # the last game's end screen
    assert presence.is_present(seat, now + timedelta(seconds=30))
    assert not presence.is_present(seat, now + presence.PRESENT_FOR)
    assert presence.last_signs([pair[1].pk, pair[0].pk]) == {pair[1].pk: now}


def test_with_a_turn_timer_a_present_child_is_never_handed_to_a_robot(pair: Any) -> None:
    now = timezone.now()
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings={**WAIT, "turn_timer": 20})
    for turn in range(16):  # the timer plays every turn of both seats: 3 in a row each
        table.refresh_from_db()
        assert table.deadline is not None
        now = table.deadline + timedelta(seconds=1)
        _sign(table, 0, now)
        _sign(table, 1, now)
        presence.forget()
        outcome = table_step(table_id=table.pk, state_id=table.state_id, now=now)
        assert outcome is not None, turn
    assert not Seat.objects.filter(table=table, bot_takeover=True).exists()
    assert set(TableEvent.objects.filter(table=table).values_list("actor", flat=True)) == {
        TableEvent.Actor.TIMER
    }


def test_with_a_turn_timer_an_absent_child_is_handed_to_a_robot_as_before(pair: Any) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings={**WAIT, "turn_timer": 20})
    for _turn in range(16):
        table.refresh_from_db()
        if table.deadline is None:
            break
        now = table.deadline + timedelta(seconds=1)
        table_step(table_id=table.pk, state_id=table.state_id, now=now)
    assert Seat.objects.filter(table=table, bot_takeover=True).exists()


def test_without_a_turn_timer_a_passed_deadline_never_plays_for_a_child(pair: Any) -> None:
    """An arrival deadline is no turn timer: once the child has come, it plays nothing."""
    start = timezone.now()
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings=WAIT)
    table_act(table_id=table.pk, user=pair[1], action={"type": "draw"}, state_id=0)
    # A stale arrival deadline on a seat that has acted (a table saved by an older server).
    Table.objects.filter(pk=table.pk).update(deadline=start - timedelta(seconds=1))
    table.refresh_from_db()
    table_step(table_id=table.pk, state_id=table.state_id, now=start + timedelta(seconds=600))
    assert not TableEvent.objects.filter(actor=TableEvent.Actor.TIMER).exists()
