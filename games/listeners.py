"""What a move tells the table host (games.host), inside the move's transaction.

The host (lessons: its attempt log) reads what the move tells it (and its own row of the seat,
read by the table lock) and returns the rows it wants written; `games.services` stores them
with the move (games.store), so they commit with the move or not at all, always before the
move is broadcast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Model

from games.store import Insert, Update, Write

__all__ = ["Insert", "JudgedPlay", "PlayerAction", "Update", "Write"]


@dataclass(frozen=True)
class JudgedPlay:
    """A fraction play the engine judged, right or wrong, before anything is broadcast."""

    table_id: int
    seat: int
    user_id: int | None
    action: dict[str, Any]
    view_before: dict[str, Any]
    accepted: bool
    # The seat's row id (games.Seat.pk).
    seat_id: int = 0
    error_code: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    # Milliseconds between the state the player saw being committed and this play.
    response_ms: int | None = None
    # The table's stored actions before this play (TableEvent.seq of the last one): lets a
    # listener tell the plays of one turn from the next.
    moves: int = 0
    # The host's own row of this seat (games.host.TableHost.seat_row), or None.
    seat_row: Model | None = None
    # Each seat's last stored action (TableEvent.seq), or None when the table does not know
    # it (a table older than Table.last_moves): then a listener asks the database.
    last_moves: dict[int, int] | None = None
    # The practice table's "pictures" setting is on (docs/protocol.md, `pictures`): the host
    # tells whether this play was made with the pictures shown.
    pictures: bool = False


@dataclass(frozen=True)
class PlayerAction:
    """Any action a player (not a bot or a timer) had applied, with the view they acted on."""

    table_id: int
    ruleset: str
    seat: int
    user_id: int | None
    action: dict[str, Any]
    view_before: dict[str, Any]
    events: list[dict[str, Any]]
    response_ms: int | None = None
    moves: int = 0
    # The seat's row id (games.Seat.pk).
    seat_id: int = 0
    seat_row: Model | None = None
    last_moves: dict[int, int] | None = None
