"""Races on one-use things of the school: several sign-ups with one invitation make one teacher.

Real concurrent requests (one thread and one database connection each); this file also runs on
PostgreSQL (tests/e2e/scale/test_postgres_runs.py).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from lessons.models import TeacherInvitation, User
from lessons.school.admin_services import invitation_create
from tests.support.factories import TEACHER_PASSWORD, make_teacher
from tests.support.racing import race

pytestmark = pytest.mark.django_db(transaction=True)


def test_four_simultaneous_sign_ups_with_one_invitation_make_exactly_one_teacher(
    settings: Settings,
) -> None:
    settings.TEACHER_SIGNUP = "invitation"
    admin = make_teacher(username="direction")
    invitation = invitation_create(admin=admin, note="")
    url = f"{reverse('signup')}?invite={invitation.token}"

    def sign_up(index: int) -> int:
        data = {
            "username": f"newprof{index}",
            "password1": TEACHER_PASSWORD,
            "password2": TEACHER_PASSWORD,
        }
        return Client(HTTP_ACCEPT_LANGUAGE="en").post(url, data).status_code

    statuses = race(sign_up, 4)
    assert sorted(statuses) == [302, 403, 403, 403], statuses  # type: ignore[type-var]
    made = User.objects.filter(username__startswith="newprof")
    assert made.count() == 1
    invitation.refresh_from_db()
    assert invitation.used_by == made.get()
    assert TeacherInvitation.objects.filter(used_at__isnull=False).count() == 1


def test_two_simultaneous_sign_ups_with_one_username_make_one_account_and_a_form_error() -> None:
    def sign_up(_index: int) -> int:
        data = {
            "username": "samename",
            "password1": TEACHER_PASSWORD,
            "password2": TEACHER_PASSWORD,
        }
        return Client(HTTP_ACCEPT_LANGUAGE="en").post(reverse("signup"), data).status_code

    statuses = race(sign_up, 2)
    assert sorted(statuses) == [200, 302], statuses  # type: ignore[type-var]
    assert User.objects.filter(username="samename").count() == 1
