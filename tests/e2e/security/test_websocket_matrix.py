"""The security matrix over the live links: who may open which socket, its event stream or
its POSTed frames, as the class is made and after each change of its life
(tests/e2e/security/matrix.py holds the table and the driver).

The routes are read from the ASGI application itself, so a new WebSocket route (or event
stream) without a row fails the suite. Each row holds for the three links of a live route
(docs/protocol.md, "Fallback: SSE and POST"): the socket, the event stream (its close event)
and a POSTed `sync` (401/403 read as 4401/4403). One test per route, state and link, every
actor in it: the actors sign in, the route's target and the state are made once (opening a
link changes neither), committed, as the live consumers read from threads of their own.
"""

from __future__ import annotations

from typing import Any, cast

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter

from tests.conftest import ClassWorld
from tests.e2e.security.access_matrix import ACTORS
from tests.e2e.security.matrix import (
    LIVE_CASES,
    LIVE_ROUTES,
    Case,
    LiveRoute,
    communicator,
    live_prepare,
    live_wrong_answer,
)
from tests.games.streams import cookie_for, fallback_paths, stream
from unoclass.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


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
            for route in cast(list[Any], node.routes):
                found.add(str(route.pattern))
                stack.append(route.callback)
        for name in ("application", "inner", "app"):
            child = getattr(node, name, None)
            if child is not None:
                stack.append(child)
    return found


def test_every_websocket_route_has_a_row() -> None:
    assert _socket_patterns(application) == {route.pattern for route in LIVE_ROUTES}


def _stream_patterns(app: Any) -> set[str]:
    """Find the event streams of the HTTP side (every route but Django's catch-all)."""
    router = app.application_mapping["http"]
    return {str(route.pattern) for route in router.routes if str(route.pattern)}


def test_every_stream_is_the_fallback_of_a_socket_with_a_row() -> None:
    assert _stream_patterns(application) == {route.stream for route in LIVE_ROUTES}


@pytest.mark.parametrize("case", LIVE_CASES, ids=lambda case: case.id)
async def test_every_actor_opens_only_what_the_state_leaves_them(
    case: Case, class_a: ClassWorld, class_b: ClassWorld
) -> None:
    path, cookies = await database_sync_to_async(live_prepare)(case, class_a, class_b)
    wrong = [
        answer
        for actor in ACTORS
        if (answer := await live_wrong_answer(case, actor, path, cookies[actor], class_b))
    ]
    assert not wrong, wrong


# Another site, and this host with another scheme or port (issue 32 §7: the host alone was
# compared): every route refuses them as a POST does (tests/e2e/security/test_origins.py).
FOREIGN_ORIGINS = [b"https://evil.example", b"https://testserver", b"http://testserver:9443"]


@pytest.mark.parametrize("origin", FOREIGN_ORIGINS, ids=bytes.decode)
@pytest.mark.parametrize("route", LIVE_ROUTES, ids=lambda r: r.pattern)
async def test_a_foreign_origin_is_refused(
    route: LiveRoute, origin: bytes, class_a: ClassWorld
) -> None:
    path = await database_sync_to_async(route.path)(class_a)
    cookie = await cookie_for(class_a.teacher)
    comm = communicator(path, cookie, origin=origin)
    connected, _code = await comm.connect(timeout=10)
    assert not connected


@pytest.mark.parametrize("origin", FOREIGN_ORIGINS, ids=bytes.decode)
@pytest.mark.parametrize("route", LIVE_ROUTES, ids=lambda r: r.pattern)
async def test_a_foreign_origin_gets_no_stream(
    route: LiveRoute, origin: bytes, class_a: ClassWorld
) -> None:
    path = await database_sync_to_async(route.path)(class_a)
    stream_path, _frames = fallback_paths(path)
    cookie = await cookie_for(class_a.teacher)
    found = await stream(stream_path, cookie, [(b"origin", origin)])
    assert found.status == 403
