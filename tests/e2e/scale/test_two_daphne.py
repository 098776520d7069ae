"""The scale-out path: Redis and two daphne processes on one PostgreSQL database, one table
of four split two and two across the processes, played to the end: all four on the socket, and
the socket and the fallback stream side by side (one of each link per process,
docs/protocol.md)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.e2e.scale.client import Table
from tests.e2e.scale.deployment import audit, check_audit, deploy
from tests.e2e.scale.stream_client import seat_client
from tests.support.servers import PostgresCluster, RedisServer

pytestmark = pytest.mark.slow


# The seats' links, in seat order: seats 0 and 1 on the first process, 2 and 3 on the second.
LINK_LAYOUTS = {
    "sockets": ("socket", "socket", "socket", "socket"),
    "both-links": ("socket", "stream", "stream", "socket"),
}


@pytest.mark.parametrize("layout", LINK_LAYOUTS)
def test_four_players_on_two_daphne_processes_play_a_full_game(
    layout: str, redis_server: RedisServer, postgres_cluster: PostgresCluster
) -> None:
    app, ids = deploy(
        {"DATABASE_URL": postgres_cluster.create_database(), "REDIS_URL": redis_server.url}
    )
    try:
        first, second = app.start(), app.start()
        servers = [first, first, second, second]

        async def scenario() -> Table:
            links = LINK_LAYOUTS[layout]
            clients: list[Any] = [
                seat_client(link, server, ids["table"], session)
                for server, link, session in zip(servers, links, ids["sessions"], strict=True)
            ]
            for client in clients:
                await client.connect()
                await client.next_state()
            table = Table(clients)
            await table.play(max_moves=400, seconds=120)
            assert table.over
            final = max(c.log.state_id for c in clients)
            await table.settle(final)
            for client in clients:
                await client.close()
            return table

        table = asyncio.run(scenario())
        found = audit(app, ids["table"])
        assert found["status"] == "finished" and found["winner"] is not None
        check_audit(found)
        assert found["moves"] == table.moves
        for client in table.clients:
            # Every seat saw every state, in order, once: 0, 1, ..., the last.
            assert client.log.connections == [list(range(0, found["state_id"] + 1))]
            assert client.log.problems() == []
            assert client.log.errors == []
    finally:
        app.close()
