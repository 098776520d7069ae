"""Store the applied actions of a table with its new state, and broadcast once committed.

Every move ends here, a player's (games.services.moves) or the server's
(games.services.server_steps): the events, the state and the table host's rows go in one
write (games.store), the update leaves after commit (games.broadcast).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games import host, store
from games.broadcast import broadcast_table_update, update_message
from games.engine import Game
from games.models import Table, TableEvent
from games.players import table_info
from games.services.awaiting import _arm_timer
from games.services.outcomes import Outcome
from games.services.planning import next_step_for
from games.services.table_lock import _last_moves

Actor = TableEvent.Actor


Applied = tuple[int, dict[str, Any], list[dict[str, Any]], Actor]


def _commit(
    locked: store.LockedTable,
    game: Game,
    applied: list[Applied],
    user: Any,
    writes: list[store.Write] | None = None,
    *,
    publish: bool = True,
) -> Outcome:
    """Store the applied actions, the new state and the listener's `writes`; broadcast after
    commit (unless the caller publishes the outcome's update itself)."""
    table = locked.table
    first_seq = table.moves + 1
    kept_last_moves = _last_moves(table)
    table.state = game.to_dict()
    table.state_id += 1
    table.moves += len(applied)
    if game.view(None).get("winner") is not None:
        table.status = Table.Status.FINISHED
        host.registered().table_over(table.pk)
    rows = [
        TableEvent(
            table=table,
            seq=first_seq + offset,
            state_id=table.state_id,
            seat=seat_index,
            actor=actor,
            user_id=user.pk if actor == Actor.PLAYER and getattr(user, "pk", None) else None,
            action=action,
            result=events,
        )
        for offset, (seat_index, action, events, actor) in enumerate(applied)
    ]
    # Kept only while whole: an event stored by another path makes it unknown, never wrong.
    table.last_moves = (
        None
        if kept_last_moves is None
        else {
            **{str(k): v for k, v in kept_last_moves.items()},
            **{str(r.seat): r.seq for r in rows},
        }
    )
    _arm_timer(table, game, locked.seats, timezone.now())  # after last_moves: who has come
    store.store(table=table, fields=_MOVE_FIELDS, events=rows, writes=writes or [])
    all_events = [event for _seat, _action, events, _actor in applied for event in events]
    table_id, state_id, state = table.pk, table.state_id, table.state
    info = table_info(table=table, seats=locked.seats)
    update = _update(table_id, state_id, state, all_events, info, publish)
    step = next_step_for(table, game, locked.seats)
    return Outcome(table.pk, table.state_id, all_events, step, update)


def _update(
    table_id: int,
    state_id: int,
    state: dict[str, Any],
    events: list[dict[str, Any]],
    info: dict[str, Any],
    publish: bool,
) -> dict[str, Any]:
    """Build the table's update; queue it for after commit unless the caller publishes it."""
    if publish:
        return broadcast_table_update(table_id, state_id, state, events, info)
    return update_message(table_id, state_id, state, events, info)


_MOVE_FIELDS = ["state", "state_id", "moves", "status", "deadline", "updated_at", "last_moves"]


def _broadcast_after_commit(locked: store.LockedTable, *, publish: bool = True) -> dict[str, Any]:
    """Send the table's unchanged game with its new seats or status, after commit."""
    table = locked.table
    info = table_info(table=table, seats=locked.seats)
    return _update(table.pk, table.state_id, table.state, [], info, publish)
