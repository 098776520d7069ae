"""Table services: one action at a time, stored before it is broadcast, replayable."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import hooks
from games.models import Table, TableEvent
from games.services import (
    TableError,
    seat_set_takeover,
    table_act,
    table_replay,
    table_step,
)
from tests.games.helpers import FRACTIONS_SETUP, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair(class_a):  # type: ignore[no-untyped-def]
    return class_a.student.user, class_a.other_student.user


def test_create_stores_state_and_seats(pair):  # type: ignore[no-untyped-def]
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    assert table.state_id == 0
    assert [s.name for s in table.seats.all()] == [u.username for u in pair]
    assert table.seats.filter(user__isnull=False).count() == 2


def test_bad_options_are_refused_and_create_nothing(pair):  # type: ignore[no-untyped-def]
    with pytest.raises(TableError) as err:
        make_table(list(pair), options={"no_such_option": 1})
    assert err.value.code == "bad_option"
    assert Table.objects.count() == 0


def test_action_is_applied_stored_and_broadcast_after_commit(
    pair, django_capture_on_commit_callbacks
):  # type: ignore[no-untyped-def]
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    with django_capture_on_commit_callbacks() as callbacks:
        outcome = table_act(
            table_id=table.pk,
            user=pair[1],
            action={"type": "play", "card": "4/12j", "claim": "equal"},
            state_id=0,
        )
    assert len(callbacks) == 1
    table.refresh_from_db()
    assert table.state_id == outcome.state_id == 1
    event = TableEvent.objects.get(table=table)
    assert (event.seq, event.seat, event.action["card"]) == (1, 1, "4/12j")
    assert any(e["type"] == "played" for e in event.result)


@pytest.mark.parametrize(
    ("seat_user", "action", "state_id", "code"),
    [
        (0, {"type": "draw"}, 0, "not_your_turn"),
        (1, {"type": "play", "card": "1/2b"}, 0, "card_not_in_hand"),
        (1, {"type": "draw"}, 5, "stale_state"),
        (1, "draw", 0, "bad_action"),
        (1, {"type": 3}, 0, "bad_action"),
        (1, {"type": "draw"}, "0", "bad_state_id"),
        (1, {"type": "fly"}, 0, "bad_action"),
    ],
)
def test_refused_actions_change_nothing(pair, seat_user, action, state_id, code):  # type: ignore[no-untyped-def]
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    before = Table.objects.get(pk=table.pk).state
    with pytest.raises(TableError) as err:
        table_act(table_id=table.pk, user=pair[seat_user], action=action, state_id=state_id)
    assert err.value.code == code
    table.refresh_from_db()
    assert table.state == before and table.state_id == 0
    assert not TableEvent.objects.exists()


def test_a_user_without_a_seat_cannot_act(pair, class_b):  # type: ignore[no-untyped-def]
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    with pytest.raises(TableError) as err:
        table_act(table_id=table.pk, user=class_b.student.user, action={"type": "draw"}, state_id=0)
    assert err.value.code == "not_seated"


def test_wrong_equivalence_is_logged_then_refused(pair):  # type: ignore[no-untyped-def]
    judged: list[hooks.JudgedPlay] = []
    hooks.judged_play_listeners.append(judged.append)
    try:
        table = make_table(list(pair), setup=FRACTIONS_SETUP)
        with pytest.raises(TableError) as err:
            table_act(
                table_id=table.pk,
                user=pair[1],
                action={"type": "play", "card": "2/3r", "claim": "equal"},
                state_id=0,
            )
    finally:
        hooks.judged_play_listeners.remove(judged.append)
    assert err.value.code == "not_equivalent"
    assert len(judged) == 1 and not judged[0].accepted
    assert judged[0].view_before["reference"] == "1/3"
    table.refresh_from_db()
    assert table.state_id == 0


def test_replay_from_events_gives_the_stored_state(pair):  # type: ignore[no-untyped-def]
    table = make_table([pair[0], None, None], ruleset="classic")
    for _ in range(40):
        table.refresh_from_db()
        outcome = table_step(table_id=table.pk, state_id=table.state_id)
        if outcome is None:
            # The student's turn: draw (and pass when the drawn card is kept).
            from games.engine import Game

            game = Game.from_dict(table.state)
            actions = game.legal_actions(0)
            action = next(a for a in actions if a["type"] in ("accept", "draw", "pass"))
            table_act(table_id=table.pk, user=pair[0], action=action, state_id=table.state_id)
    table.refresh_from_db()
    assert table.moves >= 40
    assert table_replay(table).to_dict() == table.state


def test_stale_step_does_nothing(pair):  # type: ignore[no-untyped-def]
    table = make_table([None, pair[0]], ruleset="classic")
    assert table_step(table_id=table.pk, state_id=table.state_id + 3) is None


def test_timer_plays_for_an_absent_student(pair):  # type: ignore[no-untyped-def]
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings={"turn_timer": 30})
    assert table.deadline is not None
    assert table_step(table_id=table.pk, state_id=0) is None  # not yet due
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    outcome = table_step(table_id=table.pk, state_id=0)
    assert outcome is not None
    event = TableEvent.objects.get(table=table)
    assert event.actor == TableEvent.Actor.TIMER and event.action["type"] == "draw"


def test_accessible_mode_never_runs_a_timer(pair):  # type: ignore[no-untyped-def]
    table = make_table(
        list(pair), setup=FRACTIONS_SETUP, table_settings={"turn_timer": 30, "accessible": True}
    )
    assert table.play_settings["turn_timer"] == 0 and table.deadline is None


def test_teacher_lets_a_bot_play_and_gives_the_seat_back(pair):  # type: ignore[no-untyped-def]
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    outcome = seat_set_takeover(table_id=table.pk, seat_index=1, by_bot=True)
    assert outcome is not None and outcome.next_step is not None
    assert table_step(table_id=table.pk, state_id=0) is not None
    assert TableEvent.objects.get(table=table).actor == TableEvent.Actor.BOT
    seat_set_takeover(table_id=table.pk, seat_index=1, by_bot=False)
    assert not table.seats.get(index=1).bot_takeover
