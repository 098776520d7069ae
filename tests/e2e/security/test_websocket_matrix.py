"""The authorisation matrix of every live route: who may open which socket, and its fallback.

Targets belong to class A. The routes are read from the ASGI application itself, so a new
WebSocket route (or event stream) without a row here fails the suite. Each row holds for the
three transports of a live link (docs/protocol.md, "Fallback: SSE and POST"): the socket, the
event stream (its close event) and a POSTed `sync` (401/403 read as 4401/4403).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.realtime.consumer import CLOSE_NO_ACCESS, CLOSE_SIGNED_OUT
from games.services import SeatSpec, table_create
from lessons.sessions.services import session_start
from tests.e2e.security.access_matrix import ACTORS, actor_user, ent_sign_in_record
from tests.games.helpers import refusal_code, session_cookie
from tests.games.streams import TRANSPORTS, cookie_for, fallback_paths, first_answer, stream
from unoclass.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

SEATED, WATCHING, ACCEPTED = "seated", "watching", "accepted"
# The network check's links: open to anyone, carrying only its hello, beats and echoes.
CHECK = "check"


@dataclass(frozen=True)
class SocketRoute:
    """One WebSocket route: how to build a class A target, and each actor's outcome."""

    pattern: str
    path: Callable[[Any], str]
    expect: dict[str, Any]


def _table_path(a: Any) -> str:
    seats = [SeatSpec(name=s.student.display_name, user_id=s.user.pk) for s in (a.student,)]
    seats.append(
        SeatSpec(name=a.other_student.student.display_name, user_id=a.other_student.user.pk)
    )
    return f"/ws/table/{table_create(ruleset='fractions', seats=seats, seed=3).pk}/"


def _session_path(a: Any) -> str:
    return f"/ws/session/{session_start(teacher=a.teacher, classroom=a.classroom).pk}/"


def _row(anonymous: Any, student_a: Any, student_b: Any, teacher_a: Any, teacher_b: Any) -> Any:
    # A co-teacher of class A gets what its owner gets; a school admin and an ENT-linked teacher
    # (of no class), what another teacher gets; the ENT-linked pupil (student_a's account
    # signed in through the ENT), what student_a gets: their seat, and no teacher's overview.
    row = (anonymous, student_a, student_b, teacher_a, teacher_b, teacher_a, teacher_b, teacher_b,
           student_a)  # fmt: skip
    return dict(zip(ACTORS, row, strict=True))


ROUTES = [
    SocketRoute(
        "ws/table/<int:table_id>/",
        _table_path,
        _row(CLOSE_SIGNED_OUT, SEATED, CLOSE_NO_ACCESS, WATCHING, CLOSE_NO_ACCESS),
    ),
    SocketRoute(
        "ws/session/<int:session_id>/",
        _session_path,
        _row(CLOSE_SIGNED_OUT, CLOSE_NO_ACCESS, CLOSE_NO_ACCESS, ACCEPTED, CLOSE_NO_ACCESS),
    ),
    SocketRoute("ws/network-check/", lambda a: "/ws/network-check/", _row(*[CHECK] * 5)),
]


def _socket_patterns(app: Any) -> set[str]:
    """Find every URL pattern of the WebSocket side of the ASGI application."""
    found: set[str] = set()
    seen: set[int] = set()
    stack = [app.application_mapping["websocket"]]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, URLRouter):
            for route in node.routes:
                found.add(str(route.pattern))
                stack.append(route.callback)
        for name in ("application", "inner", "app"):
            child = getattr(node, name, None)
            if child is not None:
                stack.append(child)
    return found


def test_every_websocket_route_has_a_row() -> None:
    assert _socket_patterns(application) == {route.pattern for route in ROUTES}


def _stream_patterns(app: Any) -> set[str]:
    """Find the event streams of the HTTP side (every route but Django's catch-all)."""
    router = app.application_mapping["http"]
    return {str(route.pattern) for route in router.routes if str(route.pattern)}


# Each socket's fallback stream: the socket's row holds for it (and for its POSTed frames).
STREAMS = {
    "ws/table/<int:table_id>/": "tables/<int:table_id>/stream/",
    "ws/session/<int:session_id>/": "sessions/<int:session_id>/stream/",
    "ws/network-check/": "network-check/stream/",
}


def test_every_stream_is_the_fallback_of_a_socket_with_a_row() -> None:
    assert _stream_patterns(application) == {STREAMS[route.pattern] for route in ROUTES}


def signed_in_cookie(actor: str, a: Any, b: Any) -> bytes | None:
    """Make the actor's session (through the ENT for its actors) and return its Cookie header."""
    user = actor_user(actor, a, b)
    if user is None:
        return None
    cookie = session_cookie(user)
    session_key = cookie.split(b";")[0].split(b"=", 1)[1].decode()
    ent_sign_in_record(actor, user, session_key)
    return cookie


def _communicator(path: str, cookie: bytes | None, origin: bytes = b"http://testserver") -> Any:
    headers = [(b"origin", origin), (b"host", b"testserver")]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, path, headers=headers)


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.pattern)
async def test_actor_opens_only_what_they_may(
    route: SocketRoute, actor: str, transport: str, class_a, class_b
):  # type: ignore[no-untyped-def]
    path = await database_sync_to_async(route.path)(class_a)
    cookie = await database_sync_to_async(signed_in_cookie)(actor, class_a, class_b)
    expected = route.expect[actor]
    if transport == "socket" and isinstance(expected, int):
        # Refused before or right after the handshake, with nothing sent before the close.
        assert await refusal_code(_communicator(path, cookie)) == expected
        return
    first = await first_answer(transport, path, cookie)
    if isinstance(expected, int):
        assert first == expected  # nothing before the close event, nothing in the answer
        return
    assert isinstance(first, dict)
    text = json.dumps(first, ensure_ascii=False)
    if expected == SEATED:
        assert first["type"] == "state" and first["view"]["seat"] == 0
    elif expected == WATCHING:
        assert first["type"] == "state" and first["view"]["seat"] is None
        assert first["view"]["hand"] == []
    elif expected == CHECK:
        # The POSTed `sync` is not an echo: the check's error frame, and nothing else.
        assert first["type"] == "hello" or (transport == "post" and first["code"] == "bad_echo")
    else:
        assert first["type"] == "overview"
    # Nobody of class B ever gets here; class A's sockets carry no class B data.
    assert class_b.student.student.display_name not in text


# Another site, and this host with another scheme or port (issue 32 §7: the host alone was
# compared): every route refuses them as a POST does (tests/e2e/security/test_origins.py).
FOREIGN_ORIGINS = [b"https://evil.example", b"https://testserver", b"http://testserver:9443"]


@pytest.mark.parametrize("origin", FOREIGN_ORIGINS, ids=bytes.decode)
@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.pattern)
async def test_a_foreign_origin_is_refused(route: SocketRoute, origin: bytes, class_a):  # type: ignore[no-untyped-def]
    path = await database_sync_to_async(route.path)(class_a)
    cookie = await cookie_for(class_a.teacher)
    comm = _communicator(path, cookie, origin=origin)
    connected, _code = await comm.connect(timeout=10)
    assert not connected


@pytest.mark.parametrize("origin", FOREIGN_ORIGINS, ids=bytes.decode)
@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.pattern)
async def test_a_foreign_origin_gets_no_stream(route: SocketRoute, origin: bytes, class_a):  # type: ignore[no-untyped-def]
    path = await database_sync_to_async(route.path)(class_a)
    stream_path, _frames = fallback_paths(path)
    cookie = await cookie_for(class_a.teacher)
    found = await stream(stream_path, cookie, [(b"origin", origin)])
    assert found.status == 403
