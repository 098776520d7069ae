"""A class session's play page and its sockets: the table number, the first state, the next
game, a session that ends, and a sign-out that closes every socket of the signed-out session."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.models import Session
from django.test import Client, RequestFactory
from django.urls import reverse
from pytest_django.fixtures import Settings

from games import driver, hooks
from games.models import Table
from games.realtime.consumer import CLOSE_SIGNED_OUT, SIGNIN_CHECK_SECONDS
from games.realtime.signin import still_signed_in
from games.services import table_finish
from lessons.home.landing import STUDENT_DEVICE_COOKIE
from lessons.models import SessionMember, SessionTable
from lessons.sessions.services import session_end, session_start
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, make_table, receive_until
from tests.support.factories import TEACHER_PASSWORD, signed_in_client
from unoclass.asgi import application


@pytest.fixture(autouse=True)
def _slow_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 60  # nothing moves by itself during these tests
    yield
    driver.cancel_all()


def _session_table(class_a: Any, number: int = 2) -> tuple[Any, Table]:
    """Open a session whose table `number` seats the class's two students (seat 1 first)."""
    session = session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    # A table or two before: the table's id is not its number in the session.
    for _ in range(3):
        make_table([class_a.student.user, None])
    users = [class_a.student.user, class_a.other_student.user]
    table = make_table(users, setup=FRACTIONS_SETUP, kind=Table.Kind.LESSON)
    seated = SessionTable.objects.create(session=session, table=table, number=number)
    for login in (class_a.student, class_a.other_student):
        SessionMember.objects.create(session=session, student=login.student, table=seated)
    assert table.pk != number
    return session, table


def _json_script(html: str, element_id: str) -> Any:
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html)
    assert found, element_id
    return json.loads(found.group(1))


# --- The play page ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_play_page_shows_the_session_number_not_the_table_id(class_a: ClassWorld) -> None:
    session, table = _session_table(class_a, number=2)
    for user in (class_a.student.user, class_a.teacher):
        html = signed_in_client(user).get(reverse("games:play", args=[table.pk])).content.decode()
        assert re.search(r'id="play-table-number">Table 2<', html), html[:3000]
        assert f"Table {table.pk}<" not in html
    place = hooks.table_place(table)
    assert place == hooks.TablePlace(
        number=2, ended=False, next_game_url=reverse("session_join", args=[session.pk])
    )


@pytest.mark.django_db
def test_a_practice_table_keeps_its_own_wording(class_a: ClassWorld) -> None:
    table = make_table([class_a.student.user, None], setup=FRACTIONS_SETUP)
    assert hooks.table_place(table) is None
    html = (
        signed_in_client(class_a.student.user).get(reverse("games:play", args=[table.pk])).content
    )
    text = html.decode()
    assert f'id="play-table-number">Table {table.pk}<' in text
    assert 'data-session="0"' in text
    # Its end offers the same game anew (issue 30, 1.7), never the session's next game.
    again = reverse("games:replay", args=[table.pk])
    assert f'action="{again}" id="play-next-game"' in text
    assert "Partie suivante" not in text and "Next game" not in text


@pytest.mark.django_db
def test_the_page_carries_the_seat_state_and_nothing_more(class_a: ClassWorld) -> None:
    _session, table = _session_table(class_a)
    html = (
        signed_in_client(class_a.student.user).get(reverse("games:play", args=[table.pk])).content
    )
    first = _json_script(html.decode(), "play-first-state")
    assert first["type"] == "state" and first["state_id"] == 0
    assert first["view"]["seat"] == 0
    assert first["view"]["hand"] == FRACTIONS_SETUP["hands"][0]
    assert first["table"]["status"] == "playing"
    dumped = json.dumps(first)
    assert "hands" not in dumped and "draw_pile" not in first["view"]
    assert "4/12j" not in dumped  # the other seat's card is never in this seat's state
    # The watching teacher gets the seatless view: counts, no hand.
    teacher = signed_in_client(class_a.teacher).get(reverse("games:play", args=[table.pk])).content
    watched = _json_script(teacher.decode(), "play-first-state")
    assert watched["view"]["seat"] is None and watched["view"]["hand"] == []


@pytest.mark.django_db
def test_next_game_is_a_post_to_the_session_and_gone_once_it_ended(class_a: ClassWorld) -> None:
    session, table = _session_table(class_a)
    student = signed_in_client(class_a.student.user)
    html = student.get(reverse("games:play", args=[table.pk])).content.decode()
    join = reverse("session_join", args=[session.pk])
    assert re.search(rf'<form method="post" action="{join}" id="play-next-game"', html)
    assert 'data-session="1"' in html
    # The teacher watches: no next game for them.
    teacher = signed_in_client(class_a.teacher).get(reverse("games:play", args=[table.pk])).content
    assert b'id="play-next-game"' not in teacher
    session_end(session=session, teacher=class_a.teacher)
    assert hooks.table_place(table) == hooks.TablePlace(number=2, ended=True, next_game_url=None)
    html = student.get(reverse("games:play", args=[table.pk])).content.decode()
    assert 'id="play-next-game"' not in html
    assert _json_script(html, "play-first-state")["table"]["status"] == "finished"


@pytest.mark.django_db
def test_the_next_game_button_seats_the_table_at_a_new_game(class_a: ClassWorld) -> None:
    session, table = _session_table(class_a)
    table_finish(table_id=table.pk)  # as a game over does
    response = signed_in_client(class_a.student.user).post(
        reverse("session_join", args=[session.pk])
    )
    assert response.status_code == 302
    follow = signed_in_client(class_a.student.user).get(response["Location"])
    assert follow.status_code == 302
    new_table = int(follow["Location"].rstrip("/").rsplit("/", 1)[1])
    assert new_table != table.pk
    # The same table's next game: its number stays, the game counts on (issue 30).
    before, after = (SessionTable.objects.get(table_id=t) for t in (table.pk, new_table))
    assert (after.number, after.game) == (before.number, before.game + 1)


# --- Signing out --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_student_who_signs_out_lands_on_join_and_so_does_going_back(class_a: ClassWorld) -> None:
    _session, table = _session_table(class_a)
    student = signed_in_client(class_a.student.user)
    response = student.post(reverse("logout"))
    assert response.status_code == 302 and response["Location"] == reverse("join")
    device = response.cookies[STUDENT_DEVICE_COOKIE]
    assert device.value == "1" and device["httponly"] and device["samesite"] == "Lax"
    assert "_auth_user_id" not in student.session
    # Back to the table: the sign-in it asks for is the class code, not the teacher's form.
    back = student.get(reverse("games:play", args=[table.pk]), follow=True)
    assert back.redirect_chain[-1][0] == reverse("join")
    # The teacher's form is still there from the menu; a teacher's sign-in forgets the device.
    assert student.get(reverse("login")).status_code == 200
    signed_in = student.post(
        reverse("login"), {"username": class_a.teacher.username, "password": TEACHER_PASSWORD}
    )
    assert signed_in.status_code == 302
    forgotten = signed_in.cookies[STUDENT_DEVICE_COOKIE]
    assert forgotten.value == "" and forgotten["max-age"] == 0 and forgotten["httponly"]
    # A teacher whose device was never a student's gets no cookie about it.
    again = Client().post(
        reverse("login"), {"username": class_a.teacher.username, "password": TEACHER_PASSWORD}
    )
    assert again.status_code == 302 and STUDENT_DEVICE_COOKIE not in again.cookies


@pytest.mark.django_db
def test_a_teacher_who_signs_out_lands_on_home(class_a: ClassWorld) -> None:
    teacher = signed_in_client(class_a.teacher)
    response = teacher.post(reverse("logout"))
    assert response["Location"] == reverse("home")
    assert STUDENT_DEVICE_COOKIE not in response.cookies
    anonymous = Client().get(reverse("games:play", args=[1]))
    assert anonymous["Location"].startswith(reverse("login"))


@pytest.mark.django_db
def test_an_anonymous_sign_out_sends_nothing(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.realtime import signout

    sent: list[Any] = []
    monkeypatch.setattr(signout, "tell_signed_out", lambda *a: sent.append(a))
    request = RequestFactory().post("/logout/")
    user_logged_out.send(sender=None, request=request, user=None)
    assert sent == []
    assert Client().post(reverse("logout")).status_code == 302
    assert sent == []


# --- Sockets ------------------------------------------------------------------------------


def _login_cookie(user: Any) -> tuple[Client, bytes]:
    """Sign a test client in; return it and the Cookie header of its session."""
    client = signed_in_client(user)
    key = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    return client, f"{django_settings.SESSION_COOKIE_NAME}={key}; django_language=en".encode()


def _socket(path: str, cookie: bytes) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)]
    return WebsocketCommunicator(application, path, headers=headers)


async def _close_code(comm: WebsocketCommunicator, timeout: float = 3) -> int | None:
    """Read until the server closes the socket; return the close code."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        output = await comm.receive_output(timeout=deadline - time.monotonic())
        if output["type"] == "websocket.close":
            return output.get("code")
    raise AssertionError("the socket stayed open")


@pytest.mark.django_db(transaction=True)
async def test_signing_out_closes_every_socket_of_that_session(class_a: ClassWorld) -> None:
    session, table = await database_sync_to_async(_session_table)(class_a)
    user = class_a.other_student.user  # seat 1: it is their turn
    tab, cookie = await database_sync_to_async(_login_cookie)(user)
    _other_device, other_cookie = await database_sync_to_async(_login_cookie)(user)
    play = _socket(f"/ws/table/{table.pk}/", cookie)
    second_tab = _socket(f"/ws/table/{table.pk}/", cookie)
    elsewhere = _socket(f"/ws/table/{table.pk}/", other_cookie)
    for comm in (play, second_tab, elsewhere):
        assert (await comm.connect())[0]
        await receive_until(comm, "state")

    await database_sync_to_async(tab.post)(reverse("logout"))

    assert await _close_code(play) == CLOSE_SIGNED_OUT
    assert await _close_code(second_tab) == CLOSE_SIGNED_OUT
    # Another device's own sign-in is not this one: it stays and still plays.
    await elsewhere.send_to(text_data=json.dumps({"type": "sync"}))
    assert (await receive_until(elsewhere, "state"))["state_id"] == 0
    await elsewhere.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_teachers_sign_out_closes_their_overview_at_once(class_a: ClassWorld) -> None:
    session, _table = await database_sync_to_async(_session_table)(class_a)
    tab, cookie = await database_sync_to_async(_login_cookie)(class_a.teacher)
    overview = _socket(f"/ws/session/{session.pk}/", cookie)
    assert (await overview.connect())[0]
    await receive_until(overview, "overview")
    await database_sync_to_async(tab.post)(reverse("logout"))
    assert await _close_code(overview) == CLOSE_SIGNED_OUT


@pytest.mark.django_db(transaction=True)
async def test_an_action_from_a_signed_out_session_is_refused(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sign-out message may be lost (a restarted channel layer): the socket checks its
    # session before it acts (at most SIGNIN_CHECK_SECONDS after the last check), and closes
    # with 4401 without applying anything.

    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    _session, table = await database_sync_to_async(_session_table)(class_a)
    user = class_a.other_student.user
    _tab, cookie = await database_sync_to_async(_login_cookie)(user)
    comm = _socket(f"/ws/table/{table.pk}/", cookie)
    assert (await comm.connect())[0]
    await receive_until(comm, "state")
    await database_sync_to_async(lambda: Session.objects.all().delete())()
    now[0] += SIGNIN_CHECK_SECONDS + 0.1
    draw = {"type": "action", "action": {"type": "draw"}, "state_id": 0}
    await comm.send_to(text_data=json.dumps(draw))
    assert await _close_code(comm) == CLOSE_SIGNED_OUT
    stored = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert stored.state_id == 0


@pytest.mark.django_db(transaction=True)
async def test_the_sign_in_check_is_cached_between_frames(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.realtime import link

    _session, table = await database_sync_to_async(_session_table)(class_a)
    _tab, cookie = await database_sync_to_async(_login_cookie)(class_a.student.user)
    calls: list[float] = []
    now = [1000.0]

    def counted(scope: Any) -> bool:
        calls.append(now[0])
        return still_signed_in(scope)

    monkeypatch.setattr(link, "still_signed_in", counted)
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    comm = _socket(f"/ws/table/{table.pk}/", cookie)
    assert (await comm.connect())[0]
    await receive_until(comm, "state")
    for _ in range(5):
        await comm.send_to(text_data=json.dumps({"type": "sync"}))
        await receive_until(comm, "state")
    assert calls == []  # the handshake has just signed in: no check for frames within the window
    now[0] += SIGNIN_CHECK_SECONDS + 0.1
    for _ in range(3):
        await comm.send_to(text_data=json.dumps({"type": "sync"}))
        await receive_until(comm, "state")
    assert len(calls) == 1  # one check for three frames of the next window
    now[0] += SIGNIN_CHECK_SECONDS + 0.1
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    await receive_until(comm, "state")
    assert len(calls) == 2
    await comm.disconnect()


# --- A session that ends ------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_ending_the_session_tells_the_open_table_sockets(class_a: ClassWorld) -> None:
    session, table = await database_sync_to_async(_session_table)(class_a)
    _tab, cookie = await database_sync_to_async(_login_cookie)(class_a.other_student.user)
    comm = _socket(f"/ws/table/{table.pk}/", cookie)
    assert (await comm.connect())[0]
    before = await receive_until(comm, "state")
    assert before["table"]["status"] == "playing" and before["view"]["acting"] == 1

    await database_sync_to_async(session_end)(session=session, teacher=class_a.teacher)

    after = await receive_until(comm, "state")
    # The same game, stopped: the page says the session has ended and offers no action.
    assert after["table"]["status"] == "finished"
    assert after["view"]["game_over"] is False and after["table"]["deadline"] is None
    draw = {"type": "action", "action": {"type": "draw"}, "state_id": after["state_id"]}
    await comm.send_to(text_data=json.dumps(draw))
    assert (await receive_until(comm, "error"))["code"] == "finished"
    await comm.disconnect()
