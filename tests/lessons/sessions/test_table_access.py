"""Who may watch a class's table follows the table's class (its session's class, or its
assignment's), never a pupil seated there: a removed co-teacher can no longer watch, pause or
hand a seat to a robot, over HTTP or over the table socket."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.models import Seat, Table
from games.realtime.consumer import CLOSE_NO_ACCESS
from games.services import SeatSpec, table_create
from lessons.attempts.hooks import teacher_may_watch
from lessons.classrooms.co_teachers import co_teacher_add, co_teacher_remove
from lessons.models import SessionTable
from lessons.pupils.changes import student_move
from lessons.sessions.services import session_start
from tests.conftest import ClassWorld
from tests.games.helpers import refusal_code, socket
from tests.support.factories import make_classroom, make_student, make_teacher, signed_in_client
from tests.support.responses import snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def _removed_co_teacher_with_a_pupil_at_the_table(class_a: ClassWorld) -> tuple[Any, Table]:
    """Class A's session table seats a pupil of A and one of the colleague's own class."""
    colleague = make_teacher(username="colleague")
    co_teacher_add(classroom=class_a.classroom, by=class_a.teacher, username="colleague")
    own = make_classroom(teacher=colleague, name="Classe C")
    their_pupil = make_student(classroom=own, display_name="Côme").student
    session = session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    table = table_create(
        ruleset="fractions",
        seats=[
            SeatSpec(name="AnaïsA", user_id=class_a.student.user.pk),
            SeatSpec(name="Côme", user_id=their_pupil.user_id),
        ],
        seed=5,
    )
    SessionTable.objects.create(session=session, table=table, number=1)
    assert teacher_may_watch(colleague, table)  # while they co-teach class A
    co_teacher_remove(classroom=class_a.classroom, by=class_a.teacher, teacher_id=colleague.pk)
    return colleague, table


def test_a_removed_co_teacher_cannot_watch_pause_or_hand_a_seat_to_a_robot(
    class_a: ClassWorld,
) -> None:
    colleague, table = _removed_co_teacher_with_a_pupil_at_the_table(class_a)
    assert not teacher_may_watch(colleague, table)
    client = signed_in_client(colleague, "en")
    before = snapshot()
    assert client.get(reverse("games:play", args=[table.pk])).status_code == 404
    paused = client.post(reverse("games:pause", args=[table.pk]), {"paused": "on"})
    assert paused.status_code == 404
    robot = client.post(reverse("games:seat_bot", args=[table.pk, 0]), {"bot": "on"})
    assert robot.status_code == 404
    assert snapshot() == before
    assert Table.objects.get(pk=table.pk).status != Table.Status.PAUSED
    assert not Seat.objects.filter(table=table, bot_takeover=True).exists()
    # The owner still runs the table.
    owner = signed_in_client(class_a.teacher, "en")
    assert owner.get(reverse("games:play", args=[table.pk])).status_code == 200


async def test_a_removed_co_teacher_cannot_open_the_table_socket(class_a: ClassWorld) -> None:
    colleague, table = await database_sync_to_async(_removed_co_teacher_with_a_pupil_at_the_table)(
        class_a
    )
    assert await refusal_code(await socket(table.pk, colleague)) == CLOSE_NO_ACCESS
    # The colleague's own pupil still plays at their seat.
    pupil = await database_sync_to_async(lambda: Seat.objects.get(table=table, index=1).user)()
    assert await refusal_code(await socket(table.pk, pupil)) is None


def test_a_teacher_of_a_seated_pupils_other_class_cannot_watch_a_class_table(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    session = session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    table = table_create(
        ruleset="fractions",
        seats=[
            SeatSpec(name="AnaïsA", user_id=class_a.student.user.pk),
            SeatSpec(name="AnaïsB", user_id=class_b.student.user.pk),
        ],
        seed=6,
    )
    SessionTable.objects.create(session=session, table=table, number=1)
    assert teacher_may_watch(class_a.teacher, table)
    assert not teacher_may_watch(class_b.teacher, table)


def _co_teacher_removed_after_moving_a_pupil(class_a: ClassWorld) -> tuple[Any, Table]:
    """A co-teacher of class A moves Basile into their own class, then is removed from A; a
    practice table of no class seats Anaïs (class A, seat 0) and Basile (seat 1)."""
    colleague = make_teacher(username="colleague")
    co_teacher_add(classroom=class_a.classroom, by=class_a.teacher, username="colleague")
    own = make_classroom(teacher=colleague, name="Classe C")
    student_move(student=class_a.other_student.student, to=own)
    co_teacher_remove(classroom=class_a.classroom, by=class_a.teacher, teacher_id=colleague.pk)
    table = table_create(
        ruleset="fractions",
        seats=[
            SeatSpec(name="AnaïsA", user_id=class_a.student.user.pk),
            SeatSpec(name="BasileA", user_id=class_a.other_student.user.pk),
            SeatSpec(name="Robot", bot="heuristic"),
        ],
        seed=8,
    )
    return colleague, table


def test_a_removed_co_teacher_acts_only_on_the_seat_of_the_pupil_they_moved(
    class_a: ClassWorld,
) -> None:
    colleague, table = _co_teacher_removed_after_moving_a_pupil(class_a)
    client = signed_in_client(colleague, "en")
    # The spectator view shows no hand: the teacher of a pupil seated there watches the table.
    assert client.get(reverse("games:play", args=[table.pk])).status_code == 200
    before = snapshot()
    robot = client.post(reverse("games:seat_bot", args=[table.pk, 0]), {"bot": "on"})
    assert robot.status_code == 403
    # A pause stops every seat, Anaïs's too.
    paused = client.post(reverse("games:pause", args=[table.pk]), {"paused": "on"})
    assert paused.status_code == 403
    assert snapshot() == before
    assert Table.objects.get(pk=table.pk).status != Table.Status.PAUSED
    assert not Seat.objects.filter(table=table, bot_takeover=True).exists()
    # Basile, now their pupil: his seat is theirs to hand to a robot.
    theirs = client.post(reverse("games:seat_bot", args=[table.pk, 1]), {"bot": "on"})
    assert theirs.status_code == 302
    taken = Seat.objects.filter(table=table, bot_takeover=True)
    assert list(taken.values_list("index", flat=True)) == [1]


def test_class_a_s_teacher_still_acts_on_anais_s_seat_not_on_the_moved_pupil_s(
    class_a: ClassWorld,
) -> None:
    _colleague, table = _co_teacher_removed_after_moving_a_pupil(class_a)
    owner = signed_in_client(class_a.teacher, "en")
    assert (
        owner.post(reverse("games:seat_bot", args=[table.pk, 1]), {"bot": "on"}).status_code == 403
    )
    assert (
        owner.post(reverse("games:seat_bot", args=[table.pk, 0]), {"bot": "on"}).status_code == 302
    )
    assert (
        owner.post(reverse("games:seat_bot", args=[table.pk, 2]), {"bot": "on"}).status_code == 403
    )
    assert owner.post(reverse("games:pause", args=[table.pk]), {"paused": "on"}).status_code == 403
    taken = Seat.objects.filter(table=table, bot_takeover=True)
    assert list(taken.values_list("index", flat=True)) == [0]  # a robot's seat is no one's
