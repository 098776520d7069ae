"""An archived class is read-only for its pupils too: archiving ends their sign-ins (pages and
sockets), so nobody starts practice or stores an attempt in it afterwards."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from games.models import Table
from games.realtime.consumer import CLOSE_SIGNED_OUT
from games.services import SeatSpec, table_create
from lessons.models import Attempt, Classroom
from lessons.practice.services import practice_table_start
from lessons.school.class_years import classroom_archive
from tests.conftest import ClassWorld
from tests.games.helpers import refusal_code, socket
from tests.lessons.practice.helpers import assign
from tests.support.factories import student_client

pytestmark = pytest.mark.django_db(transaction=True)


def _archive(world: ClassWorld) -> None:
    classroom_archive(classroom=world.classroom, by=world.teacher)


def test_a_signed_in_pupil_is_signed_out_and_starts_no_practice(class_a: ClassWorld) -> None:
    pupil = student_client(class_a.student.student)
    assert pupil.get(reverse("home")).context["user"].is_authenticated
    _archive(class_a)
    assert not pupil.get(reverse("home")).context["user"].is_authenticated
    started = pupil.post(reverse("games:practice"), {"ruleset": "fractions", "bots": 1})
    assert started.status_code == 302 and reverse("login") in started["Location"]
    assert not Table.objects.exists()
    assert not Attempt.objects.exists()


def test_assigned_practice_of_an_archived_class_starts_no_game(class_a: ClassWorld) -> None:
    assignment = assign(class_a.teacher, class_a.classroom, days=3)
    Classroom.objects.filter(pk=class_a.classroom.pk).update(
        archived_at=class_a.classroom.created_at
    )
    with pytest.raises(ValidationError) as refused:
        practice_table_start(student=class_a.student.student, assignment=assignment)
    assert refused.value.code == "archived"
    assert not Table.objects.exists()


def _practice_table(world: ClassWorld) -> Table:
    seats = [
        SeatSpec(name="AnaïsA", user_id=world.student.user.pk),
        SeatSpec(name="Robot", bot="heuristic"),
    ]
    return table_create(ruleset="fractions", seats=seats, seed=4)


async def test_archiving_closes_a_pupils_open_table_socket_and_refuses_a_new_one(
    class_a: ClassWorld,
) -> None:
    table = await database_sync_to_async(_practice_table)(class_a)
    comm = await socket(table.pk, class_a.student.user)
    connected, _code = await comm.connect()
    assert connected
    await comm.receive_from(timeout=5)
    await database_sync_to_async(_archive)(class_a)
    output = await comm.receive_output(timeout=5)
    while output["type"] != "websocket.close":
        output = await comm.receive_output(timeout=5)
    assert output["code"] == CLOSE_SIGNED_OUT
    # The socket's cookie signed in before the archive: it no longer does.
    assert await refusal_code(await socket(table.pk, class_a.student.user)) == CLOSE_SIGNED_OUT
    assert not await database_sync_to_async(Attempt.objects.exists)()


def test_the_pupils_of_other_classes_stay_signed_in(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    other: Client = student_client(class_b.student.student)
    _archive(class_a)
    assert other.get(reverse("home")).context["user"].is_authenticated
