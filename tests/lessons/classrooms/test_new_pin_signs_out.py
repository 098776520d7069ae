"""A new PIN takes a pupil's sign-ins back (issue 32, point 4): a classmate signed in with the
old PIN is signed out at once, pages and open sockets, for one pupil or the whole class."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.realtime.consumer import CLOSE_SIGNED_OUT
from lessons.classrooms.services import classroom_reset_all_pins, student_reset_pin
from lessons.models import Student
from tests.conftest import ClassWorld
from tests.games.helpers import refusal_code, socket
from tests.lessons.classrooms.test_archive_read_only import _practice_table
from tests.support.factories import student_client

pytestmark = pytest.mark.django_db(transaction=True)


def _signed_in(client: object) -> bool:
    return bool(client.get(reverse("home")).context["user"].is_authenticated)  # type: ignore[attr-defined]


def test_a_new_pin_signs_out_every_device_of_that_pupil_only(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    first, second = (student_client(class_a.student.student) for _ in range(2))
    classmate = student_client(class_a.other_student.student)
    elsewhere = student_client(class_b.student.student)
    assert all(_signed_in(c) for c in (first, second, classmate, elsewhere))
    pin = student_reset_pin(student=Student.objects.get(pk=class_a.student.student.pk))
    assert not _signed_in(first) and not _signed_in(second)
    assert _signed_in(classmate) and _signed_in(elsewhere)
    # The new PIN signs in again.
    again = first.post(
        reverse("join_pin", args=[class_a.classroom.join_code, class_a.student.student.pk]),
        {"pin": pin},
    )
    assert again.status_code == 302 and _signed_in(first)


def test_new_pins_for_the_whole_class_sign_out_every_pupil_of_the_class(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    pupils = [student_client(s.student) for s in (class_a.student, class_a.other_student)]
    elsewhere = student_client(class_b.student.student)
    classroom_reset_all_pins(classroom=class_a.classroom)
    assert not any(_signed_in(c) for c in pupils)
    assert _signed_in(elsewhere)


def test_the_login_cards_new_pins_button_signs_the_class_out(class_a: ClassWorld) -> None:
    from django.test import Client

    pupil = student_client(class_a.student.student)
    teacher = Client()
    teacher.force_login(class_a.teacher)
    url = reverse("classroom_cards", args=[class_a.classroom.pk])
    assert teacher.post(url, {"action": "reset"}).status_code in {200, 302}
    assert not _signed_in(pupil)


async def test_a_new_pin_closes_the_pupils_open_socket_and_refuses_the_old_cookie(
    class_a: ClassWorld,
) -> None:
    table = await database_sync_to_async(_practice_table)(class_a)
    comm = await socket(table.pk, class_a.student.user)
    connected, _code = await comm.connect()
    assert connected
    await comm.receive_from(timeout=5)
    pupil = await database_sync_to_async(Student.objects.get)(pk=class_a.student.student.pk)
    await database_sync_to_async(student_reset_pin)(student=pupil)
    output = await comm.receive_output(timeout=5)
    while output["type"] != "websocket.close":
        output = await comm.receive_output(timeout=5)
    assert output["code"] == CLOSE_SIGNED_OUT
    assert await refusal_code(await socket(table.pk, class_a.student.user)) == CLOSE_SIGNED_OUT
