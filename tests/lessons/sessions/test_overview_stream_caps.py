"""The teacher's overview stream counts against the stream caps (games.realtime.stream_caps):
past two of one session's overview, the oldest ends with 4409; another session's is apart."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from pytest_django.fixtures import Settings

from games import driver
from games.realtime.stream_caps import CLOSE_REPLACED, PER_PLACE
from tests.conftest import ClassWorld
from tests.games.streams import cookie_for, stream
from tests.lessons.sessions.helpers import scripted_session

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _slow_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 60
    yield
    driver.cancel_all()


# An overview's first frame reads the whole session: on a loaded machine it took over 3 s.
SLOW = 15.0


async def _overview(path: str, cookie: bytes | None) -> Any:
    s = await stream(path, cookie, timeout=SLOW)
    assert (await s.frame("overview", timeout=SLOW))["type"] == "overview"
    return s


async def test_a_third_overview_stream_ends_the_oldest(class_a: ClassWorld) -> None:
    session, _table = await database_sync_to_async(scripted_session)(class_a)
    path = f"/sessions/{session.pk}/stream/"
    held = [await _overview(path, await cookie_for(class_a.teacher)) for _ in range(PER_PLACE)]
    newest = await _overview(path, await cookie_for(class_a.teacher))
    assert await held[0].close_code(timeout=SLOW) == CLOSE_REPLACED
    for s in [*held[1:], newest]:
        assert await s.nothing(0.2)
        assert not s.ended
        await s.disconnect()
