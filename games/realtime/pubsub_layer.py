"""The Redis pub/sub channel layer, its group sends leaving together: one round trip for all.

channels_redis' pub/sub layer sends one PUBLISH at a time per Redis connection, behind a lock,
each waiting for Redis' answer: a process published at most one message per turn of its busy
event loop. With two daphne at full speed, a move's other seats got their update long after
the mover got theirs while both processes were half idle (bench/load.py; the figures in docs/
performance.md). Here the group sends that queue while one batch is on its way leave together
as the next batch, in one pipeline, in the order they were asked; each caller still waits for
its own message to be sent, and gets the batch's error if it failed (the delivery ledger keeps
it and the layer watch repairs it: games.realtime.delivery_ledger, layer_watch).

It uses channels_redis 4's own pieces (a loop's layer, its shard connection with its lock and
Redis client): the dependency is pinned below 5, and tests/games/realtime/test_pubsub_layer.py
runs it against a real redis-server.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from channels_redis.pubsub import (  # type: ignore[import-untyped]
    RedisPubSubChannelLayer,
    RedisSingleShardConnection,
)

# Queued publishes: the Redis channel, the serialised message, its caller's future.
Batch = list[tuple[str, bytes, asyncio.Future[None]]]


class PubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """channels_redis' pub/sub layer whose group sends are pipelined per Redis connection."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # One outbox per connection (a connection belongs to one event loop's layer).
        self._outboxes: weakref.WeakKeyDictionary[RedisSingleShardConnection, Outbox] = (
            weakref.WeakKeyDictionary()
        )

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Publish `message` to the group's Redis channel, with the sends waiting beside it."""
        # channels_redis privates here and in Outbox._send: tests/unoclass/test_private_apis.py
        # ::test_channels_redis_pubsub_layer_privates.
        layer = self._get_layer()
        channel = layer._get_group_channel_name(group)
        shard = layer._get_shard(channel)
        outbox = self._outboxes.get(shard)
        if outbox is None:
            outbox = self._outboxes[shard] = Outbox(shard)
        await outbox.publish(channel, self.serialize(message))


class Outbox:
    """The publishes of one Redis connection: sent in order, those waiting in one pipeline."""

    def __init__(self, shard: RedisSingleShardConnection) -> None:
        self.shard = shard
        self.waiting: Batch = []
        self.sender: asyncio.Task[None] | None = None

    async def publish(self, channel: str, data: bytes) -> None:
        """Queue one PUBLISH and wait until its batch is sent (raising the batch's error)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append((channel, data, future))
        if self.sender is None or self.sender.done():
            self.sender = asyncio.create_task(self._send_all())
        # A caller that stops waiting (a deadline) leaves its message in the batch: it may
        # still be sent, as a plain PUBLISH cut short might have been.
        await future

    async def _send_all(self) -> None:
        batch: Batch = []
        try:
            while self.waiting:
                batch, self.waiting = self.waiting, []
                try:
                    await self._send(batch)
                except Exception as exc:  # redis' ConnectionError, TimeoutError…: the callers'
                    _settle(batch, exc)
                else:
                    _settle(batch, None)
        finally:
            # Cancelled (the loop closes): nobody may wait for ever on a batch never sent.
            for _, _, future in [*batch, *self.waiting]:
                future.cancel()
            self.waiting = []

    async def _send(self, batch: Batch) -> None:
        shard = self.shard
        # The connection's own lock: subscribes and unsubscribes keep their order with sends.
        async with shard._lock:
            shard._ensure_redis()
            if len(batch) == 1:
                await shard._redis.publish(batch[0][0], batch[0][1])
                return
            pipe = shard._redis.pipeline(transaction=False)
            for channel, data, _ in batch:
                pipe.publish(channel, data)
            await pipe.execute()


def _settle(batch: Batch, error: Exception | None) -> None:
    for _, _, future in batch:
        if future.done():  # its caller stopped waiting
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
