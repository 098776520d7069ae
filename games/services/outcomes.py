"""What the table services take and give back: who sits on a new seat, what an applied action
produced, when the server acts next, and the refusals they share (the engine's turned into
the web layer's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engine import IllegalAction
from games.errors import TableError

NOT_SEATED = _("You do not have a seat at this table.")
TABLE_FINISHED = _("This game is over.")


@dataclass(frozen=True)
class SeatSpec:
    """Who sits on a seat when a table is created."""

    name: str
    user_id: int | None = None
    bot: str = ""
    bot_profile: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NextStep:
    """When the server must act on a table by itself (a bot's move or a timer)."""

    table_id: int
    state_id: int
    delay: float


@dataclass(frozen=True)
class Outcome:
    """What an applied action produced."""

    table_id: int
    state_id: int
    events: list[dict[str, Any]]
    next_step: NextStep | None
    # The `table.update` message this action committed (games.broadcast), or None: the mover's
    # link sends it to its own player (`table_act(..., publish=False)`).
    update: dict[str, Any] | None = None


def _details(exc: IllegalAction) -> dict[str, Any]:
    """Return the engine's details of a refusal (a copy)."""
    details = getattr(exc, "details", None)
    return dict(details) if isinstance(details, dict) else {}


def _refusal(exc: IllegalAction) -> TableError:
    """Turn the engine's refusal into the web layer's, keeping its fr and en wording."""
    messages = getattr(exc, "messages", None)
    return TableError(
        exc.code,
        str(exc),
        _details(exc),
        dict(messages) if isinstance(messages, dict) else None,
    )
