"""Send a table's new state to its Channels group, after the transaction has committed.

Through the outbox (games.outbox): a failed publish never fails the action (it is stored);
the delivery ledger (games.realtime.delivery_ledger) marks the table, whose sockets catch up
from the stored log when the layer is back (games.catch_up). A table link that acts gets its
own update back in the service's outcome, sends it to its player first, then passes it on
(games.table_seat).
"""

from __future__ import annotations

import functools
from typing import Any

from games import jsontext, outbox
from games.engine import Game


def table_group(table_id: int) -> str:
    """Name a table's group from its id (never from user text)."""
    return f"table_{table_id}"


def update_message(
    table_id: int,
    state_id: int,
    state: dict[str, Any],
    events: list[dict[str, Any]],
    info: dict[str, Any],
) -> dict[str, Any]:
    """Build a table's `table.update` message: its numbers, then state, events and info as
    one JSON text (`update_body` reads it).

    One text because a layer copies a message for each receiver (the in-memory layer deep-copies
    it, Redis encodes and decodes it): a nested state cost a copy per socket, a string none.
    """
    body = jsontext.dumps({"state": state, "events": events, "info": info})
    return {"type": "table.update", "table_id": table_id, "state_id": state_id, "body": body}


def update_body(message: dict[str, Any]) -> dict[str, Any]:
    """Return the state, events and info of a `table.update` message (shared: read only)."""
    return _read(message["body"])[0]


def update_game(message: dict[str, Any]) -> Game:
    """Return the game of a `table.update` message (shared: read only)."""
    return _read(message["body"])[1]


@functools.lru_cache(maxsize=64)
def _read(body: str) -> tuple[dict[str, Any], Game]:
    # Every socket of a table in this process gets the same update: it is read once, not once
    # a socket (at four seats, reading it per socket was a large share of a move: docs/
    # performance.md). Keyed by the text itself, so a cached
    # reading is always of that very update.
    data: dict[str, Any] = jsontext.loads(body)
    return data, Game.from_dict(data["state"])


def broadcast_table_update(
    table_id: int,
    state_id: int,
    state: dict[str, Any],
    events: list[dict[str, Any]],
    info: dict[str, Any],
) -> dict[str, Any]:
    """Tell every socket of the table, once committed, that the game moved to `state_id`.

    Returns the message (the mover's link sends the same to its own player).
    """
    message = update_message(table_id, state_id, state, events, info)
    outbox.send_on_commit(table_group(table_id), message)
    return message


def broadcast_table_notice(table_id: int, state_id: int, notice: str) -> None:
    """Tell every socket of the table, once committed, a fact outside its game.

    ("activity_ended".) It carries the table's state number, like an update, for the layer's
    repairs.
    """
    message = {"type": "table.notice", "table_id": table_id, "state_id": state_id}
    outbox.send_on_commit(table_group(table_id), {**message, "notice": notice})
