"""The public facts about a table that every player may see: seats, status, timer."""

from __future__ import annotations

from typing import Any

from games.models import Seat, Table


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
    return {
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
