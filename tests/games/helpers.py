"""Helpers for the games tests: scripted tables and their moves, sockets signed in as a user."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from pytest_django.fixtures import Settings

from games import driver
from games.models import Table
from games.services import SeatSpec, table_act, table_create
from lessons.models import User
from unoclass.asgi import application

# Uno Fractions, two students: seat 1 plays first (left of dealer 0) on 1/3.
FRACTIONS_SETUP: dict[str, Any] = {
    "dealer": 0,
    "hands": [
        ["2/6r", "5/6v", "1/2b", "joker"],
        ["4/12j", "2/3r", "10/12v", "1/6b"],
    ],
    "start": "1/3v",
}


def hold_still(settings: Settings) -> Iterator[None]:
    """Keep bots and round pauses from moving during a test; cancel the driver's timers after.

    Use as an autouse fixture: ``_still = pytest.fixture(autouse=True)(hold_still)``.
    """
    settings.GAMES_BOT_DELAY = 3600
    settings.GAMES_ROUND_PAUSE = 3600
    yield
    driver.cancel_all()


def make_table(
    users: Sequence[User | None], *, ruleset: str = "fractions", setup: Any = None, **kw: Any
) -> Table:
    """Seat the users (None = a bot) at a new table."""
    seats = [
        SeatSpec(name=f"Bot {i}", bot="heuristic")
        if user is None
        else SeatSpec(name=str(user.get_username()), user_id=user.pk)
        for i, user in enumerate(users)
    ]
    return table_create(ruleset=ruleset, seats=seats, seed=7, setup=setup, **kw)


def act(
    table: Table,
    user: User,
    action: dict[str, Any],
    counted: AbstractContextManager[Any] | None = None,
) -> None:
    """Apply an action on the stored state; `counted` (a query-count context) wraps only it."""
    table.refresh_from_db()
    with counted or nullcontext():
        table_act(table_id=table.pk, user=user, action=action, state_id=table.state_id)


def session_cookie(user: User) -> bytes:
    """Make a signed-in session for the user and return it as a Cookie header."""
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}; django_language=en".encode()


async def socket(
    table_id: int, user: User | None = None, *, path: str | None = None
) -> WebsocketCommunicator:
    """Open a communicator on a table's socket, signed in as `user` (anonymous when None)."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    return WebsocketCommunicator(application, path or f"/ws/table/{table_id}/", headers=headers)


async def receive_until(
    comm: WebsocketCommunicator, kind: str, timeout: float = 3
) -> dict[str, Any]:
    """Read frames until one of the given type arrives; return it."""
    while True:
        frame: dict[str, Any] = json.loads(await comm.receive_from(timeout=timeout))
        if frame["type"] == kind:
            return frame


async def open_seat(table_id: int, user: User, lang: str = "en") -> WebsocketCommunicator:
    """Open the table's socket signed in as `user` in `lang`; return it after its first state."""
    cookie = (await database_sync_to_async(session_cookie)(user)).replace(
        b"django_language=en", f"django_language={lang}".encode()
    )
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)]
    comm = WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    await receive_until(comm, "state")
    return comm


async def refusal_code(comm: WebsocketCommunicator) -> int | None:
    """Connect and return the close code the server answers with (None: it let us in)."""
    connected, code = await comm.connect()
    if not connected:
        assert code is None or isinstance(code, int), code
        return code
    output = await comm.receive_output(timeout=3)
    if output["type"] != "websocket.close":
        await comm.disconnect()
        return None
    close_code: int | None = output.get("code")
    return close_code
