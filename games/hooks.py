"""Ask the table host (games.host) from games' code: one short call for each question."""

from __future__ import annotations

from typing import Any

from games.host import NO_COMPARE_ASKED, NO_REASON_ASKED, TablePlace, display_name, registered

__all__ = [
    "NO_COMPARE_ASKED",
    "NO_REASON_ASKED",
    "TablePlace",
    "compare_answer",
    "compare_prompt",
    "display_name",
    "may_act_on_seat",
    "may_watch",
    "practice_check",
    "picture_seats",
    "practice_options_for",
    "reason_answer",
    "reason_prompt",
    "replay_url",
    "table_place",
]


def may_watch(user: Any, table: Any) -> bool:
    """Tell whether the host lets this user (not seated) watch the table."""
    return registered().may_watch(user, table)


def may_act_on_seat(user: Any, table: Any, seat_index: int) -> bool:
    """Tell whether the host lets this watching user act on the table's seat."""
    return registered().may_act_on_seat(user, table, seat_index)


def table_place(table: Any) -> TablePlace | None:
    """Return where the table sits in the host's activity, or None."""
    return registered().table_place(table)


def replay_url(table: Any) -> str | None:
    """Return the host's way to another game at its finished practice table, or None."""
    return registered().replay_url(table)


def practice_options_for(user: Any, deck_level: str) -> dict[str, Any]:
    """Return the host's extra options for the user's practice table ({} if none)."""
    return dict(registered().practice_options(user, deck_level))


def picture_seats(table: Any) -> frozenset[int]:
    """Return the seats whose cards show pictures of the fractions now (practice tables)."""
    return frozenset(registered().picture_seats(table))


def practice_check(user: Any) -> None:
    """Raise the host's TableError when the user may not start practice."""
    registered().practice_check(user)


def reason_prompt(table_id: int, user: Any, lang: str) -> dict[str, Any] | None:
    """Return the host's reason prompt for the user's refused play, or None."""
    return registered().reason_prompt(table_id, user, lang)


def reason_answer(table_id: int, user: Any, code: object) -> None:
    """Store the user's answer to the reason prompt; raise TableError when it is refused."""
    registered().reason_answer(table_id, user, code)


def compare_prompt(
    table_id: int, user: Any, example: dict[str, Any], lang: str
) -> dict[str, Any] | None:
    """Return the host's compare question after a refused trap (the example's `compare`)."""
    return registered().compare_prompt(table_id, user, example, lang)


def compare_answer(table_id: int, user: Any, choice: object) -> None:
    """Log the user's answer to the compare question; raise TableError when it is refused."""
    registered().compare_answer(table_id, user, choice)
