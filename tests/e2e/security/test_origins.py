"""The Origin of a live link: scheme, host and port, as Django checks a POST's (issue 32 §7).

Raw clients through the ASGI application: a pupil's cookies with another scheme, port or host
in the Origin open neither their socket nor their stream (both would carry their hand); the
site's own origin and a CSRF_TRUSTED_ORIGINS one do, behind nginx's TLS too.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from games.services import SeatSpec, table_create
from lessons.sessions.services import session_start
from tests.games.helpers import receive_until
from tests.games.streams import cookie_for, fallback_paths, post_frame, stream
from unoclass.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

PROXY = {"SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https")}
TRUSTED = {"CSRF_TRUSTED_ORIGINS": ["https://portal.example-school.fr", "https://*.ent.example"]}
TLS = [(b"x-forwarded-proto", b"https")]

# (name, Origin, settings, extra headers): each refused on the socket and on the stream.
REFUSED = [
    ("wrong-scheme", b"https://testserver", {}, []),
    ("wrong-port", b"http://testserver:9443", {}, []),
    ("wrong-host", b"http://evil.example", {}, []),
    ("suffix-host", b"http://testserver.evil.example", {}, []),
    ("no-port-for-a-port", b"http://testserver", {}, [], "testserver:8000"),
    ("proxy-plain-http", b"http://testserver", PROXY, TLS),
    ("proxy-other-port", b"https://testserver:9443", PROXY, TLS),
    ("proxy-header-not-trusted", b"https://testserver", {}, TLS),
    ("trusted-other-scheme", b"http://portal.example-school.fr", TRUSTED, []),
    ("trusted-other-port", b"https://portal.example-school.fr:9443", TRUSTED, []),
    ("trusted-wildcard-other-scheme", b"http://a.ent.example", TRUSTED, []),
    ("null", b"null", {}, []),
    ("garbage", b"\xff\xfe", {}, []),
]
ACCEPTED = [
    ("same-origin", b"http://testserver", {}, []),
    ("same-origin-with-port", b"http://testserver:8000", {}, [], "testserver:8000"),
    ("proxy-https", b"https://testserver", PROXY, TLS),
    ("trusted", b"https://portal.example-school.fr", TRUSTED, []),
    ("trusted-wildcard", b"https://a.ent.example", TRUSTED, []),
]


def _case(row: tuple[Any, ...]) -> Any:
    name, origin, overrides, extra = row[:4]
    host = row[4].encode() if len(row) > 4 else b"testserver"
    return pytest.param(origin, overrides, extra, host, id=name)


def _table_path(a: Any) -> str:
    seats = [
        SeatSpec(name=a.student.student.display_name, user_id=a.student.user.pk),
        SeatSpec(name=a.other_student.student.display_name, user_id=a.other_student.user.pk),
    ]
    return f"/ws/table/{table_create(ruleset='fractions', seats=seats, seed=3).pk}/"


def _session_path(a: Any) -> str:
    return f"/ws/session/{session_start(teacher=a.teacher, classroom=a.classroom).pk}/"


def _socket(path: str, cookie: bytes | None, origin: bytes, host: bytes, extra: Any) -> Any:
    headers = [(b"origin", origin), (b"host", host), *extra]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, path, headers=headers)


async def _pupil_table(class_a: Any) -> tuple[str, bytes | None]:
    path = await database_sync_to_async(_table_path)(class_a)
    return path, await cookie_for(class_a.student.user)


LINKS = ["socket", "stream"]


async def _pupils_link_opens(
    link: str, path: str, cookie: bytes | None, origin: bytes, host: bytes, extra: Any
) -> dict[str, Any] | None:
    """Open the pupil's table socket or stream with these headers; return the first state it
    sends (None: refused, the socket closed or the stream answered 403)."""
    if link == "socket":
        comm = _socket(path, cookie, origin, host, extra)
        connected, _code = await comm.connect(timeout=10)
        if not connected:
            return None
        state = await receive_until(comm, "state", 5)
        await comm.disconnect()
        return state
    stream_path, _frames = fallback_paths(path)
    found = await stream(stream_path, cookie, [(b"origin", origin), *extra], host=host)
    if found.status == 403:
        return None
    assert found.status == 200
    state = await found.frame("state", 5)
    await found.disconnect()
    return state


@pytest.mark.parametrize("link", LINKS)
@pytest.mark.parametrize(("origin", "overrides", "extra", "host"), [_case(r) for r in REFUSED])
async def test_a_pupils_link_refuses_another_origin(
    origin: bytes, overrides: dict[str, Any], extra: Any, host: bytes, link: str, class_a: Any
) -> None:
    path, cookie = await _pupil_table(class_a)
    with override_settings(ALLOWED_HOSTS=["testserver"], **overrides):
        assert await _pupils_link_opens(link, path, cookie, origin, host, extra) is None


@pytest.mark.parametrize("link", LINKS)
@pytest.mark.parametrize(("origin", "overrides", "extra", "host"), [_case(r) for r in ACCEPTED])
async def test_a_pupils_link_opens_from_the_site_or_a_trusted_origin(
    origin: bytes, overrides: dict[str, Any], extra: Any, host: bytes, link: str, class_a: Any
) -> None:
    path, cookie = await _pupil_table(class_a)
    with override_settings(ALLOWED_HOSTS=["testserver"], **overrides):
        state = await _pupils_link_opens(link, path, cookie, origin, host, extra)
    assert state is not None and state["view"]["seat"] == 0


async def test_a_stream_without_origin_opens_and_a_socket_without_one_does_not(
    class_a: Any,
) -> None:
    # An EventSource on its own site sends no Origin with its GET; a browser's socket always
    # sends one.
    path, cookie = await _pupil_table(class_a)
    stream_path, _frames = fallback_paths(path)
    found = await stream(stream_path, cookie)
    assert found.status == 200
    await found.frame("state", 5)
    await found.disconnect()
    comm = WebsocketCommunicator(
        application, path, headers=[(b"host", b"testserver"), (b"cookie", cookie or b"")]
    )
    connected, _code = await comm.connect(timeout=10)
    assert not connected


@pytest.mark.parametrize("kind", ["session", "network-check"])
@pytest.mark.parametrize("origin", [b"https://testserver", b"http://testserver:9443"])
async def test_every_other_link_refuses_another_scheme_or_port(
    kind: str, origin: bytes, class_a: Any
) -> None:
    if kind == "session":
        path = await database_sync_to_async(_session_path)(class_a)
    else:
        path = "/ws/network-check/"
    cookie = await cookie_for(class_a.teacher)
    connected, _code = await _socket(path, cookie, origin, b"testserver", []).connect(timeout=10)
    assert not connected
    stream_path, _frames = fallback_paths(path)
    found = await stream(stream_path, cookie, [(b"origin", origin)])
    assert found.status == 403


# The app's CSRF middleware reads CSRF_TRUSTED_ORIGINS once per process (a cached property),
# so override_settings cannot reach it: the trusted rows are compared with a fresh middleware
# in tests/games/test_origins.py.
UNTRUSTED = [row for row in [*REFUSED, *ACCEPTED] if row[2] is not TRUSTED]


@pytest.mark.parametrize(("origin", "overrides", "extra", "host"), [_case(r) for r in UNTRUSTED])
async def test_the_links_and_the_posts_agree_on_every_origin(
    origin: bytes, overrides: dict[str, Any], extra: Any, host: bytes, class_a: Any
) -> None:
    # One rule for every way in: a POSTed frame passes Django's CSRF check exactly when the
    # socket opens (the socket's check is the CSRF middleware's own: games/realtime/origins.py).
    path, cookie = await _pupil_table(class_a)
    _stream, frames_path = fallback_paths(path)
    with override_settings(ALLOWED_HOSTS=["testserver"], **overrides):
        comm = _socket(path, cookie, origin, host, extra)
        connected, _code = await comm.connect(timeout=10)
        if connected:
            await comm.disconnect()
        answer = await post_frame(
            frames_path, cookie, {"type": "sync"}, origin=origin, host=host, extra=extra
        )
    assert (answer.status == 200) is connected, answer.body
