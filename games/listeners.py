"""What another app does with a move, inside the move's transaction: one typed listener.

`lessons` registers its attempt log once at start-up (AppConfig.ready), so that the
dependency goes one way only: lessons -> games. The listener reads what the move tells it
(and its own row of the seat, read by the table lock) and returns the rows it wants written;
`games.services` stores them with the move (games.store), so they commit with the move or not
at all, always before the move is broadcast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from django.db.models import Model

from games.store import Insert, Update, Write

__all__ = [
    "Insert",
    "JudgedPlay",
    "MoveListener",
    "PlayerAction",
    "Update",
    "Write",
    "register",
    "registered",
]


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
    # The listener's own row of this seat (MoveListener.seat_row), or None.
    seat_row: Model | None = None
    # Each seat's last stored action (TableEvent.seq), or None when the table does not know
    # it (a table older than Table.last_moves): then a listener asks the database.
    last_moves: dict[int, int] | None = None


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


class MoveListener(Protocol):
    """Listen to the moves of every table, inside each move's transaction."""

    @property
    def seat_row(self) -> type[Model] | None:
        """Name a model with a one-to-one `seat` key to games.Seat, read with the seats by
        the table lock (its row of the acting seat comes in `seat_row`), or None."""
        ...

    def judged_play(self, play: JudgedPlay) -> list[Write]:
        """Return the rows to write for a judged fraction play (accepted or refused)."""
        ...

    def player_action(self, record: PlayerAction) -> list[Write]:
        """Return the rows to write for any action a player had applied."""
        ...


class _Silent:
    """The listener while no app registered one: nothing to write."""

    seat_row: type[Model] | None = None

    def judged_play(self, play: JudgedPlay) -> list[Write]:
        return []

    def player_action(self, record: PlayerAction) -> list[Write]:
        return []


_registered: MoveListener = _Silent()


def register(listener: MoveListener) -> None:
    """Make `listener` the one every move is passed to (lessons, at start-up)."""
    global _registered
    _registered = listener


def registered() -> MoveListener:
    """Return the registered listener (a silent one when none is)."""
    return _registered
