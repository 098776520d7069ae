"""The database work of one move: how many queries each kind of move sends (issue 14, goal 8).

Counted in transactional tests, so the action's `atomic` is the outermost one, as in daphne: the
count is the statements of the move's transaction, its BEGIN and COMMIT aside. The
realistic case is a student of a class session at a Uno Fractions table, attempt log on.
"""

from __future__ import annotations

import functools
import json
from contextlib import nullcontext
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from pytest_django import DjangoAssertNumQueries

from games import consumers, driver, jsontext, outbox, table_seat
from games.broadcast import update_body
from games.engine import Game
from games.errors import TableError
from games.models import Table
from games.services import table_act, table_step
from lessons.models import Attempt, MissedEquivalence, SessionMember, SessionTable
from lessons.sessions.services import session_start
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, act, make_table
from tests.support.outbox import table_updates

pytestmark = pytest.mark.django_db(transaction=True)

# The statements of each kind of move, once the table has seen the seat's student (the
# attempt log keeps a seat's student, class, session and open turn in its own row, which the
# table lock reads with the seats). On PostgreSQL all the writes of a move are one statement
# (games.store: data-modifying WITH clauses); SQLite has none: one statement per write.
_FOLDED = connection.vendor == "postgresql"


def _writes(count: int) -> int:
    return min(count, 1) if _FOLDED else count


PLAY = 1 + _writes(4)  # lock (with seats and their students); attempt, open turn, table, event
# lock; attempt, open turn (a new turn), the table's refused cards (games.refusals)
WRONG_PLAY = 1 + _writes(3)
WRONG_AGAIN = 1 + _writes(2)  # lock; attempt, refused cards (another card in the same turn)
REPEAT = 1  # lock: a card refused this turn, the same claim again, writes nothing (§1.8)
DRAW = 1 + _writes(2)  # lock; table, event
# A draw with an equal card in hand, in a turn of refused tries: the missed equivalence and
# the turn's `drew` are two more writes.
DRAW_MISSED_IN_TURN = 1 + _writes(4)
BOT_STEP = 1 + _writes(2)  # lock; table, event


def _statements(django_assert_num_queries: Any, count: int) -> Any:
    """Expect `count` statements in the move's transaction, besides its BEGIN and COMMIT.

    Both backends log these two as queries (SQLite's is BEGIN IMMEDIATE).
    """
    control = 2
    return django_assert_num_queries(count + control)


@pytest.fixture(autouse=True)
def _quiet_driver() -> Any:
    yield
    driver.cancel_all()


def _session_table(class_a: Any) -> Table:
    """A session table of the class's two students (seat 1, Basile, plays first on 1/3)."""
    session = session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    users = [class_a.student.user, class_a.other_student.user]
    table = make_table(users, setup=FRACTIONS_SETUP, kind=Table.Kind.LESSON)
    seated = SessionTable.objects.create(session=session, table=table, number=1)
    for login in (class_a.student, class_a.other_student):
        SessionMember.objects.create(session=session, student=login.student, table=seated)
    return table


def _wrong(table: Table, user: Any, card: str, counted: Any = None) -> None:
    table.refresh_from_db()
    with counted or nullcontext(), pytest.raises(TableError):
        table_act(
            table_id=table.pk,
            user=user,
            action={"type": "play", "card": card, "claim": "equal"},
            state_id=table.state_id,
        )


def _equal(card: str) -> dict[str, Any]:
    return {"type": "play", "card": card, "claim": "equal"}


def test_a_play_and_wrong_fraction_attempts(
    class_a: ClassWorld, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    table = _session_table(class_a)
    anais, basile = class_a.student.user, class_a.other_student.user
    count = functools.partial(_statements, django_assert_num_queries)
    _wrong(table, basile, "10/12v")  # the seat's first judged play: its student is looked up
    act(table, basile, _equal("4/12j"), count(PLAY))  # on 1/3, in the turn of the try
    act(table, anais, _equal("2/6r"))  # on 4/12 (her first: looked up)
    _wrong(table, basile, "1/6b", count(WRONG_PLAY))  # on 2/6: a new turn
    _wrong(table, basile, "10/12v", count(WRONG_AGAIN))  # the same turn
    _wrong(table, basile, "10/12v", count(REPEAT))  # the same card and claim: not judged again
    table.refresh_from_db()
    assert table.moves == 2 and table.events.get(seq=1).action["card"] == "4/12j"
    session_id = SessionTable.objects.get(table=table).session_id
    tries = Attempt.objects.filter(table_id=table.pk).order_by("id")
    assert [(a.student.user, a.card, a.outcome, a.turn, a.session_id) for a in tries] == [
        (basile, "10/12v", "wrong", 0, session_id),
        (basile, "4/12j", "equal", 0, session_id),  # the accepted play stays in the try's turn
        (anais, "2/6r", "equal", 1, session_id),
        (basile, "1/6b", "wrong", 2, session_id),
        (basile, "10/12v", "wrong", 2, session_id),
    ]
    assert {a.classroom_id for a in tries} == {class_a.classroom.pk}


def test_draws(class_a: ClassWorld, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    table = _session_table(class_a)
    anais, basile = class_a.student.user, class_a.other_student.user
    count = functools.partial(_statements, django_assert_num_queries)
    act(table, basile, _equal("4/12j"))
    # Anaïs on 4/12 holds 2/6 (equal): a refused try, then a draw in that turn.
    _wrong(table, anais, "5/6v")
    act(table, anais, {"type": "draw"}, count(DRAW_MISSED_IN_TURN))
    (missed,) = MissedEquivalence.objects.filter(table_id=table.pk)
    assert missed.equal_cards == ["2/6r"] and missed.student.user == anais
    assert Attempt.objects.get(table_id=table.pk, student__user=anais).drew
    table.refresh_from_db()
    if table.state["turn"] == 0:
        act(table, anais, {"type": "pass"})
    # Basile on 4/12, his last attempt accepted and no equal card in hand: a plain draw.
    act(table, basile, {"type": "draw"}, count(DRAW))
    table.refresh_from_db()
    assert table.events.latest("seq").action == {"type": "draw"}
    assert MissedEquivalence.objects.count() == 1
    assert not Attempt.objects.filter(table_id=table.pk, student__user=basile, drew=True)


def test_a_bot_step(class_a: ClassWorld, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    table = make_table([class_a.student.user, None], setup=FRACTIONS_SETUP)
    table.refresh_from_db()
    with _statements(django_assert_num_queries, BOT_STEP):
        outcome = table_step(table_id=table.pk, state_id=table.state_id)
    assert outcome is not None and outcome.state_id == table.state_id + 1
    table.refresh_from_db()
    assert table.events.get().actor == "bot"


def test_counts_are_those_of_the_database_in_use() -> None:
    assert connection.vendor in ("sqlite", "postgresql")


def test_a_broadcast_reads_nothing_per_recipient(
    class_a: Any, django_assert_num_queries: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each socket builds its seat's frames from the published update alone: no query."""
    table = _session_table(class_a)
    with outbox.captured() as sent:
        act(table, class_a.other_student.user, _equal("4/12j"))
    (message,) = table_updates(sent)
    hopped: list[Any] = []
    # A query in a worker thread would escape the count: no hop to a thread at all.
    monkeypatch.setattr(table_seat, "in_thread", lambda func: hopped.append(func))
    for seat in (0, 1, None):  # both players and a watching teacher
        sock = consumers.TableConsumer()
        sock.seat, sock.lang, sock.table_id = seat, "fr", table.pk
        sock.last_state_id = message["state_id"] - 1
        frames: list[dict[str, Any]] = []

        async def record(frame: dict[str, Any], frames: list[dict[str, Any]] = frames) -> None:
            frames.append(json.loads(jsontext.dumps(frame)))

        sock.send_frame = record  # type: ignore[method-assign]
        with django_assert_num_queries(0):
            async_to_sync(sock.table_update)(message)
        assert [frame["type"] for frame in frames][-1] == "state"
        assert frames[-1]["state_id"] == message["state_id"]
        view = frames[-1]["view"]
        # Each seat sees its own hand only; the teacher sees none.
        assert view["hand"] == Game.from_dict(update_body(message)["state"]).view(seat)["hand"]
        assert bool(view["hand"]) == (seat is not None)
    assert hopped == []
