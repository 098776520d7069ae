"""The WebSocket matrix after each change of a class's life (tests/e2e/security/access_states.py
makes the states): who may still open class A's table and session sockets, or their fallback
(the event stream, a POSTed frame)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.realtime.consumer import CLOSE_NO_ACCESS, CLOSE_SIGNED_OUT
from tests.e2e.security.access_matrix import ACTORS, ENT_TICKETS, extra_actor
from tests.e2e.security.access_states import SIGNED_OUT_BY, STATES
from tests.e2e.security.test_websocket_matrix import (
    ACCEPTED,
    CHECK,
    ROUTES,
    SEATED,
    WATCHING,
    SocketRoute,
    _communicator,
    signed_in_cookie,
)
from tests.games.helpers import refusal_code
from tests.games.streams import TRANSPORTS, first_answer

pytestmark = pytest.mark.django_db(transaction=True)

TABLE, SESSION = ROUTES[0].pattern, ROUTES[1].pattern


def expected_socket(state: str, route: SocketRoute, actor: str) -> Any:
    """Return what the actor gets from class A's socket in the state."""
    base = route.expect[actor]
    if base == CHECK:
        return CHECK  # the network check asks no sign-in: no state changes it
    if actor in SIGNED_OUT_BY.get(state, ()):
        return route.expect["anonymous"]  # deactivated, password changed: signed out
    if state == "co_teacher_removed" and actor == "co_teacher":
        return CLOSE_NO_ACCESS  # a teacher of no class
    if state == "ent_signed_out" and actor in ENT_TICKETS:
        return CLOSE_SIGNED_OUT  # the ENT ended the session its ticket opened
    if state == "ent_unlinked" and actor == "ent_pupil":
        return CLOSE_SIGNED_OUT  # unlinking ended the session the link's ENT sign-in opened
    # The ENT-linked pupil is student_a's account: every other state acts on it alike.
    gone = {"archived", "pseudonymised", "erased", "new_pin"}
    if actor in {"student_a", "ent_pupil"} and state in gone:
        return CLOSE_SIGNED_OUT  # their sign-in ended with the change
    # A moved pupil keeps their seat at a table that is no class session's (the game is theirs).
    return base


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.pattern)
@pytest.mark.parametrize("state", list(STATES))
async def test_each_actor_opens_only_what_the_state_leaves_them(  # type: ignore[no-untyped-def]
    state: str, route: SocketRoute, actor: str, transport: str, class_a, class_b
):
    def prepare() -> tuple[str, bytes | None]:
        co_teacher = extra_actor("co_teacher", class_a)
        # Signed in before the change, as a pupil or teacher would be (the ENT-linked actors
        # through the ENT, so that its single sign-out names their session).
        cookie = signed_in_cookie(actor, class_a, class_b)
        path = route.path(class_a)
        STATES[state](class_a, class_b, co_teacher)
        return path, cookie

    path, cookie = await database_sync_to_async(prepare)()
    expected = expected_socket(state, route, actor)
    if transport == "socket" and isinstance(expected, int):
        assert await refusal_code(_communicator(path, cookie)) == expected
        return
    first = await first_answer(transport, path, cookie)
    if isinstance(expected, int):
        assert first == expected
        return
    assert isinstance(first, dict)
    if expected == SEATED:
        assert first["type"] == "state" and first["view"]["seat"] == 0
    elif expected == WATCHING:
        assert first["type"] == "state" and first["view"]["seat"] is None
    elif expected == CHECK:
        assert first["type"] == "hello" or (transport == "post" and first["code"] == "bad_echo")
    else:
        assert expected == ACCEPTED and first["type"] == "overview"
