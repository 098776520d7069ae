"""A teacher watching a session's tables when the session ends: told, and no error (issue 32).

The overview's link follows every table's group; the end of the session sends each table a
`table.notice` ("activity_ended"), and a layer repair sends it `table.repair`. The overview
had no handler for either: "No handler for message type table.notice", a traceback, and the
teacher's link was gone. Both transports that follow groups (the socket and the stream) and the
teacher's own watch of one table are checked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from pytest_django.fixtures import Settings

from games import driver
from games.broadcast import table_group
from games.realtime import layer_watch, publishing
from games.services import ACTIVITY_ENDED
from lessons.sessions.services import session_end
from tests.games.helpers import receive_until, session_cookie
from tests.games.streams import cookie_for, stream
from tests.lessons.sessions.helpers import scripted_session
from tests.lessons.sessions.test_overview import _overview_socket
from unoclass.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _slow_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 60
    yield
    driver.cancel_all()


def _end(session: Any, teacher: Any) -> None:
    session.refresh_from_db()
    session_end(session=session, teacher=teacher)


async def _until_ended(read: Any) -> dict[str, Any]:
    """Read overviews until one shows the session ended (a bounded number); return it."""
    for _ in range(10):
        frame: dict[str, Any] = await read()
        if frame["data"]["status"] == "ended":
            return frame
    raise AssertionError("no overview showed the session ended")


async def test_the_overview_socket_shows_the_end_without_an_error(class_a: Any) -> None:
    session, _table = await database_sync_to_async(scripted_session)(class_a)
    comm = await _overview_socket(session.pk, class_a.teacher)
    connected, _ = await comm.connect(timeout=10)
    assert connected
    await receive_until(comm, "overview")
    await database_sync_to_async(_end)(session, class_a.teacher)
    # A handler missing raised inside the consumer: the communicator re-raises it here.
    await _until_ended(lambda: receive_until(comm, "overview", 5))
    assert await comm.receive_nothing(0.5)
    await comm.disconnect()


async def test_the_overview_stream_shows_the_end_without_an_error(class_a: Any) -> None:
    session, _table = await database_sync_to_async(scripted_session)(class_a)
    s = await stream(f"/sessions/{session.pk}/stream/", await cookie_for(class_a.teacher))
    await s.frame("overview")
    await database_sync_to_async(_end)(session, class_a.teacher)
    await _until_ended(lambda: s.frame("overview", 5))
    assert await s.nothing(0.5)
    await s.disconnect()


async def test_a_repair_nudge_refreshes_the_overview(class_a: Any) -> None:
    # After a layer outage every table's group is told to catch up (games.realtime.layer_watch).
    session, table = await database_sync_to_async(scripted_session)(class_a)
    comm = await _overview_socket(session.pk, class_a.teacher)
    connected, _ = await comm.connect(timeout=10)
    assert connected
    await receive_until(comm, "overview")
    assert await publishing.publish(table_group(table.pk), dict(layer_watch.REPAIR))
    frame = await receive_until(comm, "overview", 5)
    assert frame["data"]["session"] == session.pk
    await comm.disconnect()


async def test_the_teachers_watch_of_a_table_is_told_the_session_ended(class_a: Any) -> None:
    session, table = await database_sync_to_async(scripted_session)(class_a)
    cookie = await database_sync_to_async(session_cookie)(class_a.teacher)
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)]
    comm = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=headers)
    connected, _ = await comm.connect(timeout=10)
    assert connected
    assert (await receive_until(comm, "state"))["view"]["seat"] is None
    await database_sync_to_async(_end)(session, class_a.teacher)
    notice = await receive_until(comm, "notice", 5)
    assert notice == {"type": "notice", "notice": ACTIVITY_ENDED}
    await comm.disconnect()
