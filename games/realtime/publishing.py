"""Publishing: how a committed change reaches the pages through the channel layer.

Only the outbox (games.outbox) calls these (tests/test_outbox_only.py). A publish never raises
for a layer error and never blocks a worker thread: in daphne it is handed to the loop of the
layer watch (games.realtime.layer_watch) and runs there in the background. A publish that fails
keeps its group in the delivery ledger (games.realtime.delivery_ledger) and wakes the watch,
which nudges the group to catch up from the log once the layer is back.
"""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.realtime import delivery_ledger, layer_watch
from games.realtime.layer_calls import background
from games.realtime.process_layer import ProcessChannelLayer


async def publish(group: str, message: dict[str, Any], skip: str | None = None) -> bool:
    """Send `message` (with a `state_id`) to `group`; keep it for later if the layer fails.

    `skip`: a member channel that has the message already (the one-process layer leaves it
    out; others deliver it and the socket drops it by state number). Never raises for a layer
    error: the caller's transaction has committed, and the update is repaired later. Returns
    whether it went through now.
    """
    layer = get_channel_layer()
    if layer is None:
        return True
    try:
        if isinstance(layer, ProcessChannelLayer):
            await layer.group_send(group, message, skip=skip)
        else:
            await layer.group_send(group, message)
    except Exception as exc:  # redis' ConnectionError, TimeoutError, OSError…: any layer fault
        delivery_ledger.ledger.failed(group, exc)
        layer_watch.wake()
        return False
    delivery_ledger.ledger.moved()
    return True


_publishing: set[asyncio.Task[bool]] = set()


def publish_soon(group: str, message: dict[str, Any], skip: str | None = None) -> None:
    """Publish in the background of the running loop: the caller never waits on the layer.

    While Redis is away, redis-py retries a publish for many seconds: a socket that awaited
    it could not read its player's next frame meanwhile. Publishes start in call order and
    the layer's connection lock serves them in that order.
    """
    task = background(publish(group, message, skip))
    _publishing.add(task)
    task.add_done_callback(_publishing.discard)


async def publishes_done() -> None:
    """Wait until the background publishes started on this loop have ended (tests)."""
    loop = asyncio.get_running_loop()
    mine = [task for task in _publishing if task.get_loop() is loop]
    if mine:
        await asyncio.wait(mine)


def publish_from_thread(group: str, message: dict[str, Any]) -> None:
    """Publish from sync code (a service's on-commit hook); never raises for a layer error.

    In daphne (a watched loop runs) the publish is handed to that loop and not awaited;
    elsewhere (tests, commands, the in-memory layer) it is sent before this returns.
    """
    loop = layer_watch.watched_loop()
    if loop is not None:
        loop.call_soon_threadsafe(publish_soon, group, message)
        return
    async_to_sync(publish)(group, message)


def send_or_log(group: str, message: dict[str, Any]) -> None:
    """Send a message nobody repairs (a sign-out: the sockets check their session anyway).

    Like `publish_from_thread`, never waits on the layer in daphne and never raises.
    """
    loop = layer_watch.watched_loop()
    if loop is not None:
        loop.call_soon_threadsafe(_send_once_soon, group, message)
        return
    async_to_sync(_send_once)(group, message)


def _send_once_soon(group: str, message: dict[str, Any]) -> None:
    task = background(_send_once(group, message))
    _publishing.add(task)
    task.add_done_callback(_publishing.discard)


async def _send_once(group: str, message: dict[str, Any]) -> bool:
    layer = get_channel_layer()
    if layer is None:
        return True
    try:
        await layer.group_send(group, message)
    except Exception as exc:  # any layer fault: the page must not fail for it
        delivery_ledger.ledger.mark_down(exc)
        layer_watch.wake()
        return False
    return True
