"""Caps on event streams (issue 32, finding 5): one sign-in, and one user at one table, hold a
few streams in a process; a newer one ends the oldest with 4409. Raw streams through the app."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from channels.db import database_sync_to_async
from pytest_django.fixtures import Settings

from games import driver
from games.models import Table
from games.realtime.stream_caps import CLOSE_REPLACED, PER_PLACE, PER_SIGNIN, STREAM_CAPS
from lessons.models import User
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, make_table
from tests.games.streams import Stream, cookie_for, stream

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fast_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 0.01
    settings.GAMES_ROUND_PAUSE = 0.01
    yield
    driver.cancel_all()
    STREAM_CAPS.open.clear()
    STREAM_CAPS.keys_of.clear()


async def _table(users: list[User]) -> Table:
    return await database_sync_to_async(make_table)(users, setup=FRACTIONS_SETUP)


async def _opened(path: str, cookie: bytes | None) -> Stream:
    """Open a stream and read its first state (it works)."""
    s = await stream(path, cookie)
    assert (await s.frame("state"))["type"] == "state"
    return s


async def test_a_seat_past_its_cap_ends_the_oldest_stream(pair: tuple[User, User]) -> None:
    table = await _table(list(pair))
    path = f"/tables/{table.pk}/stream/"
    cookie = await cookie_for(pair[1])
    held = [await _opened(path, cookie) for _ in range(PER_PLACE)]
    newest = await _opened(path, cookie)
    assert await held[0].close_code() == CLOSE_REPLACED
    for s in [*held[1:], newest]:
        assert await s.nothing(0.2)  # still open: no close event
        assert not s.ended
        await s.disconnect()


async def test_a_new_sign_in_does_not_escape_the_seat_cap(pair: tuple[User, User]) -> None:
    table = await _table(list(pair))
    path = f"/tables/{table.pk}/stream/"
    held = [await _opened(path, await cookie_for(pair[1])) for _ in range(PER_PLACE)]
    newest = await _opened(path, await cookie_for(pair[1]))  # each one its own session
    assert await held[0].close_code() == CLOSE_REPLACED
    assert await newest.nothing(0.2)
    for s in [*held[1:], newest]:
        await s.disconnect()


async def test_two_seats_count_apart(pair: tuple[User, User]) -> None:
    table = await _table(list(pair))
    path = f"/tables/{table.pk}/stream/"
    first, second = await cookie_for(pair[0]), await cookie_for(pair[1])
    held = [await _opened(path, cookie) for cookie in (first, second) for _ in range(PER_PLACE)]
    for s in held:
        assert await s.nothing(0.1)
        assert not s.ended
        await s.disconnect()


async def test_a_sign_in_past_its_cap_ends_its_oldest_stream(pair: tuple[User, User]) -> None:
    tables = [await _table(list(pair)) for _ in range(PER_SIGNIN + 1)]
    cookie = await cookie_for(pair[1])
    other = await _opened(f"/tables/{tables[0].pk}/stream/", await cookie_for(pair[0]))
    held = [await _opened(f"/tables/{t.pk}/stream/", cookie) for t in tables[:PER_SIGNIN]]
    newest = await _opened(f"/tables/{tables[-1].pk}/stream/", cookie)
    assert await held[0].close_code() == CLOSE_REPLACED
    for s in [*held[1:], newest, other]:  # the other pupil's stream is not counted
        assert await s.nothing(0.1)
        assert not s.ended
        await s.disconnect()


async def test_a_refused_stream_ends_no_other(pair: tuple[User, User], class_b: ClassWorld) -> None:
    table = await _table(list(pair))
    path = f"/tables/{table.pk}/stream/"
    cookie = await cookie_for(pair[1])
    held = [await _opened(path, cookie) for _ in range(PER_PLACE)]
    stranger = await stream(path, await cookie_for(class_b.student.user))
    assert await stranger.close_code() == 4403
    for s in held:
        assert await s.nothing(0.1)
        await s.disconnect()
    assert STREAM_CAPS.open == {}  # every stream that went is no longer counted
