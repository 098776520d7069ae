"""Table services: one action at a time, stored before it is broadcast, replayable."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from games import host, listeners
from games.errors import TableError
from games.models import Table, TableEvent
from games.services import (
    NextStep,
    bot_delay,
    seat_give_to_bot,
    seat_give_to_user,
    seat_set_takeover,
    table_act,
    table_finish,
    table_replay,
    table_step,
)
from lessons.attempts.hooks import LessonsHost
from lessons.models import User
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, make_table

pytestmark = pytest.mark.django_db


def test_create_stores_state_and_seats(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    assert table.state_id == 0
    assert [s.name for s in table.seats.all()] == [u.username for u in pair]
    assert table.seats.filter(user__isnull=False).count() == 2


def test_bad_options_are_refused_and_create_nothing(pair: tuple[User, User]) -> None:
    with pytest.raises(TableError) as err:
        make_table(list(pair), options={"no_such_option": 1})
    assert err.value.code == "bad_option"
    assert Table.objects.count() == 0


def test_action_is_applied_stored_and_broadcast_after_commit(
    pair: tuple[User, User], django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
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
def test_refused_actions_change_nothing(
    pair: tuple[User, User], seat_user: int, action: object, state_id: int | str, code: str
) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    before = Table.objects.get(pk=table.pk).state
    with pytest.raises(TableError) as err:
        table_act(table_id=table.pk, user=pair[seat_user], action=action, state_id=state_id)
    assert err.value.code == code
    table.refresh_from_db()
    assert table.state == before and table.state_id == 0
    assert not TableEvent.objects.exists()


def test_a_user_without_a_seat_cannot_act(pair: tuple[User, User], class_b: ClassWorld) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    with pytest.raises(TableError) as err:
        table_act(table_id=table.pk, user=class_b.student.user, action={"type": "draw"}, state_id=0)
    assert err.value.code == "not_seated"


def test_wrong_equivalence_is_logged_then_refused(pair: tuple[User, User]) -> None:
    judged: list[listeners.JudgedPlay] = []
    logged = host.registered()

    class Recording(LessonsHost):
        def judged_play(self, play: listeners.JudgedPlay) -> list[listeners.Write]:
            judged.append(play)
            return super().judged_play(play)

    host.register(Recording())
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
        host.register(logged)
    assert err.value.code == "not_equivalent"
    assert len(judged) == 1 and not judged[0].accepted
    assert judged[0].view_before["reference"] == "1/3"
    table.refresh_from_db()
    assert table.state_id == 0


def test_replay_from_events_gives_the_stored_state(pair: tuple[User, User]) -> None:
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


def test_stale_step_does_nothing(pair: tuple[User, User]) -> None:
    table = make_table([None, pair[0]], ruleset="classic")
    assert table_step(table_id=table.pk, state_id=table.state_id + 3) is None


def test_timer_plays_for_an_absent_student(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings={"turn_timer": 30})
    assert table.deadline is not None
    assert table_step(table_id=table.pk, state_id=0) is None  # not yet due
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    outcome = table_step(table_id=table.pk, state_id=0)
    assert outcome is not None
    event = TableEvent.objects.get(table=table)
    assert event.actor == TableEvent.Actor.TIMER and event.action["type"] == "draw"


def test_accessible_mode_never_runs_a_timer(pair: tuple[User, User]) -> None:
    table = make_table(
        list(pair), setup=FRACTIONS_SETUP, table_settings={"turn_timer": 30, "accessible": True}
    )
    assert table.play_settings["turn_timer"] == 0 and table.deadline is None


def test_teacher_lets_a_bot_play_and_gives_the_seat_back(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    outcome = seat_set_takeover(table_id=table.pk, seat_index=1, by_bot=True)
    assert outcome is not None and outcome.next_step is not None
    assert table_step(table_id=table.pk, state_id=0) is not None
    assert TableEvent.objects.get(table=table).actor == TableEvent.Actor.BOT
    seat_set_takeover(table_id=table.pk, seat_index=1, by_bot=False)
    assert not table.seats.get(index=1).bot_takeover


# Seat changes and the end of a game: only games.services writes them, and the timer follows.

T0 = timezone.make_aware(datetime(2026, 11, 20, 9, 0, 0))
TIMER = {"turn_timer": 30}


class Clock:
    """A clock the test moves by hand (timezone.now() is patched to read it)."""

    def __init__(self) -> None:
        self.now = T0

    def at(self, seconds: float) -> datetime:
        self.now = T0 + timedelta(seconds=seconds)
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(timezone, "now", lambda: clock.now)
    return clock


@pytest.fixture
def trio(class_a: ClassWorld, class_b: ClassWorld) -> tuple[User, User, User]:
    return class_a.student.user, class_a.other_student.user, class_b.student.user


def _seats(table: Table) -> list[tuple[int, int | None, str, str, bool]]:
    return [(s.index, s.user_id, s.bot, s.name, s.bot_takeover) for s in table.seats.all()]


def test_a_due_student_seat_handed_to_a_bot_drops_the_deadline_and_the_bot_plays(
    pair: tuple[User, User],
    clock: Clock,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings=TIMER)
    assert table.deadline == T0 + timedelta(seconds=30)  # seat 1 is due
    clock.at(10)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        outcome = seat_give_to_bot(table_id=table.pk, user_id=pair[1].pk)
    assert len(callbacks) == 1  # the new seats are broadcast after commit
    table = Table.objects.get(pk=table.pk)  # read again: mypy keeps the narrowed deadline
    assert table.deadline is None
    assert outcome.next_step == NextStep(table.pk, 0, bot_delay())
    seat = table.seats.get(index=1)
    assert (seat.user_id, seat.bot, seat.name, seat.is_automatic) == (
        None,
        "heuristic",
        "Robot 1",
        True,
    )
    assert table.status == Table.Status.PLAYING  # a student is left
    step = table_step(table_id=table.pk, state_id=outcome.next_step.state_id)
    assert step is not None
    assert TableEvent.objects.get(table=table).actor == TableEvent.Actor.BOT


def test_a_due_bot_seat_given_to_a_student_starts_their_full_time(
    pair: tuple[User, User], clock: Clock
) -> None:
    table = make_table([pair[0], None], setup=FRACTIONS_SETUP, table_settings=TIMER)
    assert table.deadline is None  # the bot at seat 1 is due
    clock.at(5)
    outcome = seat_give_to_user(table_id=table.pk, user_id=pair[1].pk, name="Bruno")
    table.refresh_from_db()
    assert table.deadline == T0 + timedelta(seconds=35)
    assert outcome.next_step == NextStep(table.pk, 0, 30.0)
    assert table.seats.get(index=1).user_id == pair[1].pk
    # Not before the deadline: the student has their time; after it, the timer plays.
    clock.at(34)
    assert table_step(table_id=table.pk, state_id=0) is None
    clock.at(36)
    assert table_step(table_id=table.pk, state_id=0) is not None
    assert TableEvent.objects.get(table=table).actor == TableEvent.Actor.TIMER


def test_without_a_timer_a_student_given_a_due_seat_gets_no_deadline(
    pair: tuple[User, User], clock: Clock
) -> None:
    table = make_table([pair[0], None], setup=FRACTIONS_SETUP)
    outcome = seat_give_to_user(table_id=table.pk, user_id=pair[1].pk, name="Bruno")
    table.refresh_from_db()
    assert table.deadline is None and outcome.next_step is None


def test_a_seat_change_elsewhere_keeps_the_due_players_deadline(
    trio: tuple[User, User, User], clock: Clock
) -> None:
    setup = {**FRACTIONS_SETUP, "hands": [*FRACTIONS_SETUP["hands"], ["16/24j", "1/2r"]]}
    table = make_table(list(trio), setup=setup, table_settings=TIMER)
    assert table.deadline == T0 + timedelta(seconds=30)  # seat 1 is due
    clock.at(10)
    outcome = seat_give_to_bot(table_id=table.pk, user_id=trio[0].pk)  # seat 0: not due
    table.refresh_from_db()
    assert table.deadline == T0 + timedelta(seconds=30)
    assert outcome.next_step == NextStep(table.pk, 0, 20.0)
    seat_give_to_bot(table_id=table.pk, user_id=trio[2].pk)
    assert [s.name for s in table.seats.order_by("index")] == ["Robot 1", str(trio[1]), "Robot 2"]


def test_the_last_student_handed_to_a_bot_finishes_the_table(
    pair: tuple[User, User], clock: Clock
) -> None:
    table = make_table([pair[0], None], setup=FRACTIONS_SETUP, table_settings=TIMER)
    outcome = seat_give_to_bot(table_id=table.pk, user_id=pair[0].pk, name="Robot 9")
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.deadline is None
    assert outcome.next_step is None
    assert table.seats.get(index=0).name == "Robot 9"


def test_a_student_can_be_given_a_chosen_bot_seat(trio: tuple[User, User, User]) -> None:
    setup = {**FRACTIONS_SETUP, "hands": [*FRACTIONS_SETUP["hands"], ["16/24j", "1/2r"]]}
    table = make_table([trio[0], None, None], setup=setup)
    seat_give_to_user(table_id=table.pk, user_id=trio[1].pk, name="Bruno", seat_index=2)
    assert table.seats.get(index=2).user_id == trio[1].pk
    assert table.seats.get(index=1).user_id is None


def test_a_student_given_no_seat_index_takes_the_lowest_bot_seat(
    trio: tuple[User, User, User],
) -> None:
    setup = {**FRACTIONS_SETUP, "hands": [*FRACTIONS_SETUP["hands"], ["16/24j", "1/2r"]]}
    table = make_table([trio[0], None, None], setup=setup)
    seat_give_to_user(table_id=table.pk, user_id=trio[1].pk, name="Bruno")
    assert table.seats.get(index=1).user_id == trio[1].pk
    assert table.seats.get(index=2).user_id is None


def test_finishing_a_table_stops_it_once(
    pair: tuple[User, User], django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP, table_settings=TIMER)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        table_finish(table_id=table.pk)
        table_finish(table_id=table.pk)  # already over: nothing more is sent
    assert len(callbacks) == 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.deadline is None
    with pytest.raises(TableError) as err:
        table_finish(table_id=table.pk + 100)
    assert err.value.code == "table_not_found"


@pytest.mark.parametrize(
    ("call", "code"),
    [
        ("user_already_seated", "already_seated"),
        ("user_no_bot_seat", "no_free_seat"),
        ("user_human_seat_index", "no_free_seat"),
        ("user_finished", "finished"),
        ("user_no_table", "table_not_found"),
        ("bot_not_seated", "not_seated"),
        ("bot_bad_kind", "bad_bot"),
        ("bot_finished", "finished"),
    ],
)
def test_refused_seat_changes_change_nothing(
    trio: tuple[User, User, User], call: str, code: str
) -> None:
    mixed = make_table([trio[0], None], setup=FRACTIONS_SETUP, table_settings=TIMER)
    full = make_table([trio[0], trio[1]], setup=FRACTIONS_SETUP)
    if call.endswith("finished"):
        table_finish(table_id=mixed.pk)
    before = {t.pk: (_seats(t), Table.objects.get(pk=t.pk).deadline) for t in (mixed, full)}
    calls = {
        "user_already_seated": lambda: seat_give_to_user(
            table_id=mixed.pk, user_id=trio[0].pk, name="x"
        ),
        "user_no_bot_seat": lambda: seat_give_to_user(
            table_id=full.pk, user_id=trio[2].pk, name="x"
        ),
        "user_human_seat_index": lambda: seat_give_to_user(
            table_id=mixed.pk, user_id=trio[2].pk, name="x", seat_index=0
        ),
        "user_finished": lambda: seat_give_to_user(table_id=mixed.pk, user_id=trio[2].pk, name="x"),
        "user_no_table": lambda: seat_give_to_user(
            table_id=full.pk + 100, user_id=trio[2].pk, name="x"
        ),
        "bot_not_seated": lambda: seat_give_to_bot(table_id=mixed.pk, user_id=trio[2].pk),
        "bot_bad_kind": lambda: seat_give_to_bot(
            table_id=full.pk, user_id=trio[0].pk, bot_kind="chess"
        ),
        "bot_finished": lambda: seat_give_to_bot(table_id=mixed.pk, user_id=trio[0].pk),
    }
    with pytest.raises(TableError) as err:
        calls[call]()
    assert err.value.code == code
    assert {t.pk: (_seats(t), Table.objects.get(pk=t.pk).deadline) for t in (mixed, full)} == before
