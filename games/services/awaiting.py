"""Whom a table waits for, and until when: the gathering of a class session's new game, the
arrival wait of a player who has not come, and the deadline the players see (the turn timer,
or an absent player's wait). A robot plays the seat of whoever has not come in time.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games import presence, store
from games.engine import Game
from games.models import Seat, Table
from games.services.table_lock import _last_moves


def _not_arrived(table: Table, seat_index: int) -> bool:
    """Tell whether a seat's player has never acted at this table (robots and timer included).

    Read from Table.last_moves; a table without it counts everyone as come.
    """
    last_moves = _last_moves(table)
    return last_moves is not None and seat_index not in last_moves


def _gathering(table: Table) -> bool:
    """Tell whether the table's game still waits for its players to come (setting "gather")."""
    return bool(table.play_settings.get("gather"))


def _not_come(table: Table, seat: Seat) -> bool:
    """Tell whether a player's seat has had no sign of its player at this table, nor a move."""
    return (
        seat.user_id is not None
        and not seat.is_automatic
        and seat.last_seen is None
        and _not_arrived(table, seat.index)
    )


def _awaited(table: Table, seat: Seat, acting: int | None) -> bool:
    """Tell whether a robot may take this seat of a player who has not come (or not played).

    While the table gathers: any seat whose player has not come. Then, on a table without a
    turn timer: the seat the game waits on, if its player has never acted there.
    """
    if seat.user_id is None or seat.is_automatic:
        return False
    if _gathering(table):
        return _not_come(table, seat)
    return (
        not table.play_settings.get("turn_timer")
        and acting == seat.index
        and _not_arrived(table, seat.index)
    )


def robot_time(
    table: Table, seat: Seat, last_sign: datetime | None, acting: int | None
) -> datetime | None:
    """Return when a robot takes an awaited seat if its player gives no sign (None: never).

    The arrival wait runs from the table's start while it gathers, else from the move that
    made the seat due (Table.updated_at; a stated deadline wins); and never ends before
    PRESENT_FOR after the player's last sign (`last_sign`, games.presence.last_sign): a child
    who is there never loses the seat. `acting`: the seat the game waits on.
    """
    wait = int(table.play_settings.get("arrival_wait", 0) or 0)
    if not wait or table.status != Table.Status.PLAYING or not _awaited(table, seat, acting):
        return None
    if table.deadline is not None and not _gathering(table):
        at = table.deadline
    else:
        since = table.created_at if _gathering(table) else table.updated_at
        at = since + timedelta(seconds=wait)
    if last_sign is not None:
        at = max(at, last_sign + presence.present_for())
    return at


def _robot_time_now(table: Table, seat: Seat, acting: int | None, now: datetime) -> datetime | None:
    """Return robot_time with the player's last sign, read only for an awaited seat."""
    if not table.play_settings.get("arrival_wait") or not _awaited(table, seat, acting):
        return None
    return robot_time(table, seat, presence.last_sign(seat, now), acting)


def _arrival_overdue(table: Table, seat: Seat, acting: int | None, now: datetime) -> bool:
    """Tell whether the arrival wait of a seat whose player never came has run out."""
    at = _robot_time_now(table, seat, acting, now)
    return at is not None and at <= now


def _gather(locked: store.LockedTable, game: Game, now: datetime) -> bool:
    """Hand to robots the seats of players who have not come in time and are absent; end the
    gathering once nobody is awaited. Tell whether a seat changed hands."""
    table = locked.table
    changed = False
    for seat in locked.seats:
        if _not_come(table, seat) and _arrival_overdue(table, seat, game.acting_seat(), now):
            _give_to_robot(seat)
            changed = True
    if not any(_not_come(table, seat) for seat in locked.seats):
        _end_gathering(table, game, locked.seats, now)
    return changed


def _end_gathering(table: Table, game: Game, seats: list[Seat], now: datetime) -> None:
    """Let the game go: bots and the turn timer move from now on."""
    table.play_settings = {**table.play_settings, "gather": False}
    _arm_timer(table, game, seats, now)
    table.save(update_fields=["play_settings", "deadline"])


def _give_to_robot(seat: Seat) -> None:
    """Let a robot play an absent student's seat until the student acts again."""
    seat.bot_takeover = True
    seat.bot = seat.bot or Seat.Bot.HEURISTIC
    seat.save(update_fields=["bot_takeover", "bot"])


def _arm_timer(table: Table, game: Game, seats: list[Seat], now: datetime | None = None) -> None:
    """Set the deadline the table's players see: the turn timer, or an absent player's wait.

    The engine's acting seat is the one timed (nobody between rounds or after the game).
    While the table gathers, no turn timer runs. Without a turn timer, only the wait of an
    awaited player who is absent is stated (robot_time): a present one sees no countdown.
    """
    now = now or timezone.now()
    timer = int(table.play_settings.get("turn_timer", 0) or 0)
    wait = int(table.play_settings.get("arrival_wait", 0) or 0)
    table.deadline = None
    if not (timer or wait) or table.status != Table.Status.PLAYING:
        return
    seat_index = game.acting_seat()
    if seat_index is None:
        return
    seat = next((s for s in seats if s.index == seat_index), None)
    if seat is None or seat.is_automatic:
        return
    if timer and not _gathering(table):
        table.deadline = now + timedelta(seconds=timer)
        return
    if not wait or not _awaited(table, seat, seat_index) or presence.is_present(seat, now):
        return
    since = table.created_at if _gathering(table) else now
    table.deadline = since + timedelta(seconds=wait)
