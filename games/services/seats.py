"""Seat hand-overs: a robot plays for an absent student or gives the seat back, a seat goes to
a robot for good, a student takes a robot's seat.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games import store
from games.engine import Game
from games.errors import TableError
from games.models import Seat, Table
from games.players import robot_name
from games.services.awaiting import _arm_timer
from games.services.commit import _broadcast_after_commit
from games.services.outcomes import NOT_SEATED, TABLE_FINISHED, Outcome
from games.services.planning import next_step_for
from games.services.table_lock import _lock
from games.services.table_status import _finish


def seat_set_takeover(*, table_id: int, seat_index: int, by_bot: bool) -> Outcome | None:
    """Let a bot play for an absent student (or give the seat back); callers check access."""
    with transaction.atomic():
        locked = _lock(table_id)
        table = locked.table
        seat = next(
            (s for s in locked.seats if s.index == seat_index and s.user_id is not None), None
        )
        if seat is None:
            raise TableError("bad_seat", NOT_SEATED)
        seat.bot_takeover = by_bot
        if by_bot and not seat.bot:
            seat.bot = Seat.Bot.HEURISTIC
        seat.save(update_fields=["bot_takeover", "bot"])
        game = Game.from_dict(table.state)
        _arm_timer(table, game, locked.seats)
        table.save(update_fields=["deadline"])
        _broadcast_after_commit(locked)
        step = next_step_for(table, game, locked.seats)
        state_id = table.state_id
    return Outcome(table_id, state_id, [], step)


NO_FREE_SEAT = _("This table has no robot seat a student could take.")
ALREADY_SEATED = _("This player already has a seat at this table.")
BAD_BOT = _("This kind of robot does not exist.")


def seat_give_to_bot(
    *,
    table_id: int,
    user_id: int,
    bot_kind: str = Seat.Bot.HEURISTIC,
    name: str | None = None,
) -> Outcome:
    """Hand a player's seat to a bot for good; finish the table when no player is left.

    The bot keeps the hand. `name` defaults to the first free "Robot n". A finished table
    keeps its seats as the record. Raises TableError (nothing changed): "bad_bot",
    "not_seated", "finished".
    """
    if bot_kind not in Seat.Bot.values:
        raise TableError("bad_bot", BAD_BOT)
    with transaction.atomic():
        locked = _lock(table_id)
        table, seats = locked.table, locked.seats
        if table.status == Table.Status.FINISHED:
            raise TableError("finished", TABLE_FINISHED)
        seat = next((s for s in seats if s.user_id == user_id), None)
        if seat is None:
            raise TableError("not_seated", NOT_SEATED)
        seat.user = None
        seat.bot = seat.bot or bot_kind
        seat.bot_takeover = False
        seat.name = name or _free_robot_name(seats, seat)
        seat.save(update_fields=["user", "bot", "bot_takeover", "name"])
        if all(s.user_id is None for s in seats):
            _finish(locked)
            return Outcome(table.pk, table.state_id, [], None)
        return _seat_changed(locked, seat.index)


def seat_give_to_user(
    *, table_id: int, user_id: int, name: str, seat_index: int | None = None
) -> Outcome:
    """Seat a player in a bot's seat (the lowest one when `seat_index` is None), with its hand.

    Raises TableError (nothing changed): "finished", "already_seated", "no_free_seat".
    """
    with transaction.atomic():
        locked = _lock(table_id)
        table, seats = locked.table, locked.seats
        if table.status == Table.Status.FINISHED:
            raise TableError("finished", TABLE_FINISHED)
        if any(s.user_id == user_id for s in seats):
            raise TableError("already_seated", ALREADY_SEATED)
        free = [s for s in seats if s.user_id is None and s.bot and seat_index in (None, s.index)]
        if not free:
            raise TableError("no_free_seat", NO_FREE_SEAT)
        seat = min(free, key=lambda s: s.index)
        seat.user_id = user_id
        seat.name = name
        seat.bot_takeover = False
        seat.save(update_fields=["user", "name", "bot_takeover"])
        return _seat_changed(locked, seat.index)


def _seat_changed(locked: store.LockedTable, seat_index: int, *, publish: bool = True) -> Outcome:
    """Re-arm the turn timer if the changed seat is the one due; broadcast after commit.

    A seat that is not due keeps the table's deadline: another player's time is not reset.
    """
    table = locked.table
    game = Game.from_dict(table.state)
    if game.acting_seat() == seat_index:
        _arm_timer(table, game, locked.seats)
        table.save(update_fields=["deadline"])
    update = _broadcast_after_commit(locked, publish=publish)
    step = next_step_for(table, game, locked.seats)
    return Outcome(table.pk, table.state_id, [], step, update)


def _free_robot_name(seats: list[Seat], seat: Seat) -> str:
    taken = {s.name for s in seats if s is not seat}
    number = 1
    while robot_name(number) in taken:
        number += 1
    return robot_name(number)
