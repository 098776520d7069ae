"""A move at a class-session table while Redis is away (issue 32): the mover still gets it.

A play at a session's table stores an attempt, which tells the teacher's overview (the
session's group) after commit. That publish was a blocking `async_to_sync(group_send)`: with
Redis stopped it raised once its retries gave up, after the move had committed, so `table_act`
raised, the mover's socket got no state and the error escaped the consumer. It now goes the
way the table's own broadcasts go (games.realtime.publishing): handed to the socket's loop, never
waited on, and a failure keeps the group for the repair nudge once Redis is back.

Against a real redis-server (the session's throwaway one, stopped and started again here).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from redis.asyncio.retry import Retry
from redis.backoff import ConstantBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games import driver
from games.realtime import delivery_ledger, publishing
from lessons.live.session_updates import session_group
from tests.games.helpers import receive_until, session_cookie
from tests.lessons.sessions.helpers import scripted_session
from tests.support.servers import RedisServer, redis_server
from unoclass.asgi import application

__all__ = ["redis_server"]

pytestmark = [pytest.mark.django_db(transaction=True)]

PLAY = {"type": "play", "card": "4/12j", "claim": "equal"}  # seat 1's right play on 1/3


@pytest.fixture
async def redis_layer(
    settings: Any, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[RedisServer]:
    """Use the pub/sub layer on the real Redis, giving up a command after two quick retries.

    The ledger is this test's own (it is the process's), and Redis is running again after.
    """
    settings.GAMES_BOT_DELAY = 60
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.realtime.pubsub_layer.PubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": redis_server.url,
                        "retry": Retry(ConstantBackoff(0.05), 2),
                        "retry_on_error": [RedisConnectionError, RedisTimeoutError],
                    }
                ]
            },
        }
    }
    monkeypatch.setattr(delivery_ledger, "ledger", delivery_ledger.Ledger())
    try:
        yield redis_server
    finally:
        driver.cancel_all()
        if redis_server.process is None or redis_server.process.poll() is not None:
            redis_server.start()
        layer = get_channel_layer()
        if layer is not None and hasattr(layer, "flush"):
            # The layer's connections to the stopped server are gone anyway.
            with contextlib.suppress(Exception):
                await layer.flush()


async def test_a_move_at_a_session_table_while_redis_is_away_reaches_the_mover(
    redis_layer: RedisServer, class_a: Any
) -> None:
    session, table = await database_sync_to_async(scripted_session)(class_a)
    cookie = await database_sync_to_async(session_cookie)(class_a.other_student.user)
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)]
    comm = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=headers)
    connected, _ = await comm.connect(timeout=10)
    assert connected
    first = await receive_until(comm, "state", 10)
    assert first["view"]["seat"] == 1
    redis_layer.stop()
    await comm.send_json_to({"type": "action", "action": PLAY, "state_id": first["state_id"]})
    # The mover's own result comes from its own socket, whatever the layer does. A publish
    # that raised escaped the consumer: receiving re-raises it here.
    moved = await receive_until(comm, "state", 15)
    assert moved["state_id"] == first["state_id"] + 1
    await publishing.publishes_done()
    # The overview's update failed: its group waits for the repair nudge, as a table's does.
    assert session_group(session.pk) in delivery_ledger.ledger.take_kept()
    await comm.disconnect(timeout=10)
