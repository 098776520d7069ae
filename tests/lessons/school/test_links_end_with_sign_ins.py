"""Every way a sign-in ends closes its live links (issue 32, point 6): a deactivated teacher's
and a changed password's open sockets and streams end with 4401, and a stream whose sign-out
message was lost ends at its own heartbeat's session check."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from games import driver
from games.realtime import link as link_module
from games.realtime import stream as stream_module
from games.realtime.consumer import CLOSE_SIGNED_OUT
from lessons.models import User
from lessons.school.admin_services import teacher_set_active
from tests.games.helpers import session_cookie
from tests.games.streams import stream
from tests.lessons.sessions.helpers import scripted_session
from tests.lessons.sessions.test_overview import _overview_socket

pytestmark = [pytest.mark.django_db(transaction=True)]
OLD, NEW = "an old pass phrase 1", "a new pass phrase 2"
# An overview's first frame reads the whole session: on a loaded machine it took over 3 s.
SLOW = 15.0


@pytest.fixture(autouse=True)
def _slow_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 60
    yield
    driver.cancel_all()


def _closed_with(output: dict[str, Any]) -> int:
    assert output["type"] == "websocket.close", output
    return int(output["code"])


async def _socket_close_code(comm: Any) -> int:
    for _ in range(20):  # a bounded number of frames before the close
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return _closed_with(output)
    raise AssertionError("the socket never closed")


def _admin() -> User:
    return User.objects.create_user("direction", password=OLD, is_staff=True)


async def test_deactivating_a_teacher_ends_their_open_stream_and_socket(class_a: Any) -> None:
    session, _table = await database_sync_to_async(scripted_session)(class_a)
    s = await stream(f"/sessions/{session.pk}/stream/", await _cookie(class_a.teacher))
    await s.frame("overview", timeout=SLOW)
    comm = await _overview_socket(session.pk, class_a.teacher)
    assert (await comm.connect(timeout=10))[0]
    admin = await database_sync_to_async(_admin)()
    await database_sync_to_async(teacher_set_active)(
        admin=admin, teacher=class_a.teacher, active=False
    )
    assert await s.close_code(5) == CLOSE_SIGNED_OUT
    assert await _socket_close_code(comm) == CLOSE_SIGNED_OUT


async def test_reactivating_a_teacher_ends_nothing(class_a: Any) -> None:
    session, _table = await database_sync_to_async(scripted_session)(class_a)
    s = await stream(f"/sessions/{session.pk}/stream/", await _cookie(class_a.teacher))
    await s.frame("overview", timeout=SLOW)
    admin = await database_sync_to_async(_admin)()
    await database_sync_to_async(teacher_set_active)(
        admin=admin, teacher=class_a.teacher, active=True
    )
    assert await s.nothing(0.5)
    await s.disconnect()


async def _cookie(user: Any) -> bytes:
    return await database_sync_to_async(session_cookie)(user)


def _change_password(teacher: Any) -> Client:
    teacher.set_password(OLD)
    teacher.save(update_fields=["password"])
    device = Client()
    device.force_login(teacher)
    # force_login read the old hash: sign in again after setting it, as a teacher would.
    device.post(reverse("login"), {"username": teacher.username, "password": OLD})
    answer = device.post(
        reverse("password_change"),
        {"old_password": OLD, "new_password1": NEW, "new_password2": NEW},
    )
    assert answer.status_code == 302, answer.content[:500]
    return device


def _prepare_other_device(teacher: Any) -> bytes:
    teacher.set_password(OLD)
    teacher.save(update_fields=["password"])
    return bytes(session_cookie(teacher))


async def test_a_password_change_ends_the_other_devices_links_only(class_a: Any) -> None:
    session, _table = await database_sync_to_async(scripted_session)(class_a)
    other = await database_sync_to_async(_prepare_other_device)(class_a.teacher)
    s = await stream(f"/sessions/{session.pk}/stream/", other)
    await s.frame("overview", timeout=SLOW)
    changer = await database_sync_to_async(_change_password)(class_a.teacher)
    assert await s.close_code(5) == CLOSE_SIGNED_OUT
    # The device that changed it keeps a working sign-in: its new stream opens.
    key = changer.cookies[django_settings.SESSION_COOKIE_NAME].value
    mine = await stream(
        f"/sessions/{session.pk}/stream/", f"{django_settings.SESSION_COOKIE_NAME}={key}".encode()
    )
    await mine.frame("overview")
    await mine.disconnect()


async def test_a_stream_whose_sign_out_was_never_told_ends_at_its_heartbeat(
    class_a: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stream_module, "HEARTBEAT_SECONDS", 0.05)
    monkeypatch.setattr(link_module, "SIGNIN_CHECK_SECONDS", 0.0)
    session, _table = await database_sync_to_async(scripted_session)(class_a)
    s = await stream(f"/sessions/{session.pk}/stream/", await _cookie(class_a.teacher))
    await s.frame("overview", timeout=SLOW)
    # The session goes without any message (a Redis outage at sign-out, an expired row).
    await database_sync_to_async(Session.objects.all().delete)()
    assert await s.close_code(5) == CLOSE_SIGNED_OUT
