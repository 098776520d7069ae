"""The public facts about a table that every player may see: seats, status, timer."""

from __future__ import annotations

from typing import Any, Final

from games import hooks
from games.models import Seat, Table

# Pictures of the fractions under the card values (docs/protocol.md, `pictures`).
PICTURES: Final = ("bar", "line")


def pictures_on(table: Table) -> bool:
    """Tell whether the table shows pictures of fractions: a practice table that asked for them.

    Checked again here, not only when the table was made: a class session's table never
    shows them, whatever its settings say.
    """
    return (
        table.kind == Table.Kind.PRACTICE
        and table.ruleset == "fractions"
        and (table.play_settings or {}).get("pictures") in PICTURES
    )


def robot_name(number: int) -> str:
    """Name a robot's seat: "Robot 1" in practice and in class, in French and English alike.

    The name is stored with the seat and read by players of either language, so it is one
    word both languages share; "(robot)" is only added where a robot plays a student's seat.
    """
    return f"Robot {number}"


def table_info(*, table: Table, seats: list[Seat] | None = None) -> dict[str, Any]:
    """Describe the table's seats, status and settings (nothing secret).

    `seats`: the table's seats when the caller holds them (read here otherwise).
    """
    seats = list(table.seats.all()) if seats is None else seats
    info: dict[str, Any] = {
        "id": table.pk,
        "ruleset": table.ruleset,
        "status": table.status,
        "deadline": table.deadline.isoformat() if table.deadline else None,
        "settings": table.play_settings,
        "players": [
            {
                "seat": seat.index,
                "name": seat.name,
                "bot": seat.user_id is None,
                "takeover": seat.bot_takeover,
            }
            for seat in seats
        ],
    }
    if pictures_on(table):
        # Read by state_frame only (each seat its own `pictures`), never sent as it is.
        info["pictures"] = {
            "kind": table.play_settings["pictures"],
            "seats": sorted(hooks.picture_seats(table)),
        }
    return info
