"""The turn timer and the server's steps follow the engine's answer to "who must act now"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import Game
from games.models import Table, TableEvent
from games.services import due_seat, next_step_for, round_pause, table_act, table_step
from lessons.models import User
from tests.games.helpers import make_table

pytestmark = pytest.mark.django_db

# Uno Fractions: seat 1 plays first on 1/3 and holds a +4; seat 0 will have to answer it.
PLUS4_SETUP = {
    "dealer": 0,
    "hands": [["2/6r", "5/6v", "1/2b", "joker"], ["+04", "2/3r", "10/12v", "1/6b"]],
    "start": "1/3v",
}
# Seat 1 finishes the round with its only card (the game goes on: 100 points to win).
LAST_CARD_SETUP = {"dealer": 0, "hands": [["2/6r", "5/6v"], ["4/12r"]], "start": "1/3v"}
TIMER = {"turn_timer": 30}


def _expire(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def test_due_seat_is_the_engine_acting_seat_not_a_recomputation() -> None:
    # A view where "turn" and "acting" disagree: only the engine's "acting" counts.
    assert due_seat({"turn": 0, "awaiting": None, "acting": 1}) == 1
    assert due_seat({"turn": 0, "awaiting": None, "acting": None}) is None


def test_the_timer_is_armed_only_when_a_student_acts(pair: tuple[User, User]) -> None:
    student_first = make_table([None, pair[0]], setup=PLUS4_SETUP, table_settings=TIMER)
    assert Game.from_dict(student_first.state).acting_seat() == 1
    assert student_first.deadline is not None
    bot_first = make_table([pair[0], None], setup=PLUS4_SETUP, table_settings=TIMER)
    assert bot_first.deadline is None
    step = next_step_for(bot_first)
    assert step is not None and step.state_id == bot_first.state_id


def test_an_awaited_plus4_arms_the_timer_and_the_timer_accepts_it(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=PLUS4_SETUP, table_settings=TIMER)
    table_act(table_id=table.pk, user=pair[1], action={"type": "play", "card": "+04"}, state_id=0)
    table.refresh_from_db()
    game = Game.from_dict(table.state)
    assert game.view(None)["turn"] is None and game.acting_seat() == 0
    assert table.deadline is not None
    assert table_step(table_id=table.pk, state_id=table.state_id) is None  # not yet due
    _expire(table)
    assert table_step(table_id=table.pk, state_id=table.state_id) is not None
    event = TableEvent.objects.filter(table=table).order_by("seq").last()
    assert event is not None
    # The server plays the engine's timeout action for the awaited seat: it takes the cards.
    assert (event.seat, event.action, event.actor) == (
        0,
        {"type": "accept"},
        TableEvent.Actor.TIMER,
    )
    table.refresh_from_db()
    assert Game.from_dict(table.state).acting_seat() == 1 and table.deadline is not None


def test_no_timer_between_rounds(pair: tuple[User, User]) -> None:
    table = make_table(
        list(pair), setup=LAST_CARD_SETUP, table_settings=TIMER, options={"target_score": 100}
    )
    outcome = table_act(
        table_id=table.pk,
        user=pair[1],
        action={"type": "play", "card": "4/12r", "claim": "equal"},
        state_id=0,
    )
    table.refresh_from_db()
    game = Game.from_dict(table.state)
    assert game.view(None)["round_over"] and game.acting_seat() is None
    assert table.deadline is None
    assert outcome.next_step is not None and outcome.next_step.delay == round_pause()
