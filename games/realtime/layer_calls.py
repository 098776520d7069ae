"""Awaiting a channel layer call: in the background, and judged by progress, not by speed.

A busy process is not an outage: at full load a layer call waits its turn behind the
process's other publishes and a loop that runs each callback late (games.realtime.layer_watch).
These helpers let a call run as its own task and wait for it in the loop's own time, counting
any other layer call of this process that goes through (`delivery_ledger.ledger.progress`) as
progress.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

from games.realtime import delivery_ledger

T = TypeVar("T")

# The step in which the layer calls' timeouts are counted: each step is one timer of the loop.
TICK = 0.1


def background(call: Awaitable[T]) -> asyncio.Task[T]:
    """Run a layer call as its own task, its failure noted (never "never retrieved")."""
    task = asyncio.ensure_future(call)
    task.add_done_callback(lambda done: done.cancelled() or done.exception())
    return task


async def on_time(task: asyncio.Future[Any], seconds: float) -> bool:
    """Wait for a layer call until it has made no progress for `seconds`; tell if it finished.

    Progress is the call's own end, or any other layer call of this process going through
    (`delivery_ledger.ledger.progress`): at full load a call waits its turn behind the
    process's other publishes, and the turn comes; while Redis is away nothing goes through.

    The seconds are the loop's own time. At full load each turn of the loop can take seconds:
    a wall-clock timer would expire while the call's answer waits its turn behind the sockets'
    work. So the wait is counted in steps of TICK, each one a timer of this loop, and a step
    counts TICK however late its timer fires: the loop's lag is added to the allowance. On an
    idle loop this is `seconds` of the wall clock, as fast as before to notice a real outage.
    """
    steps = max(1, round(seconds / TICK))
    idle = 0
    seen = delivery_ledger.ledger.progress
    while idle < steps:
        done, _pending = await asyncio.wait({task}, timeout=seconds / steps)
        if done:
            return True
        if delivery_ledger.ledger.progress != seen:
            seen, idle = delivery_ledger.ledger.progress, 0
        else:
            idle += 1
    return task.done()


async def within(call: Awaitable[T], seconds: float) -> T:
    """Await a layer call, else raise TimeoutError once it made no progress for `seconds`.

    Unlike asyncio.wait_for, this does not cancel the call: a redis-py call cancelled inside
    its reconnection retries was seen to hang the canceller for good. The late call goes on in
    the background and ends with the layer's own retries.
    """
    task = background(call)
    if not await on_time(task, seconds):
        raise TimeoutError
    result = task.result()
    delivery_ledger.ledger.moved()
    return result
