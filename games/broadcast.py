"""Send a table's new state to its Channels group, after the transaction has committed."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def table_group(table_id: int) -> str:
    """Name a table's group from its id (never from user text)."""
    return f"table_{table_id}"


def broadcast_table_update(
    table_id: int,
    state_id: int,
    state: dict[str, Any],
    events: list[dict[str, Any]],
    info: dict[str, Any],
) -> None:
    """Tell every socket of the table that the game moved to `state_id`."""
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(
        table_group(table_id),
        {
            "type": "table.update",
            "state_id": state_id,
            "state": state,
            "events": events,
            "info": info,
        },
    )
