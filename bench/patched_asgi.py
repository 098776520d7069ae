"""unoclass's ASGI app with the performance proposals applied in memory (bench-only).

bench/load.py serves this module to measure each proposal of /work/notes/perf-proposals.md
without editing games/*.py. BENCH_PATCHES (comma-separated) chooses them:

- `dispatch`: the table socket skips Channels' per-message hop to the database thread
  (`aclose_old_connections` before every handler); `database_sync_to_async` already closes old
  connections around each real database call.
- `threads`: table actions run on the thread pool (`thread_sensitive=False`), so actions on
  different tables no longer queue behind one database thread per process.
"""

from __future__ import annotations

import os

from channels.db import DatabaseSyncToAsync  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.utils import get_handler_name  # noqa: E402

from games import consumers  # noqa: E402
from unoclass.asgi import application as application  # noqa: F401  (sets Django up)

PATCHES = {p.strip() for p in os.environ.get("BENCH_PATCHES", "").split(",") if p.strip()}


async def _dispatch_without_hop(self: AsyncWebsocketConsumer, message: dict) -> None:  # type: ignore[type-arg]
    handler = getattr(self, get_handler_name(message), None)
    if handler is None:
        raise ValueError(f"No handler for message type {message['type']}")
    await handler(message)


def _pooled(function):  # type: ignore[no-untyped-def]
    return DatabaseSyncToAsync(function, thread_sensitive=False)


if "dispatch" in PATCHES:
    consumers.TableConsumer.dispatch = _dispatch_without_hop  # type: ignore[method-assign]
if "threads" in PATCHES:
    consumers.database_sync_to_async = _pooled  # type: ignore[assignment]
