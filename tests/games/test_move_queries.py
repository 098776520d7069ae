"""The database work of one move: how many queries each kind of move sends (issue 14, goal 8).

Counted in transactional tests, so the action's `atomic` is the outermost one, as in daphne: the
count is the statements of the move's transaction (BEGIN and COMMIT are not counted). The
realistic case is a student of a class session at a Uno Fractions table, attempt log on.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import pytest
from django.db import connection

from games import driver
from games.models import Table
from games.services import TableError, table_act, table_step
from lessons.models import Attempt, MissedEquivalence, SessionMember, SessionTable
from lessons.sessions.services import session_start
from tests.games.helpers import FRACTIONS_SETUP, make_table

pytestmark = pytest.mark.django_db(transaction=True)

# Today's counts (before the cut), per move kind: the statements inside the transaction.
PLAY = 9  # lock, seats, student, session, last attempt, others since, attempt, table, event
WRONG_PLAY = 7  # lock, seats, student, session, last attempt, others since, attempt
DRAW = 9  # lock, seats, student, session, missed eq., student, last attempt, table, event
BOT_STEP = 4  # lock, seats, table, event


def _statements(django_assert_num_queries: Any, count: int) -> Any:
    """Expect `count` statements in the move's transaction.

    SQLite's backend logs its BEGIN IMMEDIATE and COMMIT as queries; psycopg logs neither.
    """
    control = 2 if connection.vendor == "sqlite" else 0
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


def _act(table: Table, user: Any, action: dict[str, Any], counted: Any = None) -> None:
    """Apply an action on the stored state; `counted` (a query-count context) wraps only it."""
    table.refresh_from_db()
    with counted or nullcontext():
        table_act(table_id=table.pk, user=user, action=action, state_id=table.state_id)


def _wrong(table: Table, user: Any, card: str, counted: Any = None) -> None:
    table.refresh_from_db()
    with counted or nullcontext(), pytest.raises(TableError):
        table_act(
            table_id=table.pk,
            user=user,
            action={"type": "play", "card": card, "claim": "equal"},
            state_id=table.state_id,
        )


def test_a_wrong_fraction_attempt(class_a, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    table = _session_table(class_a)
    basile = class_a.other_student.user
    _wrong(table, basile, "10/12v")  # the first play of the table fills what is kept
    _wrong(table, basile, "2/3r", _statements(django_assert_num_queries, WRONG_PLAY))
    tries = list(Attempt.objects.filter(table_id=table.pk).order_by("id"))
    assert [(a.card, a.outcome, a.turn) for a in tries] == [
        ("10/12v", "wrong", 0),
        ("2/3r", "wrong", 0),
    ]
    assert {a.session_id for a in tries} == {SessionTable.objects.get(table=table).session_id}


def test_a_play(class_a, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    table = _session_table(class_a)
    basile = class_a.other_student.user
    _wrong(table, basile, "10/12v")
    play = {"type": "play", "card": "4/12j", "claim": "equal"}
    _act(table, basile, play, _statements(django_assert_num_queries, PLAY))
    table.refresh_from_db()
    assert table.moves == 1 and table.events.get().action["card"] == "4/12j"
    last = Attempt.objects.filter(table_id=table.pk).latest("id")
    # The accepted play stays in the turn its refused try opened.
    assert (last.card, last.outcome, last.turn) == ("4/12j", "equal", 0)


def test_a_draw(class_a, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    table = _session_table(class_a)
    anais, basile = class_a.student.user, class_a.other_student.user
    _act(table, basile, {"type": "play", "card": "4/12j", "claim": "equal"})
    # Anaïs on 4/12 holds 2/6 (equal): her draw is a missed equivalence.
    _act(table, anais, {"type": "draw"}, _statements(django_assert_num_queries, DRAW))
    table.refresh_from_db()
    assert table.moves == 2 and table.events.latest("seq").action == {"type": "draw"}
    (missed,) = MissedEquivalence.objects.filter(table_id=table.pk)
    assert missed.equal_cards == ["2/6r"]


def test_a_bot_step(class_a, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    table = make_table([class_a.student.user, None], setup=FRACTIONS_SETUP)
    table.refresh_from_db()
    with _statements(django_assert_num_queries, BOT_STEP):
        outcome = table_step(table_id=table.pk, state_id=table.state_id)
    assert outcome is not None and outcome.state_id == table.state_id + 1
    table.refresh_from_db()
    assert table.events.get().actor == "bot"


def test_counts_are_those_of_the_database_in_use() -> None:
    assert connection.vendor in ("sqlite", "postgresql")
