"""A table's stored record: replay it from its seed and actions, rename a player in it."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.engine import Game
from games.models import Seat, Table, TableEvent


def table_replay(table: Table) -> Game:
    """Replay a table from its seed and stored actions (the audit of what was played)."""
    game = Game.new(
        table.ruleset,
        table.seats.count(),
        options=table.options or None,
        seed=table.seed,
        setup=table.setup,
    )
    for event in table.events.order_by("seq"):
        game.apply(event.seat, event.action)
    return game


def _replace_strings(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_replace_strings(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: _replace_strings(item, old, new) for key, item in value.items()}
    return value


def player_name_replace(*, user_id: int, old: str, new: str) -> None:
    """Rename a player in their seats, and the name in those tables' states and logs.

    For erasure and pseudonymisation of a pupil (lessons.school.erasure): the other players'
    games go on, and the old name is left nowhere.
    """
    with transaction.atomic():
        seats = list(Seat.objects.filter(user_id=user_id))
        table_ids = {seat.table_id for seat in seats}
        for table in Table.objects.select_for_update().filter(pk__in=table_ids).order_by("pk"):
            table.state = _replace_strings(table.state, old, new)
            table.save(update_fields=["state"])
        Seat.objects.filter(user_id=user_id).update(name=new)
        for event in TableEvent.objects.filter(table_id__in=table_ids):
            action = _replace_strings(event.action, old, new)
            result = _replace_strings(event.result, old, new)
            if action != event.action or result != event.result:
                event.action, event.result = action, result
                event.save(update_fields=["action", "result"])
