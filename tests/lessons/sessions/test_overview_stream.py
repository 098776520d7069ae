"""The overview's fallback link: its event stream and POSTed `sync` (docs/protocol.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from games import driver
from games.services import table_act
from lessons.live.session_updates import session_changed
from tests.conftest import ClassWorld
from tests.games.streams import cookie_for, post_frame, stream
from tests.lessons.sessions.helpers import scripted_session
from tests.lessons.sessions.test_overview import OVERVIEW_BAD_FRAMES

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _slow_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 60
    yield
    driver.cancel_all()


async def _session(class_a: Any) -> Any:
    session, table = await database_sync_to_async(scripted_session)(class_a)
    return session, table


async def test_the_teacher_stream_sends_the_overview_and_follows_moves(class_a: ClassWorld) -> None:
    session, table = await _session(class_a)
    s = await stream(f"/sessions/{session.pk}/stream/", await cookie_for(class_a.teacher))
    first = await s.event()
    assert first.data["type"] == "overview" and first.data["data"]["session"] == session.pk
    assert first.id is None  # each overview is whole: nothing to resume from

    def play() -> None:
        action = {"type": "play", "card": "4/12j", "claim": "equal"}
        table_act(table_id=table.pk, user=class_a.other_student.user, action=action, state_id=0)

    await database_sync_to_async(play)()
    again = await s.frame("overview", timeout=5)
    assert again["html"] != first.data["html"]
    text = json.dumps(again)
    # Never a hand: no card of the students' hands that was not played is in the frame.
    assert '"2/3r"' not in text
    await s.disconnect()


async def test_a_posted_sync_answers_with_the_overview(class_a: ClassWorld) -> None:
    session, _table = await _session(class_a)
    answer = await post_frame(
        f"/sessions/{session.pk}/frames/", await cookie_for(class_a.teacher), {"type": "sync"}
    )
    assert answer.status == 200
    assert [f["type"] for f in answer.frames] == ["overview"]
    # Without the page's CSRF token, or from another site: Django's 403, nothing answered.
    for kwargs in ({"csrf": False}, {"origin": b"https://evil.example"}):
        refused = await post_frame(
            f"/sessions/{session.pk}/frames/",
            await cookie_for(class_a.teacher),
            {"type": "sync"},
            **kwargs,
        )
        assert refused.status == 403 and "frames" not in refused.body


@pytest.mark.parametrize(("frame", "code"), OVERVIEW_BAD_FRAMES)
async def test_a_bad_posted_frame_gets_the_socket_error(
    class_a: ClassWorld, frame: dict[str, Any], code: str
) -> None:
    session, _table = await _session(class_a)
    raw = frame["text_data"].encode() if "text_data" in frame else b"\xff" + frame["bytes_data"]
    answer = await post_frame(
        f"/sessions/{session.pk}/frames/", await cookie_for(class_a.teacher), None, raw=raw
    )
    assert answer.status == 200
    assert [f["code"] for f in answer.frames] == [code]


async def test_posted_syncs_share_the_overview_rate_limit(class_a: ClassWorld) -> None:
    session, _table = await _session(class_a)
    cookie = await cookie_for(class_a.teacher)
    path = f"/sessions/{session.pk}/frames/"
    kinds = [
        [f["type"] if f["type"] != "error" else f["code"] for f in a.frames]
        for a in [await post_frame(path, cookie, {"type": "sync"}) for _ in range(8)]
    ]
    assert kinds[:5] == [["overview"]] * 5
    assert ["rate_limited"] in kinds[5:]


async def test_refusals_of_the_overview_stream_and_post(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    session, _table = await _session(class_a)
    for user, code in (
        (None, 4401),
        (class_a.student.user, 4403),
        (class_b.teacher, 4403),
    ):
        cookie = await cookie_for(user)
        s = await stream(f"/sessions/{session.pk}/stream/", cookie)
        first = await s.event()
        assert (first.name, first.data) == ("close", {"code": code})
        answer = await post_frame(f"/sessions/{session.pk}/frames/", cookie, {"type": "sync"})
        assert answer.status == {4401: 401, 4403: 403}[code]
        assert answer.body == {"frames": [], "close": code}


async def test_signing_out_ends_the_overview_stream(class_a: ClassWorld) -> None:
    session, _table = await _session(class_a)

    def signed_in_tab() -> tuple[Client, bytes]:
        client = Client()
        client.force_login(class_a.teacher)
        key = client.cookies[django_settings.SESSION_COOKIE_NAME].value
        return client, f"{django_settings.SESSION_COOKIE_NAME}={key}".encode()

    tab, cookie = await database_sync_to_async(signed_in_tab)()
    s = await stream(f"/sessions/{session.pk}/stream/", cookie)
    await s.frame("overview")
    await database_sync_to_async(tab.post)(reverse("logout"))
    assert await s.close_code() == 4401


async def test_a_teacher_who_lost_the_class_loses_the_overview_stream(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    session, _table = await _session(class_a)
    cookie = await cookie_for(class_a.teacher)
    s = await stream(f"/sessions/{session.pk}/stream/", cookie)
    await s.frame("overview")

    def give_away() -> None:
        class_a.classroom.teacher = class_b.teacher
        class_a.classroom.save(update_fields=["teacher"])
        session_changed(session.pk)

    await database_sync_to_async(give_away)()
    assert await s.close_code(timeout=5) == 4403
    answer = await post_frame(f"/sessions/{session.pk}/frames/", cookie, {"type": "sync"})
    assert answer.status == 403
