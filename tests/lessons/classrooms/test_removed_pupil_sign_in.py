"""A removed (pseudonymised) pupil has no way in: their join page is gone, a PIN try on it is
refused without counting against anyone, and no teacher's page gives them a PIN back."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from lessons.classrooms.services import student_sign_in_check
from lessons.models import Student
from lessons.pupils.changes import student_remove
from tests.conftest import ClassWorld
from tests.support.factories import signed_in_client

pytestmark = pytest.mark.django_db


def test_a_pseudonymised_pupils_join_page_refuses_pin_tries(class_a: ClassWorld) -> None:
    student = class_a.student.student
    student_remove(student=student, mode="pseudonymise")
    url = reverse("join_pin", args=[class_a.classroom.join_code, student.pk])
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert client.get(url).status_code == 404
    for pin in ("1357", "0000", ""):
        assert client.post(url, {"pin": pin}).status_code == 404
    assert Student.objects.get(pk=student.pk).failed_attempts == 0
    assert "_auth_user_id" not in client.session
    # The way in for the others is unchanged.
    other = class_a.other_student
    page = reverse("join_pin", args=[class_a.classroom.join_code, other.student.pk])
    assert client.post(page, {"pin": other.pin}).status_code == 302


def test_the_sign_in_check_treats_a_pseudonymised_pupil_as_unknown(class_a: ClassWorld) -> None:
    student = class_a.student.student
    student_remove(student=student, mode="pseudonymise")
    with pytest.raises(ValidationError) as refused:
        student_sign_in_check(
            classroom=class_a.classroom, student_id=student.pk, pin="1357", address="10.0.0.9"
        )
    assert refused.value.code == "unknown_student"
    assert Student.objects.get(pk=student.pk).failed_attempts == 0


@pytest.mark.parametrize("route", ["student_reset_pin", "student_unlock"])
def test_a_pseudonymised_pupil_gets_no_new_pin_and_no_unlock(
    class_a: ClassWorld, route: str
) -> None:
    student = class_a.student.student
    student_remove(student=student, mode="pseudonymise")
    client = signed_in_client(class_a.teacher, "en")
    assert client.post(reverse(route, args=[student.pk])).status_code == 404
    student.refresh_from_db()
    assert student.pin_hash == "" and student.locked_until is None
