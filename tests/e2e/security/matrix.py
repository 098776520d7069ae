"""The security matrix as data: actor × surface × state → expected, over the three links.

A surface is a URL row (`Route`, access_matrix.py and every `tests/<package>/access_routes.py`)
or a live row (`LiveRoute` below); a state is the class as made (BASE) or one change of its
life (access_states.STATES). A URL row is asked over the `http` link (the page, or the form's
POST); a live row over the socket, the event stream and a POSTed `sync` (tests/games/streams.py
TRANSPORTS). `CASES` is the whole table, one entry per (surface, state, link), each asked of
every actor in ACTORS; `expected` says what each actor gets. test_access_matrix.py (the http
link, in savepoints) and test_websocket_matrix.py (the live links, committed: the live
consumers read the database from threads of their own) run it through the drivers below.

A new URL row is one `Route(...)` line, a new live route one `LiveRoute(...)` line, a new state
one entry in STATES (with its rule in expected_in_state if it is not a no-op for some actors).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client
from django.urls import reverse

import tests
from games.realtime.consumer import CLOSE_NO_ACCESS, CLOSE_SIGNED_OUT
from games.services import SeatSpec, table_create
from lessons.sessions.services import session_start
from tests.conftest import ClassWorld
from tests.e2e.security.access_matrix import (
    ACTORS,
    ENT_TICKETS,
    ROUTES,
    Outcome,
    Route,
    actor_user,
    ent_sign_in_record,
    extra_actor,
    signed_in_client,
)
from tests.e2e.security.access_states import SIGNED_OUT_BY, STATES, Made, expected_in_state
from tests.games.helpers import refusal_code, session_cookie
from tests.games.streams import TRANSPORTS, first_answer
from tests.support.responses import page_text
from unoclass.asgi import application

# --- The surfaces: every URL row, and every live row. ---


def _collected_routes() -> list[Route]:
    routes = list(ROUTES)
    for module in pkgutil.walk_packages([str(Path(tests.__file__).parent)], prefix="tests."):
        if module.name.endswith(".access_routes"):
            routes.extend(importlib.import_module(module.name).ROUTES)
    return routes


ALL_ROUTES = _collected_routes()

# What an actor gets from a live link: a close code (an int), or one of these first frames.
SEATED, WATCHING, ACCEPTED = "seated", "watching", "accepted"
# The network check's links: open to anyone, carrying only its hello, beats and echoes.
CHECK = "check"


@dataclass(frozen=True)
class LiveRoute:
    """One live route (a WebSocket route and its fallback): a class A target, each outcome."""

    pattern: str
    path: Callable[[Any], str]
    expect: dict[str, Any]
    # The socket's fallback event stream (its POSTed frames go next to it).
    stream: str

    @property
    def id(self) -> str:
        """Return a readable test id."""
        return self.pattern


def _table_path(a: Any) -> str:
    seats = [
        SeatSpec(name=login.student.display_name, user_id=login.user.pk)
        for login in (a.student, a.other_student)
    ]
    return f"/ws/table/{table_create(ruleset='fractions', seats=seats, seed=3).pk}/"


def _session_path(a: Any) -> str:
    return f"/ws/session/{session_start(teacher=a.teacher, classroom=a.classroom).pk}/"


def live_row(anonymous: Any, student_a: Any, student_b: Any, teacher_a: Any, teacher_b: Any) -> Any:
    """Return a live expectation row in ACTORS order.

    A co-teacher of class A gets what its owner gets; a school admin and an ENT-linked teacher
    (of no class), what another teacher gets; the ENT-linked pupil (student_a's account signed
    in through the ENT), what student_a gets: their seat, and no teacher's overview.
    """
    row = (anonymous, student_a, student_b, teacher_a, teacher_b, teacher_a, teacher_b, teacher_b,
           student_a)  # fmt: skip
    return dict(zip(ACTORS, row, strict=True))


OUT, NO = CLOSE_SIGNED_OUT, CLOSE_NO_ACCESS
LIVE_ROUTES = [
    LiveRoute("ws/table/<int:table_id>/", _table_path, live_row(OUT, SEATED, NO, WATCHING, NO),
              "tables/<int:table_id>/stream/"),
    LiveRoute("ws/session/<int:session_id>/", _session_path, live_row(OUT, NO, NO, ACCEPTED, NO),
              "sessions/<int:session_id>/stream/"),
    LiveRoute("ws/network-check/", lambda a: "/ws/network-check/", live_row(*[CHECK] * 5),
              "network-check/stream/"),
]  # fmt: skip

# --- The states and the links. ---

BASE = "as_made"  # the class as the fixtures make it: no change of its life
STATE_NAMES = (BASE, *STATES)
HTTP = "http"
LINKS = (HTTP, *TRANSPORTS)
Surface = Route | LiveRoute


@dataclass(frozen=True)
class Case:
    """One cell of the table, asked of every actor: a surface in a state over a link."""

    surface: Surface
    state: str
    link: str

    @property
    def id(self) -> str:
        """Return a readable test id."""
        return f"{self.state}-{self.link}-{self.surface.id}"


SURFACES: list[tuple[Surface, tuple[str, ...]]] = [
    *((route, (HTTP,)) for route in ALL_ROUTES),
    *((route, tuple(TRANSPORTS)) for route in LIVE_ROUTES),
]
CASES = [
    Case(surface, state, link)
    for state in STATE_NAMES
    for surface, links in SURFACES
    for link in links
]
HTTP_CASES = [case for case in CASES if case.link == HTTP]
LIVE_CASES = [case for case in CASES if case.link != HTTP]


def make_state(state: str, a: Any, b: Any) -> Made:
    """Make the state with the product's services (BASE: nothing happens)."""
    if state == BASE:
        return Made(False)
    return STATES[state](a, b, extra_actor("co_teacher", a))


def expected_live(state: str, route: LiveRoute, actor: str) -> Any:
    """Return what the actor gets from class A's live route in the state."""
    base = route.expect[actor]
    if base == CHECK or state == BASE:
        return base  # the network check asks no sign-in: no state changes it
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


def case_count() -> int:
    """Return the number of (actor, surface, state, link) cases the table asks."""
    return len(CASES) * len(ACTORS)


# --- The http driver: every actor at a URL row in a state (in savepoints). ---


def assert_outcome(response: Any, expected: Outcome) -> None:
    """Fail unless the response is the outcome."""
    status = response.status_code
    login_url = reverse("login")
    if expected is Outcome.OK:
        assert status == 200
    elif expected is Outcome.LOGIN:
        assert status == 302 and response["Location"].startswith(login_url + "?next=")
    elif expected is Outcome.REDIRECT:
        assert status == 302 and not response["Location"].startswith(login_url)
    elif expected is Outcome.FORBIDDEN:
        assert status == 403
    elif expected is Outcome.NOT_FOUND:
        assert status == 404
    elif expected is Outcome.BAD_REQUEST:
        assert status == 400
    else:
        assert status == 405


def class_a_markers(class_a: ClassWorld) -> list[str]:
    """Return the texts of class A no one outside it may read."""
    return [
        class_a.classroom.join_code,
        class_a.student.student.display_name,
        class_a.other_student.student.display_name,
        class_a.classroom.name,
    ]


def _leaks(route: Route, actor: str, url: str, response: Any, a: ClassWorld) -> list[str]:
    """Return class A's texts the response shows an actor who may not see them."""
    may_see_class_a = (
        actor in {"teacher_a", "co_teacher", "student_a", "ent_pupil"}
        or route.shows_class_a_to_anyone
    )
    # The page may echo the requested URL (language switcher); that is not class data.
    # A PDF is compressed: its text cannot be searched here (tests/lessons/reporting/test_pdf.py
    # checks what goes into it).
    is_text = not response.get("Content-Type", "").startswith("application/pdf")
    refused = response.status_code in {403, 404} or route.expect[actor] is Outcome.LOGIN
    if not is_text or not (refused or (response.status_code == 200 and not may_see_class_a)):
        return []
    text = page_text(response).replace(url, "") if response.status_code != 302 else ""
    return [marker for marker in class_a_markers(a) if marker in text]


def _http_answers(
    state: str, route: Route, actors: tuple[str, ...], a: ClassWorld, b: ClassWorld
) -> list[str]:
    """Sign the actors in, make the row's targets, then the state; return each wrong answer."""
    clients: dict[str, Client] = {actor: signed_in_client(actor, a, b) for actor in actors}
    kwargs = route.kwargs(a, b)
    data = route.data(a, b)
    made = make_state(state, a, b)
    url = reverse(route.name, kwargs=kwargs)
    wrong = []
    for actor, client in clients.items():
        send = client.post if route.method == "post" else client.get
        response = send(url, data, **route.send_options())
        expected = expected_in_state(state, route, actor, kwargs, a, made)
        try:
            assert_outcome(response, expected)
        except AssertionError:
            where = response.get("Location", "")
            wrong.append(f"{actor}: {response.status_code} {where} (expected {expected})")
        if state == BASE:
            leaks = _leaks(route, actor, url, response, a)
            wrong += [f"{actor} saw {marker!r} of class A at {url}" for marker in leaks]
    return wrong


def http_wrong_answers(case: Case, a: ClassWorld, b: ClassWorld) -> list[str]:
    """Ask every actor the URL row in the state; return each wrong answer.

    A GET changes nothing (reads never write), so its actors share one making of the row's
    targets and the state; a POST may change them, so each actor's POST gets them afresh.
    """
    assert isinstance(case.surface, Route)
    route = case.surface
    groups: list[tuple[str, ...]] = (
        [ACTORS] if route.method == "get" else [(actor,) for actor in ACTORS]
    )
    wrong: list[str] = []
    for actors in groups:
        with transaction.atomic():
            wrong += _http_answers(case.state, route, actors, a, b)
            transaction.set_rollback(True)
    return wrong


# --- The live driver: every actor at a live row in a state, over one of its three links. ---


def signed_in_cookie(actor: str, a: Any, b: Any) -> bytes | None:
    """Make the actor's session (through the ENT for its actors) and return its Cookie header."""
    user = actor_user(actor, a, b)
    if user is None:
        return None
    cookie = session_cookie(user)
    session_key = cookie.split(b";")[0].split(b"=", 1)[1].decode()
    ent_sign_in_record(actor, user, session_key)
    return cookie


def communicator(path: str, cookie: bytes | None, origin: bytes = b"http://testserver") -> Any:
    """Return a socket communicator on the path with the Cookie header and the Origin."""
    headers = [(b"origin", origin), (b"host", b"testserver")]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, path, headers=headers)


def live_prepare(case: Case, a: Any, b: Any) -> tuple[str, dict[str, bytes | None]]:
    """Sign every actor in, make the route's target, then the state (in the database thread).

    Signed in before the change, as a pupil or teacher would be (the ENT-linked actors through
    the ENT, so that its single sign-out names their sessions).
    """
    assert isinstance(case.surface, LiveRoute)
    extra_actor("co_teacher", a)
    cookies = {actor: signed_in_cookie(actor, a, b) for actor in ACTORS}
    path = case.surface.path(a)
    make_state(case.state, a, b)
    return path, cookies


async def live_wrong_answer(
    case: Case, actor: str, path: str, cookie: bytes | None, b: Any
) -> str | None:
    """Open the link as the actor; return what is wrong with its answer (None: right)."""
    assert isinstance(case.surface, LiveRoute)
    expected = expected_live(case.state, case.surface, actor)
    if case.link == "socket" and isinstance(expected, int):
        # Refused before or right after the handshake, with nothing sent before the close.
        code = await refusal_code(communicator(path, cookie))
        return None if code == expected else f"{actor}: closed {code} (expected {expected})"
    first = await first_answer(case.link, path, cookie)
    if isinstance(expected, int):
        # Nothing before the close event, nothing in the answer.
        return None if first == expected else f"{actor}: {first!r} (expected {expected})"
    if not isinstance(first, dict):
        return f"{actor}: closed {first} (expected {expected})"
    view = first.get("view", {})
    right = {
        SEATED: first["type"] == "state" and view.get("seat") == 0,
        WATCHING: first["type"] == "state" and view.get("seat") is None and view.get("hand") == [],
        # The POSTed `sync` is not an echo: the check's error frame, and nothing else.
        CHECK: first["type"] == "hello"
        or (case.link == "post" and first.get("code") == "bad_echo"),
        ACCEPTED: first["type"] == "overview",
    }[expected]
    # Nobody of class B ever gets here; class A's links carry no class B data.
    if b.student.student.display_name in json.dumps(first, ensure_ascii=False):
        return f"{actor}: class B's pupil in {first['type']}"
    return None if right else f"{actor}: {first!r} (expected {expected})"
