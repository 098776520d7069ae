"""When the server must act next on a table by itself (a robot's move, the next round, a turn
timer, a look at an awaited player): the NextStep games.driver schedules.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.engine import Game
from games.models import Seat, Table
from games.services.awaiting import _gathering, _not_come, _robot_time_now
from games.services.outcomes import NextStep


def bot_delay() -> float:
    """Return the pause before a bot moves, so players can follow (setting GAMES_BOT_DELAY)."""
    return float(getattr(settings, "GAMES_BOT_DELAY", 1.2))


def round_pause() -> float:
    """Return the pause before an unattended next round starts (setting GAMES_ROUND_PAUSE)."""
    return float(getattr(settings, "GAMES_ROUND_PAUSE", 10.0))


def due_seat(public_view: dict[str, Any]) -> int | None:
    """Return the seat the game waits on, as the engine's view tells it (``acting``)."""
    acting = public_view.get("acting")
    return int(acting) if acting is not None else None


# The soonest the server looks again at a table that waits for a player's signs to stop.
MIN_LOOK_AGAIN = 1.0


def next_step_for(
    table: Table,
    game: Game | None = None,
    seats: list[Seat] | None = None,
    now: datetime | None = None,
) -> NextStep | None:
    """Tell when the server must act next on this table, if ever (`seats`: read if not given).

    A gathering table, or a seat awaited for its arrival, is looked at again when a robot
    may take an awaited seat (robot_time), however long its present player keeps it.
    """
    if table.status != Table.Status.PLAYING:
        return None
    now = now or timezone.now()
    game = game or Game.from_dict(table.state)
    public = game.view(None)
    if public.get("winner") is not None:
        return None
    seats = list(table.seats.all()) if seats is None else seats
    acting = game.acting_seat()
    if _gathering(table) and any(_not_come(table, s) for s in seats):
        return _gathering_step(table, seats, acting, now)
    if public.get("round_over"):
        return NextStep(table.pk, table.state_id, round_pause())
    seat_index = due_seat(public)
    if seat_index is None:
        return None
    seat = next((s for s in seats if s.index == seat_index), None)
    if seat is not None and seat.is_automatic:
        return NextStep(table.pk, table.state_id, bot_delay())
    if seat is not None and (at := _robot_time_now(table, seat, acting, now)):
        return _look_again(table, at, now)
    if table.deadline is not None and table.play_settings.get("turn_timer"):
        delay = max(0.0, (table.deadline - now).total_seconds())
        return NextStep(table.pk, table.state_id, delay)
    return None


def _gathering_step(
    table: Table, seats: list[Seat], acting: int | None, now: datetime
) -> NextStep | None:
    """Plan the look at a gathering table when a robot may take an awaited seat (or never)."""
    times = [
        at
        for s in seats
        if _not_come(table, s) and (at := _robot_time_now(table, s, acting, now)) is not None
    ]
    return _look_again(table, min(times), now) if times else None


def _look_again(table: Table, at: datetime, now: datetime) -> NextStep:
    delay = max(MIN_LOOK_AGAIN, (at - now).total_seconds())
    return NextStep(table.pk, table.state_id, delay)
