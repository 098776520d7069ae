"""Run database work from async code on the thread pool, one call per thread at a time.

Channels' default (`thread_sensitive=True`) runs every database call of a process on one
thread, one after another: under load every table waited for every other table's queries.
Each service call here is self-contained (its own transaction; the table row lock orders
actions on one table, also across processes), and Django's connections are per thread, so
the calls may run side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async


def in_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a sync function so async code can await it on the thread pool."""
    return database_sync_to_async(func, thread_sensitive=False)
