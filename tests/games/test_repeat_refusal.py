"""A refused card tried again in the same turn is refused unjudged and stored once (§1.8).

Issue 30: one script retried one card 1,471 times, every try judged and logged. The server
keeps the turn's refused cards (Table.refused beside the state, games.refusals), refuses a
repeat without a new claim (`already_refused`, translated, no attempt stored, no reason
asked) and tells the seat's page which cards were refused (`refused` in its state frames).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.catch_up import frames_since
from games.errors import TableError
from games.models import Table
from games.services import table_act, table_replay
from lessons.models import Attempt
from tests.games.helpers import (
    FRACTIONS_SETUP,
    act,
    hold_still,
    make_table,
    receive_until,
    socket,
)

# FRACTIONS_SETUP: seat 1 (the other student) plays first on 1/3, holding 4/12j, 2/3r, 10/12v
# and 1/6b; 2/3 has the denominator 3 but is not equal to 1/3.
WRONG = {"type": "play", "card": "2/3r", "claim": "equal"}


_still = pytest.fixture(autouse=True)(hold_still)


def _try(table: Table, user: Any, action: dict[str, Any]) -> str:
    """Send an action on the stored state; return the refusal's code ("" when applied)."""
    try:
        act(table, user, action)
    except TableError as exc:
        return exc.code
    return ""


def _attempts(table: Table) -> int:
    return Attempt.objects.filter(table_id=table.pk).count()


def _table(class_a: Any, **options: Any) -> Table:
    users = [class_a.student.user, class_a.other_student.user]
    return make_table(users, setup=FRACTIONS_SETUP, options=options or None)


@pytest.mark.django_db
def test_a_repeat_is_refused_and_nothing_is_stored_twice(class_a: Any) -> None:
    table = _table(class_a)
    basile = class_a.other_student.user
    assert _try(table, basile, WRONG) == "not_equivalent"
    assert _attempts(table) == 1
    table.refresh_from_db()
    state, state_id, updated = table.state, table.state_id, table.updated_at
    for _ in range(5):
        assert _try(table, basile, WRONG) == "already_refused"
    assert _attempts(table) == 1
    table.refresh_from_db()
    assert (table.state, table.state_id, table.moves) == (state, state_id, 0)
    assert table.updated_at == updated  # the page's response times still start at the state
    assert table.refused == {"state_id": 0, "seat": 1, "cards": {"2/3r": ["equal"]}}
    assert table_replay(table).to_dict() == table.state  # the state replays as ever


@pytest.mark.django_db
def test_the_repeats_refusal_is_translated(class_a: Any) -> None:
    table = _table(class_a)
    basile = class_a.other_student.user
    _try(table, basile, WRONG)
    table.refresh_from_db()
    with pytest.raises(TableError) as caught:
        table_act(table_id=table.pk, user=basile, action=WRONG, state_id=table.state_id)
    assert caught.value.message_in("fr").startswith("Tu as déjà essayé 2/3 rouge à ce tour")
    assert caught.value.message_in("en").startswith("You already tried red 2/3 this turn")
    assert caught.value.details["card"] == "2/3r"


@pytest.mark.django_db
def test_a_new_claim_is_judged_and_may_be_right(class_a: Any) -> None:
    table = _table(class_a)
    basile = class_a.other_student.user
    assert _try(table, basile, WRONG) == "not_equivalent"
    # The other rule: 2/3 has the denominator 3 of 1/3, so it is accepted.
    assert _try(table, basile, {"type": "play", "card": "2/3r", "claim": "denominator"}) == ""
    assert _attempts(table) == 2
    table.refresh_from_db()
    assert table.state_id == 1
    assert table_replay(table).to_dict() == table.state


@pytest.mark.django_db
def test_the_seats_state_frames_tell_its_refused_cards_only(class_a: Any) -> None:
    table = _table(class_a)
    basile = class_a.other_student.user
    _try(table, basile, WRONG)
    _try(table, basile, {"type": "play", "card": "1/6b"})
    own = frames_since(table_id=table.pk, seat=1, since=0, lang="fr").frames[-1]
    assert own["refused"] == {"2/3r": ["equal"], "1/6b": ["denominator", "equal"]}
    other = frames_since(table_id=table.pk, seat=0, since=0, lang="fr").frames[-1]
    assert other["refused"] == {}
    watcher = frames_since(table_id=table.pk, seat=None, since=0, lang="fr").frames[-1]
    assert "refused" not in watcher
    # The next applied action forgets them: a draw ends what was tried before it.
    assert _try(table, basile, {"type": "draw"}) == ""
    after = frames_since(table_id=table.pk, seat=1, since=0, lang="fr").frames[-1]
    assert after["refused"] == {}


@pytest.mark.django_db
def test_with_a_penalty_a_repeat_draws_nothing_and_stores_nothing(class_a: Any) -> None:
    table = _table(class_a, wrong_attempt_penalty=1)
    basile = class_a.other_student.user
    assert _try(table, basile, WRONG) == ""  # applied: the penalty draw
    table.refresh_from_db()
    hand, state_id = len(table.state["hands"][1]), table.state_id
    assert table.state["refused"] == {"2/3r": ["equal"]}
    assert _try(table, basile, WRONG) == "already_refused"
    table.refresh_from_db()
    assert (len(table.state["hands"][1]), table.state_id) == (hand, state_id)
    assert _attempts(table) == 1
    assert table_replay(table).to_dict() == table.state


@pytest.mark.django_db(transaction=True)
async def test_the_socket_refuses_a_repeat_and_marks_the_card(class_a: Any) -> None:
    users = [class_a.student.user, class_a.other_student.user]
    table = await database_sync_to_async(make_table)(users, setup=FRACTIONS_SETUP)
    comm = await socket(table.pk, users[1])
    await comm.connect()
    first = await receive_until(comm, "state")
    assert first["refused"] == {}
    frame = json.dumps({"type": "action", "action": WRONG, "state_id": 0})
    await comm.send_to(text_data=frame)
    assert (await receive_until(comm, "error"))["code"] == "not_equivalent"
    after = await receive_until(comm, "state")
    assert after["refused"] == {"2/3r": ["equal"]}
    await comm.send_to(text_data=frame)
    repeat = await receive_until(comm, "error")
    assert repeat["code"] == "already_refused"
    assert "ask_reason" not in repeat and "example" not in repeat
    assert repeat["message"].startswith("You already tried red 2/3")  # the cookie's English
    await comm.disconnect()
    assert await database_sync_to_async(_attempts)(table) == 1
