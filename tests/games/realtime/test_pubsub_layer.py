"""The pub/sub layer's pipelined group sends, against a real redis-server.

Two layer objects stand for two daphne processes: each has its own Redis connections.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from redis.exceptions import ConnectionError

from games.realtime.pubsub_layer import Outbox, PubSubChannelLayer
from tests.support.servers import RedisServer, redis_server

__all__ = ["redis_server"]

DEADLINE = 20.0  # seconds: every wait of these tests ends


def layer_on(server: RedisServer) -> PubSubChannelLayer:
    return PubSubChannelLayer(hosts=[server.url])


async def receive_all(layer: PubSubChannelLayer, channel: str, count: int) -> list[Any]:
    return [await asyncio.wait_for(layer.receive(channel), DEADLINE) for _ in range(count)]


@pytest.fixture
async def layers(redis_server: RedisServer) -> AsyncIterator[tuple[PubSubChannelLayer, ...]]:
    """Two layers on the session's Redis, a sender and a receiver, closed after the test."""
    sender, receiver = layer_on(redis_server), layer_on(redis_server)
    yield sender, receiver
    await sender.flush()
    await receiver.flush()


def send_numbers(layer: PubSubChannelLayer, group: str, numbers: range) -> list[Any]:
    """Start one group send per number, all at once (each a task)."""
    return [asyncio.create_task(layer.group_send(group, {"type": "t", "n": n})) for n in numbers]


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Record the size of every batch an outbox sends."""
    sizes: list[int] = []
    send = Outbox._send

    async def recording(self: Outbox, batch: list[Any]) -> None:
        sizes.append(len(batch))
        await send(self, batch)

    monkeypatch.setattr(Outbox, "_send", recording)
    yield sizes


async def test_sends_asked_together_arrive_in_order_in_few_round_trips(
    layers: tuple[PubSubChannelLayer, ...], batches: list[int]
) -> None:
    sender, receiver = layers
    channel = await receiver.new_channel()
    await receiver.group_add("table_1", channel)
    await asyncio.wait_for(asyncio.gather(*send_numbers(sender, "table_1", range(200))), DEADLINE)
    got = await receive_all(receiver, channel, 200)
    assert [m["n"] for m in got] == list(range(200))
    # One batch went alone (the first), the others waited for it and left together.
    assert sum(batches) == 200 and len(batches) < 10, batches


async def test_one_send_alone_is_delivered_to_every_member(
    layers: tuple[PubSubChannelLayer, ...],
) -> None:
    sender, receiver = layers
    first, second = await receiver.new_channel(), await receiver.new_channel()
    other = await receiver.new_channel()
    for channel in (first, second):
        await receiver.group_add("table_2", channel)
    await receiver.group_add("table_3", other)
    await asyncio.wait_for(sender.group_send("table_2", {"type": "t", "n": 7}), DEADLINE)
    got = [await receive_all(receiver, c, 1) for c in (first, second)]
    assert got == [[{"type": "t", "n": 7}], [{"type": "t", "n": 7}]]
    await asyncio.sleep(0.2)  # time for a wrong delivery to show
    assert receiver._get_layer().channels[other].empty()


async def test_a_caller_that_stops_waiting_does_not_stop_the_others(
    layers: tuple[PubSubChannelLayer, ...],
) -> None:
    sender, receiver = layers
    channel = await receiver.new_channel()
    await receiver.group_add("table_4", channel)
    sends = send_numbers(sender, "table_4", range(20))
    await asyncio.sleep(0)  # all queued; the first batch is on its way
    sends[5].cancel()
    results = await asyncio.wait_for(asyncio.gather(*sends, return_exceptions=True), DEADLINE)
    got = await receive_until_all(receiver, channel, set(range(20)) - {5})
    assert isinstance(results[5], asyncio.CancelledError)
    assert [r for i, r in enumerate(results) if i != 5] == [None] * 19
    # The cancelled caller's message was queued already: it may still go, in its place.
    assert got == sorted(got), got


async def receive_until_all(layer: PubSubChannelLayer, channel: str, wanted: set[int]) -> list[int]:
    """Receive the numbers of `channel` until every number of `wanted` came."""
    got: list[int] = []
    while not wanted <= set(got):
        got.append((await asyncio.wait_for(layer.receive(channel), DEADLINE))["n"])
    return got


async def test_every_caller_of_a_failed_batch_gets_the_error_then_sends_work_again() -> None:
    server = RedisServer()
    server.start()
    sender, receiver = layer_on(server), layer_on(server)
    try:
        channel = await receiver.new_channel()
        await receiver.group_add("table_5", channel)
        await asyncio.wait_for(sender.group_send("table_5", {"type": "t", "n": 0}), DEADLINE)
        assert (await receive_all(receiver, channel, 1))[0]["n"] == 0

        server.stop()
        sends = send_numbers(sender, "table_5", range(1, 6))
        results = await asyncio.wait_for(asyncio.gather(*sends, return_exceptions=True), DEADLINE)
        assert all(isinstance(r, ConnectionError) for r in results), results

        server.start()  # the same port: the layer reconnects by itself
        await asyncio.wait_for(sender.group_send("table_5", {"type": "t", "n": 9}), DEADLINE)
    finally:
        await sender.flush()
        await receiver.flush()
        server.close()
