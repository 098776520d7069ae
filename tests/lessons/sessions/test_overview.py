"""The teacher's live overview: figures, alerts, and its socket (access and live updates)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries
from pytest_django.fixtures import Settings

from games import driver
from games.errors import TableError
from games.models import Table
from games.realtime.consumer import CLOSE_NO_ACCESS, CLOSE_SIGNED_OUT
from games.services import table_act
from lessons.sessions.overview import IDLE_SECONDS, session_overview
from lessons.sessions.services import session_start
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, receive_until, session_cookie
from tests.lessons.sessions.helpers import scripted_session
from unoclass.asgi import application


def _wrong_play(table: Table, user: Any) -> None:
    with pytest.raises(TableError):
        table_act(
            table_id=table.pk,
            user=user,
            action={"type": "play", "card": "10/12v", "claim": "equal"},
            state_id=0,
        )


@pytest.mark.django_db
def test_figures_and_alerts(class_a: ClassWorld) -> None:
    session, table = scripted_session(class_a)
    player = class_a.other_student
    overview = session_overview(session=session)
    assert overview.alerts == []
    (row,) = overview.tables
    assert [s.cards for s in row.seats] == [4, 4]
    assert [s.waited_on for s in row.seats] == [False, True]
    for _ in range(3):
        _wrong_play(table, player.user)
    later = timezone.now() + timedelta(seconds=IDLE_SECONDS + 1)
    overview = session_overview(session=session, now=later)
    student = next(s for s in overview.students if s.student_id == player.student.pk)
    # One card refused three times in one turn: one wrong play, as the diagnosis reads it
    # (the first claim of a turn), so neither a streak nor a repeated mistake.
    assert (student.attempts, student.errors) == (1, 1)
    kinds = [a.kind for a in student.alerts]
    assert kinds == ["idle"]
    other = next(s for s in overview.students if s.student_id == class_a.student.student.pk)
    assert other.alerts == []  # not their turn: never idle


@pytest.mark.django_db
def test_a_right_play_breaks_the_wrong_streak(class_a: ClassWorld) -> None:
    session, table = scripted_session(class_a)
    player = class_a.other_student.user
    for _ in range(2):
        _wrong_play(table, player)
    table_act(
        table_id=table.pk,
        user=player,
        action={"type": "play", "card": "4/12j", "claim": "equal"},
        state_id=0,
    )
    overview = session_overview(session=session)
    assert "wrong_streak" not in [a.kind for a in overview.alerts]


async def _overview_socket(
    session_id: int, user: Any, language: str = "en"
) -> WebsocketCommunicator:
    """Open a communicator on the overview socket, signed in as `user`, in `language`."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if user is not None:
        cookie = await database_sync_to_async(session_cookie)(user)  # asks for English
        headers.append((b"cookie", cookie.replace(b"=en", f"={language}".encode())))
    return WebsocketCommunicator(application, f"/ws/session/{session_id}/", headers=headers)


async def _watching(
    class_a: Any, settings: Settings
) -> tuple[Any, Table, WebsocketCommunicator, dict[str, Any]]:
    """Open the scripted session and its overview socket as its teacher; read the first frame.

    Robots wait a minute: nothing but the test moves on the table.
    """
    settings.GAMES_BOT_DELAY = 60
    session, table = await database_sync_to_async(scripted_session)(class_a)
    comm = await _overview_socket(session.pk, class_a.teacher)
    connected, _ = await comm.connect()
    assert connected
    return session, table, comm, await receive_until(comm, "overview")


async def _accepted_then_closed(comm: Any) -> int:
    """Connect; check the socket was accepted, then closed with nothing sent; return the code.

    A refused handshake would reach a browser as 1006, which the page cannot tell from a
    dropped connection.
    """
    connected, _ = await comm.connect()
    assert connected, "refused at the handshake: a browser would only see 1006"
    output = await comm.receive_output(timeout=3)
    assert output["type"] == "websocket.close", output  # nothing before the close
    return int(output["code"])


async def _close_code_after(comm: Any) -> int:
    """Read frames until the server closes the socket (a bounded number); return the code."""
    for _ in range(20):
        output = await comm.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            return int(output["code"])
    raise AssertionError("the socket stayed open")


@pytest.mark.django_db(transaction=True)
async def test_socket_refuses_anyone_but_the_class_teacher(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    session, _table = await database_sync_to_async(scripted_session)(class_a)
    for user, code in [
        (None, CLOSE_SIGNED_OUT),
        (class_b.teacher, CLOSE_NO_ACCESS),
        (class_a.student.user, CLOSE_NO_ACCESS),
    ]:
        assert await _accepted_then_closed(await _overview_socket(session.pk, user)) == code
    missing = await _overview_socket(session.pk + 999, class_a.teacher)
    assert await _accepted_then_closed(missing) == CLOSE_NO_ACCESS
    assert (CLOSE_SIGNED_OUT, CLOSE_NO_ACCESS) == (4401, 4403)  # what the page reads


def _sign_everyone_out() -> None:
    from django.contrib.sessions.models import Session

    Session.objects.all().delete()  # what a log-out in another tab does to the session row


@pytest.mark.django_db(transaction=True)
async def test_a_teacher_signed_out_elsewhere_is_closed_with_4401(
    class_a: ClassWorld, settings: Settings
) -> None:
    session, _table, comm, _first = await _watching(class_a, settings)
    await database_sync_to_async(_sign_everyone_out)()
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    assert await _close_code_after(comm) == CLOSE_SIGNED_OUT
    driver.cancel_all()


@pytest.mark.django_db(transaction=True)
async def test_a_teacher_who_lost_the_class_is_closed_with_4403(
    class_a: ClassWorld, class_b: ClassWorld, settings: Settings
) -> None:
    session, _table, comm, _first = await _watching(class_a, settings)

    def _give_away() -> None:
        class_a.classroom.teacher = class_b.teacher
        class_a.classroom.save(update_fields=["teacher"])

    await database_sync_to_async(_give_away)()
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    assert await _close_code_after(comm) == CLOSE_NO_ACCESS
    driver.cancel_all()


# Each bad frame gets an error frame with its code; the socket stays open and still syncs.
OVERVIEW_BAD_FRAMES = [
    ({"text_data": "{not json"}, "bad_json"),
    ({"text_data": "[1, 2]"}, "unknown_type"),
    ({"text_data": '{"type": "action", "action": {"type": "draw"}}'}, "unknown_type"),
    ({"text_data": '{"sync": true}'}, "unknown_type"),
    ({"text_data": json.dumps({"type": "sync", "pad": "x" * 2000})}, "too_large"),
    ({"text_data": "[" * 3000 + "]" * 3000}, "too_large"),
    ({"bytes_data": b"\x00\x01"}, "bad_frame"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("frame", "code"), OVERVIEW_BAD_FRAMES)
async def test_bad_frames_on_the_overview_get_an_error(
    class_a: ClassWorld, settings: Settings, frame: dict[str, Any], code: str
) -> None:
    session, _table, comm, _first = await _watching(class_a, settings)
    await comm.send_to(**frame)
    error = await receive_until(comm, "error")
    assert error["code"] == code
    assert error["message"] and "Traceback" not in error["message"]
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    assert (await receive_until(comm, "overview"))["data"]["session"] == session.pk
    await comm.disconnect()
    driver.cancel_all()


@pytest.mark.django_db(transaction=True)
async def test_a_sync_flood_on_the_overview_is_rate_limited(
    class_a: ClassWorld, settings: Settings
) -> None:
    session, _table, comm, _first = await _watching(class_a, settings)
    flood = 12
    for _ in range(flood):
        await comm.send_to(text_data=json.dumps({"type": "sync"}))
    kinds: list[str] = []
    for _ in range(flood):
        frame = json.loads(await comm.receive_from(timeout=3))
        kinds.append(frame.get("code") or frame["type"])
    # A burst of 5 snapshots at most (each costs queries and may take the session's lock).
    assert kinds.count("rate_limited") >= flood - 6
    assert "overview" in kinds
    await comm.disconnect()
    driver.cancel_all()


@pytest.mark.django_db(transaction=True)
async def test_overview_errors_speak_the_socket_language(
    class_a: ClassWorld, settings: Settings
) -> None:
    settings.GAMES_BOT_DELAY = 60
    session, _table = await database_sync_to_async(scripted_session)(class_a)
    for language, message in [("en", "Unknown message type."), ("fr", "Type de message inconnu.")]:
        comm = await _overview_socket(session.pk, class_a.teacher, language=language)
        assert (await comm.connect())[0]
        first = await receive_until(comm, "overview")
        await comm.send_to(text_data='{"type": "dance"}')
        assert (await receive_until(comm, "error"))["message"] == message
        # The HTML part of the overview speaks it too.
        assert ("Students" if language == "en" else "Élèves") in first["html"]
        await comm.disconnect()
    driver.cancel_all()


@pytest.mark.django_db(transaction=True)
async def test_socket_sends_an_update_after_a_play_and_no_hand(
    class_a: ClassWorld, settings: Settings
) -> None:
    session, table, comm, first = await _watching(class_a, settings)
    assert [s["attempts"] for s in first["data"]["students"]] == [0, 0]
    await database_sync_to_async(table_act)(
        table_id=table.pk,
        user=class_a.other_student.user,
        action={"type": "play", "card": "4/12j", "claim": "equal"},
        state_id=0,
    )
    while True:
        frame = await receive_until(comm, "overview")
        attempts = {s["id"]: s["attempts"] for s in frame["data"]["students"]}
        if attempts[class_a.other_student.student.pk] == 1:
            break
    (seats,) = [t["seats"] for t in frame["data"]["tables"]]
    assert [s["cards"] for s in seats] == [4, 3]
    text = json.dumps(frame)
    for card in FRACTIONS_SETUP["hands"][0]:
        assert card not in text  # seat 0's hand is never sent
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    assert (await receive_until(comm, "overview"))["data"]["session"] == session.pk
    await comm.send_to(text_data="not json")
    assert (await receive_until(comm, "error"))["message"]
    await comm.disconnect()
    driver.cancel_all()


@pytest.mark.django_db
@pytest.mark.parametrize("count", [3, 24])
def test_overview_queries_do_not_grow_with_the_class(
    class_a: ClassWorld, count: int, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    from lessons.sessions.services import session_join, session_seat_now
    from tests.lessons.sessions.helpers import class_of

    classroom, students = class_of(class_a.teacher, count)
    session = session_start(teacher=class_a.teacher, classroom=classroom)
    for student in students:
        session_join(session=session, student=student)
    session_seat_now(session=session, teacher=class_a.teacher)
    with django_assert_max_num_queries(6):
        overview = session_overview(session=session)
    assert sum(len(t.seats) for t in overview.tables) >= count


def _finish(table_id: int) -> None:
    from games.services import table_finish

    table_finish(table_id=table_id)


@pytest.mark.django_db(transaction=True)
async def test_watched_session_starts_a_new_game_where_one_ended(
    class_a: ClassWorld, settings: Settings
) -> None:
    session, table, comm, _first = await _watching(class_a, settings)
    await database_sync_to_async(_finish)(table.pk)
    while True:
        frame = await receive_until(comm, "overview")
        # The new game, at the same table number (issue 30: 1, 2, 3… within a session).
        shown = [(t["number"], t["table"]) for t in frame["data"]["tables"]]
        if len(shown) == 1 and shown[0][1] != table.pk:
            break
    assert shown[0][0] == 1
    assert {s["table"] for s in frame["data"]["students"]} == {1}
    await comm.disconnect()
    driver.cancel_all()
