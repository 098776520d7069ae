"""Faults during a game: a daphne process killed with SIGKILL, Redis restarted. Each runs with
the socket and with the fallback link (SSE and POST: tests/e2e/scale/stream_client.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import websockets

from tests.e2e.scale.client import SeatClient, Table
from tests.e2e.scale.deployment import audit, check_audit, deploy
from tests.e2e.scale.stream_client import LINKS, seat_client
from tests.support.live import Daphne
from tests.support.servers import RedisServer

pytestmark = pytest.mark.slow


def _clients(servers: list[Daphne], ids: dict[str, Any], link: str) -> list[SeatClient]:
    return [
        seat_client(link, server, ids["table"], session)
        for server, session in zip(servers, ids["sessions"], strict=True)
    ]


async def _open_all(clients: list[SeatClient]) -> None:
    for client in clients:
        await client.connect()
        await client.next_state()


@pytest.mark.parametrize("link", LINKS)
def test_sigkill_of_a_daphne_process_mid_game_loses_nothing(link: str) -> None:
    redis = RedisServer()
    app = None
    try:
        redis.start()
        app, ids = deploy({"REDIS_URL": redis.url})
        first, second = app.start(), app.start()
        servers = [first, first, second, second]

        async def scenario() -> tuple[Table, dict, dict]:  # type: ignore[type-arg]
            table = Table(_clients(servers, ids, link))
            await _open_all(table.clients)
            await table.play(max_moves=5)
            before = await asyncio.to_thread(audit, app, ids["table"])
            await table.settle(before["state_id"])
            first.kill()
            for client in table.clients[:2]:
                with pytest.raises(websockets.ConnectionClosed):
                    await client.next_frame(timeout=10)
            # The page reconnects with backoff while the process comes back.
            restarting = asyncio.create_task(asyncio.to_thread(first.start))
            for client in table.clients[:2]:
                await client.reconnect()
                await client.next_state()
                assert client.log.state_id == before["state_id"]
            await restarting
            after_restart = await asyncio.to_thread(audit, app, ids["table"])
            await table.play(max_moves=400, seconds=120)
            assert table.over
            for client in table.clients:
                await client.close()
            return table, before, after_restart

        table, before, after_restart = asyncio.run(scenario())
        assert before["moves"] == 5
        check_audit(before)
        # The crash lost nothing and added nothing.
        assert after_restart == before
        final = audit(app, ids["table"])
        check_audit(final)
        assert final["status"] == "finished" and final["moves"] == table.moves
        for client in table.clients:
            assert client.log.problems() == []
        assert [c.log.reconnects for c in table.clients] == [1, 1, 0, 0]
    finally:
        if app is not None:
            app.close()
        redis.close()


@pytest.mark.parametrize(
    ("layer", "link"), [("pubsub", "socket"), ("core", "socket"), ("pubsub", "stream")]
)
def test_play_continues_after_a_redis_restart(layer: str, link: str) -> None:
    """channels_redis reconnects by itself, and the layer's connections retry (settings), so with
    the pub/sub layer no socket (nor stream) dies with Redis; what was published while Redis was
    away is lost, so the clients send `sync` after a silent spell (as the play page does), and
    reconnect when a socket closes: the game goes on.

    The core layer keeps groups in Redis: the restarted Redis forgot every table's group, and
    no layer call failed. Each process's watch must notice (a probe through its own group is
    lost) and subscribe its sockets again; before it did, the game went on only through the
    clients' idle syncs, one move every IDLE_SYNC_SECONDS."""
    redis = RedisServer()
    app = None
    try:
        redis.start()
        app, ids = deploy({"REDIS_URL": redis.url, "CHANNEL_LAYER": layer})
        first, second = app.start(), app.start()

        async def scenario() -> Table:
            table = Table(_clients([first, second, first, second], ids, link))
            await _open_all(table.clients)
            await table.play(max_moves=4)
            state_id = (await asyncio.to_thread(audit, app, ids["table"]))["state_id"]
            await table.settle(state_id)
            await asyncio.to_thread(redis.restart)
            await table.play(max_moves=400, seconds=120)
            assert table.over
            for client in table.clients:
                await client.close()
            return table

        table = asyncio.run(scenario())
        final = audit(app, ids["table"])
        check_audit(final)
        # An action sent on a socket that died with Redis was never applied: at most as many.
        assert final["status"] == "finished" and final["moves"] <= table.moves
        for client in table.clients:
            assert client.log.problems() == [], (client.log.connections, client.log.errors)
        if layer == "core":
            for server in (first, second):
                assert "channel layer reachable again" in server.log(), server.log()[-2000:]
        if layer == "pubsub":
            # With the core layer some sockets of a process may still close (their receive
            # loop fails with Redis); their pages reconnect, as above.
            assert [c.log.reconnects for c in table.clients] == [0, 0, 0, 0]
    finally:
        if app is not None:
            app.close()
        redis.close()
