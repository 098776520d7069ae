"""The server's own moves on a table (a robot's, a turn timer's, the next round), and what a
player's coming to the table changes; games.driver runs them when they fall due.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import presence, store
from games.engine import Game
from games.engine.bots import play_bot_step
from games.models import Table, TableEvent
from games.services.awaiting import (
    _arm_timer,
    _arrival_overdue,
    _end_gathering,
    _gather,
    _gathering,
    _give_to_robot,
    _not_come,
    _robot_time_now,
)
from games.services.commit import Actor, _broadcast_after_commit, _commit
from games.services.outcomes import NextStep, Outcome
from games.services.planning import _look_again, due_seat, next_step_for


@contextmanager
def _locked(table_id: int) -> Iterator[store.LockedTable | None]:
    """Lock the table for a server step's transaction; None when it is gone (nothing to do)."""
    with transaction.atomic():
        yield store.lock(table_id)


def table_step(*, table_id: int, state_id: int, now: datetime | None = None) -> Outcome | None:
    """Let the server act once on a table: a bot's move or an expired turn timer.

    Does nothing (returns None) when the table moved on since `state_id` was scheduled, so
    the same step scheduled twice, or in two processes, is applied at most once.
    """
    now = now or timezone.now()
    with _locked(table_id) as locked:
        if locked is None:
            return None
        table = locked.table
        if table.state_id != state_id or table.status != Table.Status.PLAYING:
            return None
        game = Game.from_dict(table.state)
        public = game.view(None)
        if public.get("winner") is not None:
            return None
        if public.get("round_over"):
            events = game.apply(0, {"type": "next_round"})
            return _commit(locked, game, [(0, {"type": "next_round"}, events, Actor.TIMER)], None)
        seat_index = due_seat(public)
        if seat_index is None:
            return None
        gathered = False  # the gathering ends in this step
        if _gathering(table):
            gathered = _step_gathering(locked, game, now)
            if not gathered:  # still awaiting someone: nothing moves, look again later
                step = next_step_for(table, game, locked.seats, now)
                return Outcome(table.pk, table.state_id, [], step)
        return _step_seat(locked, game, seat_index, now, gathered)


def _step_gathering(locked: store.LockedTable, game: Game, now: datetime) -> bool:
    """Give robots to who has left a gathering table; tell whether the gathering is over."""
    table = locked.table
    changed = _gather(locked, game, now)
    gathered = not _gathering(table)
    if changed or gathered:  # seats, settings or the deadline changed: every page hears
        _broadcast_after_commit(locked)
    return gathered


def _step_seat(
    locked: store.LockedTable, game: Game, seat_index: int, now: datetime, gathered: bool
) -> Outcome | None:
    """Act for the due seat: a robot's move, the turn timer's, or a later look at an awaited
    player (`gathered`: the table's gathering has just ended, its next step is planned)."""
    table = locked.table
    seat = next(s for s in locked.seats if s.index == seat_index)
    if not seat.is_automatic and _arrival_overdue(table, seat, seat_index, now):
        _give_to_robot(seat)  # the player never came: a robot plays until they do
    if seat.is_automatic:
        rng = random.Random(table.seed * 1_000_003 + table.state_id)
        step = play_bot_step(game, seat_index, seat.bot, rng, seat.bot_profile or None)
        if step is None:
            return None
        # A wrong attempt that cost a penalty changed the game: it is stored too.
        applied = [(seat_index, w.action, w.events, Actor.BOT) for w in step.wrong if w.events]
        applied.append((seat_index, step.action, step.events, Actor.BOT))
        return _commit(locked, game, applied, None)
    timer = int(table.play_settings.get("turn_timer", 0) or 0)
    if timer and table.deadline is not None and table.deadline <= now:
        action = game.timeout_action(seat_index)
        events = game.apply(seat_index, action)
        turns = _timer_turns_in_a_row(table, seat_index, action, events)
        if turns >= TIMER_TURNS_BEFORE_BOT and not presence.is_present(seat, now):
            _give_to_robot(seat)  # absent: a present child keeps the seat whatever the timer
        return _commit(locked, game, [(seat_index, action, events, Actor.TIMER)], None)
    at = _robot_time_now(table, seat, seat_index, now)
    if at is not None:
        # An awaited player who is present: looked at again when their signs may stop.
        return Outcome(table.pk, table.state_id, [], _look_again(table, at, now))
    if gathered:  # the game goes: its turn timer (if any) is planned from now
        return Outcome(table.pk, table.state_id, [], next_step_for(table, game, locked.seats, now))
    return None


# After this many turns in a row played by the turn timer, a robot plays the seat (with real
# plays, at bot pace) until its student acts again: a table of absent players then finishes.
TIMER_TURNS_BEFORE_BOT = 3


def _timer_turns_in_a_row(
    table: Table, seat_index: int, action: dict[str, Any], events: list[dict[str, Any]]
) -> int:
    """Count the seat's turns the timer played in a row, ending with ``action`` (0 if the
    turn goes on).

    Derived from the stored events (their actor), not kept in the game: who played a move is
    a fact of the table's log, not of the rules, and the engine has no clock. A turn the
    timer played ends with its `pass` or `accept`, or with a `draw` that passed at once; any
    move of the student or of a robot on the seat breaks the run. The `next_round` moves the
    server makes between rounds (stored on seat 0) are no one's turn and are skipped.
    """
    if not _ends_turn(action, events):
        return 0
    turns = 1
    rows = (
        TableEvent.objects.filter(table=table, seat=seat_index)
        .exclude(action__type="next_round")
        .order_by("-seq")
        .values_list("actor", "action", "result")
    )
    for actor, stored, result in rows[: 2 * TIMER_TURNS_BEFORE_BOT]:
        if actor != Actor.TIMER:
            break
        turns += _ends_turn(stored, result)
    return turns


def _ends_turn(action: dict[str, Any], events: list[dict[str, Any]]) -> bool:
    """Tell whether a timer move ended the seat's turn (a draw may leave a card to play)."""
    return action.get("type") != "draw" or any(e.get("type") == "passed" for e in events)


def seat_came(*, table_id: int, seat_index: int, now: datetime | None = None) -> NextStep | None:
    """Let the table know that a seat's player came, or came back (games.presence.mark_seen).

    A gathering table whose last awaited player this is starts its game; a stated arrival
    wait ends. A seat a robot plays stays the robot's until the student acts (or taps "Take
    my seat back"): a page that opens says nothing of who sits before it (docs/engine.md).
    Return the server's next step on the table (the caller plans it), or None.
    """
    now = now or timezone.now()
    with _locked(table_id) as locked:
        if locked is None:
            return None
        table = locked.table
        seat = next((s for s in locked.seats if s.index == seat_index), None)
        if seat is None or seat.user_id is None or table.status == Table.Status.FINISHED:
            return None
        game = Game.from_dict(table.state)
        before = table.deadline
        gathered = _gathering(table) and not any(_not_come(table, s) for s in locked.seats)
        if gathered:
            _end_gathering(table, game, locked.seats, now)
        elif _gathering(table) or not table.play_settings.get("turn_timer"):
            # Only an arrival wait ends here: a running turn timer is not restarted.
            _arm_timer(table, game, locked.seats, now)
            table.save(update_fields=["deadline"])
        if gathered or table.deadline != before:
            _broadcast_after_commit(locked)
        return next_step_for(table, game, locked.seats, now)
