"""The signs a seat's links give (games.presence): a connection, every frame, an open link.

Through the real transports (the socket, a POSTed frame): a heartbeat `ping`, or any frame a
page sends, is a sign without wiring of its own; a closed link gives none.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from games import driver, presence
from games.models import Seat, Table
from tests.games.helpers import FRACTIONS_SETUP, make_table, receive_until, socket

pytestmark = [pytest.mark.django_db(transaction=True)]

WAIT = {"arrival_wait": 45}


@pytest.fixture(autouse=True)
def _fresh(settings: Any) -> Any:
    settings.GAMES_BOT_DELAY = 0.01
    presence.forget()
    yield
    presence.forget()
    driver.cancel_all()


def _last_seen(table: Table, index: int) -> Any:
    return Seat.objects.get(table=table, index=index).last_seen


def _age(table: Table, index: int, seconds: int) -> Any:
    """Make the seat's last sign `seconds` old, and forget the write throttle."""
    old = timezone.now() - timedelta(seconds=seconds)
    Seat.objects.filter(table=table, index=index).update(last_seen=old)
    presence.forget()
    return old


async def test_a_socket_that_connects_is_a_sign_and_ends_the_countdown(pair: Any) -> None:
    table = await database_sync_to_async(make_table)(
        list(pair), setup=FRACTIONS_SETUP, table_settings=WAIT
    )
    assert table.deadline is not None  # nobody here yet: the arrival wait is stated
    comm = await socket(table.pk, pair[1])
    assert (await comm.connect())[0]
    await receive_until(comm, "state")
    assert await database_sync_to_async(_last_seen)(table, 1) is not None
    table = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert table.deadline is None  # the child is here: no countdown on any page
    await comm.disconnect()


async def test_every_frame_is_a_sign_a_ping_too(pair: Any) -> None:
    table = await database_sync_to_async(make_table)(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, pair[1])
    assert (await comm.connect())[0]
    await receive_until(comm, "state")
    for frame in ({"type": "ping"}, {"type": "sync"}, {"type": "reason", "code": "x"}):
        old = await database_sync_to_async(_age)(table, 1, 60)
        await comm.send_to(text_data=json.dumps(frame))
        await comm.receive_from(timeout=3)  # its answer (an error for what is not known)
        assert await database_sync_to_async(_last_seen)(table, 1) > old, frame
    await comm.disconnect()


async def test_an_action_is_a_sign_played_or_refused(pair: Any) -> None:
    table = await database_sync_to_async(make_table)(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, pair[1])  # seat 1 plays first
    assert (await comm.connect())[0]
    state = await receive_until(comm, "state")
    old = await database_sync_to_async(_age)(table, 1, 60)
    stale = {"type": "action", "action": {"type": "draw"}, "state_id": state["state_id"] + 5}
    await comm.send_to(text_data=json.dumps(stale))
    assert (await receive_until(comm, "error"))["code"] == "stale_state"
    await receive_until(comm, "state")  # the refusal's current state
    assert await database_sync_to_async(_last_seen)(table, 1) > old
    old = await database_sync_to_async(_age)(table, 1, 60)
    draw = {"type": "action", "action": {"type": "draw"}, "state_id": state["state_id"]}
    await comm.send_to(text_data=json.dumps(draw))
    assert (await receive_until(comm, "state"))["state_id"] == state["state_id"] + 1
    assert await database_sync_to_async(_last_seen)(table, 1) > old
    await comm.disconnect()


async def test_an_open_socket_signs_by_itself_and_a_closed_one_does_not(
    pair: Any, settings: Any
) -> None:
    settings.GAMES_PRESENT_FOR = 0.6  # an open link signs every 0.2 s
    table = await database_sync_to_async(make_table)(list(pair), setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, pair[1])
    assert (await comm.connect())[0]
    await receive_until(comm, "state")
    old = await database_sync_to_async(_age)(table, 1, 60)
    for _ in range(100):  # at most 5 s: the link's own sign comes within 0.2 s
        if await database_sync_to_async(_last_seen)(table, 1) > old:
            break
        await asyncio.sleep(0.05)
    assert await database_sync_to_async(_last_seen)(table, 1) > old
    await comm.disconnect()
    gone = await database_sync_to_async(_age)(table, 1, 60)
    await asyncio.sleep(0.5)  # longer than two of the link's spells: it is closed
    assert await database_sync_to_async(_last_seen)(table, 1) == gone


def test_a_posted_frame_is_a_sign(pair: Any) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    client = Client()
    client.force_login(pair[1])
    old = _age(table, 1, 60)
    response = client.post(
        f"/tables/{table.pk}/frames/", data={"type": "sync"}, content_type="application/json"
    )
    assert response.status_code == 200
    assert _last_seen(table, 1) > old
