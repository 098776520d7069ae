"""Password and PIN guessing is limited: the teacher sign-in (per account and per address)
and the student PIN (per student lock and per address, from the foundation)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from lessons.classrooms import login_limit
from tests.support.factories import TEACHER_PASSWORD

pytestmark = pytest.mark.django_db


def _login(client: Client, username: str, password: str, address: str = "10.0.0.1"):  # type: ignore[no-untyped-def]
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_teacher_account_is_blocked_after_repeated_wrong_passwords(class_a) -> None:  # type: ignore[no-untyped-def]
    username = class_a.teacher.username
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    for _ in range(login_limit.ACCOUNT_FAILURE_LIMIT):
        assert _login(client, username, "wrong-password").status_code == 200
    # Now even the right password is refused, from any address, with a clear message.
    refused = _login(client, username, TEACHER_PASSWORD, address="10.9.9.9")
    assert refused.status_code == 200
    assert "_auth_user_id" not in client.session
    assert login_limit.BLOCKED["fr"] in refused.content.decode()
    english = _login(Client(HTTP_ACCEPT_LANGUAGE="en"), username, TEACHER_PASSWORD)
    assert login_limit.BLOCKED["en"] in english.content.decode()


def test_other_teachers_still_sign_in(class_a, class_b) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    for _ in range(login_limit.ACCOUNT_FAILURE_LIMIT):
        _login(client, class_a.teacher.username, "wrong", address="10.0.0.1")
    signed_in = _login(Client(), class_b.teacher.username, TEACHER_PASSWORD, address="10.0.0.2")
    assert signed_in.status_code == 302


def test_one_address_guessing_many_accounts_is_blocked(class_a) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    for number in range(login_limit.ADDRESS_FAILURE_LIMIT):
        _login(client, f"guess{number}", "wrong", address="10.6.6.6")
    refused = _login(client, class_a.teacher.username, TEACHER_PASSWORD, address="10.6.6.6")
    assert refused.status_code == 200 and "_auth_user_id" not in client.session
    elsewhere = _login(Client(), class_a.teacher.username, TEACHER_PASSWORD, address="10.0.0.7")
    assert elsewhere.status_code == 302


def test_a_right_password_before_the_limit_signs_in(class_a) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    for _ in range(login_limit.ACCOUNT_FAILURE_LIMIT - 1):
        _login(client, class_a.teacher.username, "wrong")
    assert _login(client, class_a.teacher.username, TEACHER_PASSWORD).status_code == 302


def test_student_pin_guessing_locks_the_student(class_a) -> None:  # type: ignore[no-untyped-def]
    student = class_a.student.student
    url = reverse(
        "join_pin", kwargs={"code": class_a.classroom.join_code, "student_id": student.pk}
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    wrong = "0000" if class_a.student.pin != "0000" else "1111"
    for _ in range(20):
        client.post(url, {"pin": wrong}, REMOTE_ADDR="10.1.1.1")
    right = client.post(url, {"pin": class_a.student.pin}, REMOTE_ADDR="10.1.1.2")
    assert "_auth_user_id" not in client.session
    assert right.status_code == 200
    student.refresh_from_db()
    assert student.is_locked()
