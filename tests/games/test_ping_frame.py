"""The page's heartbeat (docs/protocol.md, "ping"): `ping` gets `pong` on the socket and on a
POST; a ping with anything more, or too long, gets its error, changes nothing, and the link
stays open."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import driver
from games.models import Table, TableEvent
from games.protocol import MAX_FRAME_BYTES
from tests.games.helpers import FRACTIONS_SETUP, make_table, receive_until, session_cookie, socket
from tests.games.streams import cookie_for, post_frame
from unoclass.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True)]

# A ping with something more than its type: each gets `bad_ping` (or the frame check's code).
BAD_PINGS = {
    "an extra field": ({"type": "ping", "at": 12}, "bad_ping"),
    "a state id": ({"type": "ping", "state_id": 0}, "bad_ping"),
    "an action riding along": (
        {"type": "ping", "action": {"type": "play", "card": "4/12j", "claim": "equal"}},
        "bad_ping",
    ),
    "a 3 KB string": ({"type": "ping", "x": "y" * 3000}, "bad_ping"),
    "a huge payload": ({"type": "ping", "x": "y" * (MAX_FRAME_BYTES + 10)}, "too_large"),
    "deep nesting": ({"type": "ping", "x": [[[[[[[[[[1]]]]]]]]]]}, "too_deep"),
    "a lone surrogate": ('{"type": "ping", "x": "\\ud800"}', "bad_json"),
}


@pytest.fixture(autouse=True)
def _slow_bots(settings: Any) -> Any:
    settings.GAMES_BOT_DELAY = 60  # nothing moves by itself during these tests
    yield
    driver.cancel_all()


def _text(frame: Any) -> str:
    return frame if isinstance(frame, str) else json.dumps(frame)


def _stored(table_id: int) -> tuple[Any, ...]:
    table = Table.objects.get(pk=table_id)
    events = list(TableEvent.objects.filter(table=table).values_list("seq", "action"))
    return table.state, table.state_id, table.moves, table.status, events


async def test_a_ping_gets_a_pong_and_nothing_else(pair: Any) -> None:
    table = await database_sync_to_async(make_table)(list(pair), setup=FRACTIONS_SETUP)
    before = await database_sync_to_async(_stored)(table.pk)
    comm = await socket(table.pk, pair[1])
    assert (await comm.connect())[0]
    await receive_until(comm, "state")
    for _ in range(3):
        await comm.send_to(text_data='{"type": "ping"}')
        assert json.loads(await comm.receive_from(timeout=3)) == {"type": "pong"}
    assert await comm.receive_nothing(timeout=0.2)
    assert await database_sync_to_async(_stored)(table.pk) == before
    await comm.disconnect()


async def test_a_watching_teacher_gets_a_pong_too(class_a: Any, pair: Any) -> None:
    table = await database_sync_to_async(make_table)(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, class_a.teacher)
    assert (await comm.connect())[0]
    await receive_until(comm, "state")
    await comm.send_to(text_data='{"type": "ping"}')
    assert json.loads(await comm.receive_from(timeout=3)) == {"type": "pong"}
    await comm.disconnect()


@pytest.mark.parametrize("case", list(BAD_PINGS))
async def test_a_bad_ping_gets_its_error_and_changes_nothing(pair: Any, case: str) -> None:
    frame, code = BAD_PINGS[case]
    table = await database_sync_to_async(make_table)(list(pair), setup=FRACTIONS_SETUP)
    before = await database_sync_to_async(_stored)(table.pk)
    comm = await socket(table.pk, pair[1])
    assert (await comm.connect())[0]
    await receive_until(comm, "state")
    await comm.send_to(text_data=_text(frame))
    error = json.loads(await comm.receive_from(timeout=3))
    assert error["type"] == "error" and error["code"] == code, error
    assert error["message"].strip()
    # The socket stays open and still answers the heartbeat.
    await comm.send_to(text_data='{"type": "ping"}')
    assert json.loads(await comm.receive_from(timeout=3)) == {"type": "pong"}
    assert await database_sync_to_async(_stored)(table.pk) == before
    await comm.disconnect()


async def test_a_bad_ping_is_refused_in_french(pair: Any) -> None:
    table = await database_sync_to_async(make_table)(list(pair), setup=FRACTIONS_SETUP)
    cookie = await database_sync_to_async(session_cookie)(pair[1])
    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", cookie.replace(b"django_language=en", b"django_language=fr")),
    ]
    comm = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=headers)
    assert (await comm.connect())[0]
    await receive_until(comm, "state")
    await comm.send_to(text_data='{"type": "ping", "at": 1}')
    error = json.loads(await comm.receive_from(timeout=3))
    assert error["message"] == "Un ping ne porte que son type."
    await comm.disconnect()


async def test_a_posted_ping_gets_a_pong_in_the_answer(pair: Any) -> None:
    table = await database_sync_to_async(make_table)(list(pair), setup=FRACTIONS_SETUP)
    before = await database_sync_to_async(_stored)(table.pk)
    path = f"/tables/{table.pk}/frames/"
    cookie = await cookie_for(pair[0])
    answer = await post_frame(path, cookie, {"type": "ping"})
    assert (answer.status, answer.body) == (200, {"frames": [{"type": "pong"}]})
    bad = await post_frame(path, cookie, {"type": "ping", "at": 1})
    assert bad.status == 200 and [f["code"] for f in bad.body["frames"]] == ["bad_ping"]
    huge = await post_frame(path, cookie, {"type": "ping", "x": "y" * (MAX_FRAME_BYTES + 10)})
    assert [f["code"] for f in huge.body["frames"]] == ["too_large"]
    signed_out = await post_frame(path, None, {"type": "ping"})
    assert signed_out.status == 401 and signed_out.body == {"frames": [], "close": 4401}
    assert await database_sync_to_async(_stored)(table.pk) == before
