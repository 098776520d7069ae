"""The one-process channel layer: group sends reach every member, expiry still sweeps."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.layers import get_channel_layer

from games.realtime.process_layer import ProcessChannelLayer


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def layer_with(clock: Clock, **config: Any) -> ProcessChannelLayer:
    layer = ProcessChannelLayer(**config)
    layer.clock = clock
    return layer


def test_the_default_layer_without_redis_is_the_process_layer() -> None:
    assert isinstance(get_channel_layer(), ProcessChannelLayer)


async def test_a_group_send_reaches_every_member_once_each_with_its_own_copy() -> None:
    layer = layer_with(Clock())
    names = [await layer.new_channel() for _ in range(3)]
    for name in names:
        await layer.group_add("table_1", name)
    await layer.group_add("table_2", await layer.new_channel())
    await layer.group_send("table_1", {"type": "table.update", "state": {"hand": ["1/2"]}})
    got = [await asyncio.wait_for(layer.receive(name), 1) for name in names]
    assert [m["state"] for m in got] == [{"hand": ["1/2"]}] * 3
    got[0]["state"]["hand"].append("2/4")  # one receiver's change is not another's
    assert got[1]["state"] == {"hand": ["1/2"]}
    assert all(not layer.channels.get(name) for name in names)  # nothing more queued


async def test_a_full_member_misses_the_message_and_the_others_still_get_it() -> None:
    layer = layer_with(Clock(), capacity=1)
    full, other = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table_1", full)
    await layer.group_add("table_1", other)
    await layer.send(full, {"type": "first"})
    await layer.group_send("table_1", {"type": "second"})
    assert (await layer.receive(full))["type"] == "first"
    assert (await layer.receive(other))["type"] == "second"


async def test_an_unknown_group_is_a_no_op_and_a_bad_group_name_is_refused() -> None:
    layer = layer_with(Clock())
    await layer.group_send("nobody_here", {"type": "x"})
    with pytest.raises(TypeError):
        await layer.group_send("bad name!", {"type": "x"})


async def test_expired_messages_are_swept_at_most_once_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    wall = [5000.0]
    monkeypatch.setattr("channels.layers.time.time", lambda: wall[0])
    layer = layer_with(clock, expiry=60)
    stale, fresh = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table_1", stale)
    await layer.group_add("table_1", fresh)
    await layer.send(stale, {"type": "old"})
    layer._clean_expired()  # the first sweep: nothing expired yet
    wall[0] += 61  # the message is now past its expiry
    clock.now += 0.5
    await layer.group_send("table_1", {"type": "new"})  # within a second: no sweep
    assert set(layer.groups["table_1"]) == {stale, fresh}
    clock.now += 0.6
    await layer.group_send("table_1", {"type": "newer"})  # a second on: swept
    # Channels' rule: a channel whose message expired leaves its groups.
    assert set(layer.groups["table_1"]) == {fresh}
    assert (await layer.receive(stale))["type"] == "new"  # what came after the old one stays


async def test_a_group_send_may_leave_out_the_channel_that_has_the_message() -> None:
    layer = layer_with(Clock())
    mover, other = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table_1", mover)
    await layer.group_add("table_1", other)
    await layer.group_send("table_1", {"type": "table.update"}, skip=mover)
    assert (await asyncio.wait_for(layer.receive(other), 1))["type"] == "table.update"
    assert not layer.channels.get(mover)  # nothing queued for the mover


async def test_publish_leaves_out_the_mover_on_the_process_layer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from games.realtime import publishing

    layer = layer_with(Clock())
    monkeypatch.setattr(publishing, "get_channel_layer", lambda: layer)
    mover, other = await layer.new_channel(), await layer.new_channel()
    for name in (mover, other):
        await layer.group_add("table_1", name)
    assert await publishing.publish("table_1", {"type": "table.update", "state_id": 3}, mover)
    assert (await asyncio.wait_for(layer.receive(other), 1))["state_id"] == 3
    assert not layer.channels.get(mover)
