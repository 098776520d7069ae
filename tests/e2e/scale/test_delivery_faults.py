"""Every stored move reaches every seat through Redis faults (issue 14, points 1-2).

Two daphne processes share one Redis (the pub/sub layer) and one database; the four seats of a
table are split two and two. A move is made while Redis is stopped, and just as a restarted
Redis comes back. The clients here never ask for the state: whatever reaches them is what the
server delivered by itself (the mover's own socket, then the layer, repaired after the outage).
Each runs with the socket and with the fallback link (SSE and POST: the mover's own result is
the answer to its POST; tests/e2e/scale/stream_client.py).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

import pytest

from tests.e2e.scale.client import SeatClient, Table, choose_action
from tests.e2e.scale.deployment import audit, check_audit, deploy
from tests.e2e.scale.stream_client import LINKS, StreamSeatClient
from tests.support.live import Daphne, LiveApp
from tests.support.servers import RedisServer
from tests.support.waiting import receive_until, wait_until

pytestmark = pytest.mark.slow

# The mover's own result comes from its own socket, not through the layer: at once.
MOVER_SECONDS = 3.0
# The other seats get it once the layer is back and the process watching it has repaired.
REPAIR_SECONDS = 15.0
# The outage test's deployment retries a Redis command twice (REDIS_RETRIES; waits of 0.1 s
# and 0.2 s) instead of 8 times (about 5.5 s): what it checks follows a publish that gave up,
# and the outage need not outlast the production retries for that.
OUTAGE_RETRIES = "2"
# Far longer than those retries, even on a busy machine: the publish fails.
OUTAGE_SECONDS = 4.0


class TracingClient(SeatClient):
    """A seat client that also notes the state number of every live event frame."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.reached: set[int] = set()

    async def next_frame(self, timeout: float = 10) -> dict[str, Any]:
        """Receive one frame; note the state number it brings (a state or a live event)."""
        frame = await super().next_frame(timeout)
        if frame["type"] == "state" or (frame["type"] == "event" and not frame.get("replay")):
            self.reached.add(int(frame["state_id"]))
        return frame


class TracingStreamClient(TracingClient, StreamSeatClient):
    """The same on the fallback link (SSE and POST)."""


def _clients(servers: list[Daphne], ids: dict[str, Any], link: str) -> list[TracingClient]:
    if link == "stream":
        return [
            TracingStreamClient(server.http, ids["table"], session, server.http)
            for server, session in zip(servers, ids["sessions"], strict=True)
        ]
    return [
        TracingClient(server.ws, ids["table"], session, server.http)
        for server, session in zip(servers, ids["sessions"], strict=True)
    ]


async def _move_now(table: Table) -> tuple[int, TracingClient]:
    """Make the move the game waits on; return the new state number and the mover.

    Every seat has the latest state first, so the move is made on it and is accepted.
    """
    latest = max(client.log.state_id for client in table.clients)
    await table.settle(latest)
    for client in table.clients:
        action = choose_action(client.log.view, table.rng)
        if action is not None:
            await client.act(action)
            table.moves += 1
            return latest + 1, cast(TracingClient, client)
    raise AssertionError("no seat has a move to make")


async def _reaches(client: TracingClient, state_id: int, seconds: float, what: str) -> None:
    """Read frames until the seat has the move (its events or state) and shows that state."""

    def arrived(_frame: object = None) -> bool:
        return state_id in client.reached and client.log.state_id >= state_id

    if not arrived():
        await receive_until(client.next_frame, arrived, seconds, what)


async def _everyone_reaches(table: Table, state_id: int, seconds: float) -> None:
    await asyncio.gather(
        *(
            _reaches(client, state_id, seconds, f"seat {index} to get state {state_id}")
            for index, client in enumerate(cast(list[TracingClient], table.clients))
        )
    )


def _start(
    redis: RedisServer, layer: str = "pubsub", **env: str
) -> tuple[LiveApp, Any, list[Daphne]]:
    redis.start()
    app, ids = deploy({"REDIS_URL": redis.url, "CHANNEL_LAYER": layer, **env})
    first, second = app.start(), app.start()
    return app, ids, [first, second, first, second]


def _check_end(app: LiveApp, ids: Any, table: Table, servers: list[Daphne]) -> None:
    final = audit(app, ids["table"])
    check_audit(final)
    for index, client in enumerate(cast(list[TracingClient], table.clients)):
        missing = set(range(1, final["state_id"] + 1)) - client.reached
        assert not missing, f"seat {index} never got states {sorted(missing)}"
        assert client.log.reconnects == 0, f"seat {index}'s socket closed"
        assert client.log.syncs == 0
        assert client.log.errors == [], f"seat {index} got errors"
    assert final["moves"] == table.moves  # every move made was applied
    for server in set(servers):
        log = server.log()
        assert "Traceback" not in log, log[-3000:]
        assert "Exception inside application" not in log, log[-3000:]


@pytest.mark.parametrize("link", LINKS)
def test_a_move_made_while_redis_is_down_reaches_every_seat_once_it_is_back(link: str) -> None:
    redis = RedisServer()
    app = None
    try:
        app, ids, servers = _start(redis, REDIS_RETRIES=OUTAGE_RETRIES)

        async def scenario() -> Table:
            table = Table(cast(list[SeatClient], _clients(servers, ids, link)))
            for client in table.clients:
                await client.connect()
                await client.next_state()
            for _ in range(3):
                state_id, mover = await _move_now(table)
                await _everyone_reaches(table, state_id, 10)
            await asyncio.to_thread(redis.stop)
            state_id, mover = await _move_now(table)
            started = time.monotonic()
            await _reaches(mover, state_id, MOVER_SECONDS, "the mover's own result")
            assert time.monotonic() - started < MOVER_SECONDS
            # Redis stays away long enough for the publish to give up (its retries end).
            await asyncio.sleep(OUTAGE_SECONDS)
            await asyncio.to_thread(redis.start)
            await _everyone_reaches(table, state_id, REPAIR_SECONDS)
            # Each process said once that the layer was away, and once that it is back.
            await asyncio.to_thread(
                wait_until,
                lambda: all("channel layer reachable again" in s.log() for s in servers),
                10,
                "every process to log that the layer is back",
            )
            # The game goes on as usual.
            for _ in range(3):
                state_id, mover = await _move_now(table)
                await _everyone_reaches(table, state_id, 10)
            for client in table.clients:
                await client.close()
            return table

        table = asyncio.run(scenario())
        _check_end(app, ids, table, servers)
        for server in set(servers):
            assert server.log().count("channel layer unreachable") == 1, server.log()
            assert server.log().count("channel layer reachable again") == 1, server.log()
    finally:
        if app is not None:
            app.close()
        redis.close()


@pytest.mark.parametrize("link", LINKS)
def test_a_move_made_as_a_restarted_redis_comes_back_reaches_every_seat(link: str) -> None:
    redis = RedisServer()
    app = None
    try:
        app, ids, servers = _start(redis)

        async def scenario() -> Table:
            table = Table(cast(list[SeatClient], _clients(servers, ids, link)))
            for client in table.clients:
                await client.connect()
                await client.next_state()
            for _ in range(2):
                state_id, mover = await _move_now(table)
                await _everyone_reaches(table, state_id, 10)
            # The move reaches Redis as soon as it is back (the publish retries meanwhile),
            # or is made the moment it is back; the subscriptions come back a little later.
            for before_return in (0.3, 0.1, 0.0):
                await asyncio.to_thread(redis.stop)
                await asyncio.sleep(1.5 - before_return)
                state_id, mover = await _move_now(table)
                await asyncio.sleep(before_return)
                await asyncio.to_thread(redis.start)
                await _reaches(mover, state_id, MOVER_SECONDS, "the mover's own result")
                await _everyone_reaches(table, state_id, REPAIR_SECONDS)
            for client in table.clients:
                await client.close()
            return table

        table = asyncio.run(scenario())
        _check_end(app, ids, table, servers)
    finally:
        if app is not None:
            app.close()
        redis.close()
