"""unoclass's ASGI app with the performance proposals applied in memory (bench-only).

bench/load.py serves this module to measure each proposal of /work/notes/perf-proposals.md
without editing games/*.py. BENCH_PATCHES (comma-separated) chooses them:

(Since commit 1e010c8 games/consumers.py does `dispatch` and `threads` itself: those two
patches are then no-ops, kept to measure older revisions.)

- `dispatch`: the table socket skips Channels' per-message hop to the database thread
  (`aclose_old_connections` before every handler); `database_sync_to_async` already closes old
  connections around each real database call.
- `threads`: table actions run on the thread pool (`thread_sensitive=False`), so actions on
  different tables no longer queue behind one database thread per process.
- `compact`: a table's update travels through the channel layer as one JSON string (the
  in-memory layer deep-copies a dict message for every recipient), and each process decodes it
  and rebuilds the game once per state, not once per seat.
"""

from __future__ import annotations

import json
import os
from typing import Any

from unoclass.asgi import application as application  # noqa: F401  (sets Django up first)

# isort: split
from asgiref.sync import async_to_sync
from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.utils import translation

from games import consumers
from games.broadcast import table_group
from games.engine import Game
from games.protocol import event_frames
from games.services import commit

PATCHES = {p.strip() for p in os.environ.get("BENCH_PATCHES", "").split(",") if p.strip()}


async def _dispatch_without_hop(self: AsyncWebsocketConsumer, message: dict) -> None:  # type: ignore[type-arg]
    handler = getattr(self, get_handler_name(message), None)
    if handler is None:
        raise ValueError(f"No handler for message type {message['type']}")
    await handler(message)


def _pooled(function):  # type: ignore[no-untyped-def]
    return DatabaseSyncToAsync(function, thread_sensitive=False)


def _compact_broadcast(table_id: int, state_id: int, state: Any, events: Any, info: Any) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    payload = json.dumps([state, events, info])
    async_to_sync(layer.group_send)(
        table_group(table_id), {"type": "table.update", "state_id": state_id, "payload": payload}
    )


_decoded: dict[tuple[int, str], tuple[Game, list[Any], dict[str, Any]]] = {}


def _decode(table_id: int, payload: str) -> tuple[Game, list[Any], dict[str, Any]]:
    key = (table_id, payload)  # a seats-only update has the same state_id: key on the payload
    found = _decoded.get(key)
    if found is None:
        state, events, info = json.loads(payload)
        found = (Game.from_dict(state), events, info)
        if len(_decoded) > 2000:
            _decoded.clear()
        _decoded[key] = found
    return found


async def _compact_table_update(self: Any, message: dict[str, Any]) -> None:
    state_id = message["state_id"]
    game, events, info = _decode(self.table_id, message["payload"])
    if not events:
        await self._refresh_access()  # seats or status changed (as TableConsumer does)
        return
    if state_id <= self.last_state_id:
        return
    with translation.override(self.lang):
        for frame in event_frames(events, self.seat, info, self.lang):
            frame["state_id"] = state_id
            await self.send(text_data=json.dumps(frame))
        await self._send_state(game, state_id, info)


if "compact" in PATCHES:
    commit.broadcast_table_update = _compact_broadcast  # type: ignore[assignment]
    consumers.TableConsumer.table_update = _compact_table_update  # type: ignore[method-assign]
if "dispatch" in PATCHES:
    consumers.TableConsumer.dispatch = _dispatch_without_hop  # type: ignore[method-assign]
if "threads" in PATCHES:
    consumers.database_sync_to_async = _pooled  # type: ignore[assignment]
