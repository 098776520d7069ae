"""The table host's move rows: lessons registers its host once; the host is told of each
judged play and action once, and its rows are stored with the move (or, for a refused judged
play, alone)."""

from __future__ import annotations

from typing import Any

import pytest

from games import host, listeners
from games.errors import TableError
from games.models import Seat
from games.services import seat_give_to_bot, seat_give_to_user, table_act
from lessons.attempts.hooks import LessonsHost, register
from lessons.models import Attempt, SeatStudent
from tests.games.helpers import FRACTIONS_SETUP, make_table

pytestmark = pytest.mark.django_db(transaction=True)


class _Recording(LessonsHost):
    """Record what the host is told; write what lessons' host writes."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def judged_play(self, play: listeners.JudgedPlay) -> list[listeners.Write]:
        self.calls.append(("judged", play))
        return super().judged_play(play)

    def player_action(self, record: listeners.PlayerAction) -> list[listeners.Write]:
        self.calls.append(("action", record))
        return super().player_action(record)


@pytest.fixture
def recording() -> Any:
    previous, recorder = host.registered(), _Recording()
    host.register(recorder)
    yield recorder
    host.register(previous)


def _pair(world: Any) -> list[Any]:
    """Seat 0 Anaïs, seat 1 Basile (who plays first, on 1/3)."""
    return [world.student.user, world.other_student.user]


def _play(table: Any, user: Any, card: str) -> str:
    table.refresh_from_db()
    try:
        table_act(
            table_id=table.pk,
            user=user,
            action={"type": "play", "card": card, "claim": "equal"},
            state_id=table.state_id,
        )
    except TableError as exc:
        return exc.code
    return ""


def test_lessons_registers_its_host_once() -> None:
    registered = host.registered()
    register()
    assert host.registered() is registered  # already there since start-up: kept
    assert isinstance(registered, LessonsHost)
    assert registered.seat_row is SeatStudent


def test_a_refused_judged_play_is_told_once_and_stored_alone(class_a: Any, recording: Any) -> None:
    table = make_table(_pair(class_a), setup=FRACTIONS_SETUP)
    assert _play(table, class_a.other_student.user, "2/3r") == "not_equivalent"
    ((kind, play),) = recording.calls
    assert kind == "judged" and not play.accepted and play.error_code == "not_equivalent"
    assert play.details  # the engine's explanation reaches the log
    table.refresh_from_db()
    assert (table.state_id, table.moves) == (0, 0)  # nothing of the table changed
    assert Attempt.objects.filter(table_id=table.pk, outcome="wrong").count() == 1


def test_an_accepted_judged_play_is_told_once_then_the_action(class_a: Any, recording: Any) -> None:
    table = make_table(_pair(class_a), setup=FRACTIONS_SETUP)
    assert _play(table, class_a.other_student.user, "4/12j") == ""
    assert [kind for kind, _ in recording.calls] == ["judged", "action"]
    play, record = recording.calls[0][1], recording.calls[1][1]
    assert play.accepted and play.events == record.events and play.seat_id == record.seat_id
    assert play.seat_id == Seat.objects.get(table=table, index=1).pk
    assert play.last_moves == {}  # a new table keeps each seat's last action from its start
    table.refresh_from_db()
    assert table.last_moves == {"1": 1}


def test_without_a_registered_host_a_table_plays_and_logs_nothing(class_a: Any) -> None:
    logged = host.registered()
    host.register(host.NullHost())
    try:
        table = make_table(_pair(class_a), setup=FRACTIONS_SETUP)
        basile = class_a.other_student.user
        assert _play(table, basile, "2/3r") == "not_equivalent"
        assert _play(table, basile, "4/12j") == ""
    finally:
        host.register(logged)
    assert not Attempt.objects.filter(table_id=table.pk).exists()


def test_a_seat_handed_to_another_student_logs_under_them(class_a: Any, class_b: Any) -> None:
    """The seat's row names its last student: a seat given on by games alone (no lessons
    service) is written again on the next play, under the new player's class."""
    first, then = class_a.student, class_b.student
    # Seat 1 (first to play) is the one handed on; seat 0's student keeps the table going.
    table = make_table([class_a.other_student.user, first.user], setup=FRACTIONS_SETUP)
    assert _play(table, first.user, "2/3r") == "not_equivalent"
    seat_give_to_bot(table_id=table.pk, user_id=first.user.pk)
    seat_give_to_user(table_id=table.pk, user_id=then.user.pk, name="B", seat_index=1)
    assert _play(table, then.user, "10/12v") == "not_equivalent"
    tries = Attempt.objects.filter(table_id=table.pk).order_by("id")
    assert [(a.student_id, a.classroom_id) for a in tries] == [
        (first.student.pk, class_a.classroom.pk),
        (then.student.pk, class_b.classroom.pk),
    ]
    # The seat's row now names the new student (written again by the attempt log).
    assert SeatStudent.objects.get(seat__table=table).student_id == then.student.pk
