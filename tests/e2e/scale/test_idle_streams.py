"""Idle event streams hold no database connection (docs/protocol.md, "The stream").

A class of streams open all lesson long: if each kept a PostgreSQL connection, 30 pages would
take 30 of the server's connections for nothing. Every query of a stream runs in a worker
thread that closes its connection (games.realtime.asyncdb), so an idle stream has none.
"""

from __future__ import annotations

import asyncio
import time

import psycopg
import pytest

from games.realtime.stream_caps import PER_PLACE
from tests.e2e.scale.deployment import deploy
from tests.e2e.scale.stream_client import seat_client
from tests.support.servers import PostgresCluster

pytestmark = pytest.mark.slow

# As many as one seat may hold in a process: a newer one would end the oldest (4409).
STREAMS_PER_SEAT = PER_PLACE


def _connections(url: str) -> int:
    """Count the other sessions connected to the database of `url`."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    return int(row[0]) if row else 0


def test_open_streams_hold_no_database_connection(postgres_cluster: PostgresCluster) -> None:
    database = postgres_cluster.create_database()
    app, ids = deploy({"DATABASE_URL": database})
    try:
        server = app.start()

        async def scenario() -> int:
            clients = [
                seat_client("stream", server, ids["table"], session)
                for session in ids["sessions"]
                for _ in range(STREAMS_PER_SEAT)
            ]
            for client in clients:
                await client.connect()
                await client.next_state()
            # Each stream has opened (queries done); wait for them to be idle, then count.
            deadline = time.monotonic() + 10
            count = _connections(database)
            while count and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
                count = _connections(database)
            for client in clients:
                await client.close()
            return count

        assert asyncio.run(scenario()) == 0
    finally:
        app.close()
