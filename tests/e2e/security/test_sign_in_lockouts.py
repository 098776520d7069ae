"""Nobody locks a school, a teacher or a pupil out with wrong guesses (issue 32 §3), and
guessing stays limited: per device (a signed cookie), per address (IPv6 by /64) and per
account, with each lock twice the last. Raw HTTP through the test client, as a script would.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import cast

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from lessons.classrooms import login_limit, services, sign_in_limit
from lessons.models import Student
from tests.conftest import ClassWorld
from tests.support.factories import TEACHER_PASSWORD
from tests.support.responses import form_errors

pytestmark = pytest.mark.django_db

SCHOOL = "192.0.2.10"
LOCKED_PUPIL = "Too many wrong PINs. Ask your teacher, or try again in a few minutes."


def _device(address: str = SCHOOL) -> Client:
    """Return a browser at `address` that opened the sign-in page (it has its device cookie)."""
    client = Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE="en")
    client.get(reverse("login"))
    assert sign_in_limit.COOKIE_NAME in client.cookies
    return client


def _same_device(client: Client) -> Client:
    """Return a new browser session on the same device (signed out, the device cookie kept)."""
    again = Client(REMOTE_ADDR=client.defaults["REMOTE_ADDR"], HTTP_ACCEPT_LANGUAGE="en")
    again.cookies[sign_in_limit.COOKIE_NAME] = client.cookies[sign_in_limit.COOKIE_NAME].value
    return again


def _password(client: Client, username: str, password: str) -> int:
    answer = client.post(reverse("login"), {"username": username, "password": password})
    if answer.status_code == 200:
        assert "_auth_user_id" not in client.session
    return int(answer.status_code)


def _refused(client: Client, username: str) -> bool:
    answer = client.post(reverse("login"), {"username": username, "password": TEACHER_PASSWORD})
    return answer.status_code == 200 and login_limit.BLOCKED["en"] in answer.content.decode()


def _small_address_limit(monkeypatch: pytest.MonkeyPatch, kind: sign_in_limit.Kind) -> int:
    # The real limit is 200 failures; a few here walk the same path in a fraction of the time.
    rule = dataclasses.replace(sign_in_limit.RULES[kind], address_limit=12)
    monkeypatch.setitem(sign_in_limit.RULES, kind, rule)
    return rule.address_limit


def test_a_strangers_wrong_passwords_do_not_lock_the_teacher_out_of_their_device(
    class_a: ClassWorld,
) -> None:
    username = class_a.teacher.username
    own = _device("198.51.100.20")
    assert _password(own, username, TEACHER_PASSWORD) == 302
    stranger = _device("203.0.113.66")
    for _ in range(login_limit.ACCOUNT_FAILURE_LIMIT):
        assert _password(stranger, username, "wrong") == 200
    # The teacher's own device (it signed in to this account before) still signs in ...
    assert _password(_same_device(own), username, TEACHER_PASSWORD) == 302
    # ... a device this account never used is refused, right password or not.
    assert _refused(_device("198.51.100.20"), username)


def test_52_wrong_passwords_from_the_school_leave_its_teachers_signing_in(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    for number in range(52):
        if number % (login_limit.DEVICE_FAILURE_LIMIT - 1) == 0:
            guesser = _device()
        assert _password(guesser, f"guess{number}", "wrong") == 200
    assert _password(_device(), class_a.teacher.username, TEACHER_PASSWORD) == 302
    assert _password(_device(), class_b.teacher.username, TEACHER_PASSWORD) == 302


def test_one_guessing_device_is_stopped_alone(class_a: ClassWorld) -> None:
    guesser = _device()
    for number in range(login_limit.DEVICE_FAILURE_LIMIT):
        assert _password(guesser, f"guess{number}", "wrong") == 200
    assert _refused(guesser, class_a.teacher.username)
    # A script that drops its cookie shares one device per address, locked as soon.
    for number in range(login_limit.DEVICE_FAILURE_LIMIT):
        cookieless = Client(REMOTE_ADDR=SCHOOL, HTTP_ACCEPT_LANGUAGE="en")
        assert _password(cookieless, f"guess{number}", "wrong") == 200
    assert _refused(Client(REMOTE_ADDR=SCHOOL, HTTP_ACCEPT_LANGUAGE="en"), "anyone")
    # The next browser at the school signs in.
    assert _password(_device(), class_a.teacher.username, TEACHER_PASSWORD) == 302


def test_the_address_limit_stops_new_devices_only(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    username = class_a.teacher.username
    own = _device()
    assert _password(own, username, TEACHER_PASSWORD) == 302
    limit = _small_address_limit(monkeypatch, "password")
    for number in range(limit):
        if number % (login_limit.DEVICE_FAILURE_LIMIT - 1) == 0:
            guesser = _device()
        assert _password(guesser, f"guess{number}", "wrong") == 200
    assert _refused(_device(), username)
    assert _password(_same_device(own), username, TEACHER_PASSWORD) == 302
    # Another school is not affected.
    assert _password(_device("198.51.100.30"), username, TEACHER_PASSWORD) == 302


def test_ipv6_addresses_of_one_network_share_its_limit(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    limit = _small_address_limit(monkeypatch, "password")
    for number in range(limit):
        # A new address of the same /64 for every guess, and a new device every few.
        guesser = _device(f"2001:db8:1:2::{number + 1:x}")
        assert _password(guesser, f"guess{number}", "wrong") == 200
    assert _refused(_device("2001:db8:1:2:ffff::1"), class_a.teacher.username)
    assert _password(_device("2001:db8:1:3::1"), class_a.teacher.username, TEACHER_PASSWORD) == 302


def test_each_lock_of_an_account_lasts_twice_the_last(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    username = class_a.teacher.username
    account = login_limit.account_name(username)
    clock = [1_000_000.0]
    monkeypatch.setattr(sign_in_limit, "_now", lambda: clock[0])
    first = sign_in_limit.RULES["password"].first_lock_seconds
    for lock in (1, 2, 3):
        for _ in range(login_limit.ACCOUNT_FAILURE_LIMIT):
            assert _password(_device(f"203.0.113.{lock}"), username, "wrong") == 200
        assert sign_in_limit.lock_left_seconds("password", "account", account) == first * 2 ** (
            lock - 1
        )
        clock[0] += first * 2 ** (lock - 1) + 1  # the lock ends
        assert sign_in_limit.lock_left_seconds("password", "account", account) == 0


def _pin_url(world: ClassWorld, student: Student) -> str:
    return reverse("join_pin", args=[world.classroom.join_code, student.pk])


def _pin(client: Client, world: ClassWorld, student: Student, pin: str):  # type: ignore[no-untyped-def]
    return client.post(_pin_url(world, student), {"pin": pin})


def _wrong(pin: str) -> str:
    return "0000" if pin != "0000" else "1111"


def test_41_wrong_class_codes_from_the_school_leave_its_pupils_signing_in(
    class_a: ClassWorld,
) -> None:
    for number in range(41):
        if number % (services.DEVICE_FAILURE_LIMIT - 1) == 0:
            guesser = _device()
        assert guesser.post(reverse("join"), {"code": f"QQQ{number:03d}"}).status_code == 200
    pupil = _device()
    found = pupil.post(reverse("join"), {"code": class_a.classroom.join_code})
    assert found.status_code == 302
    student = class_a.student.student
    assert _pin(pupil, class_a, student, class_a.student.pin).status_code == 302


def test_a_class_tablet_finds_its_class_while_the_school_is_locked(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    tablet = _device()
    assert tablet.post(reverse("join"), {"code": class_a.classroom.join_code}).status_code == 302
    limit = _small_address_limit(monkeypatch, "code")
    for number in range(limit):
        if number % (services.DEVICE_FAILURE_LIMIT - 1) == 0:
            guesser = _device()
        guesser.post(reverse("join"), {"code": f"QQQ{number:03d}"})
    refused = _device().post(reverse("join"), {"code": class_a.classroom.join_code})
    assert form_errors(cast(HttpResponse, refused)) == [str(services.JOIN_ADDRESS_BLOCKED)]
    again = _same_device(tablet).post(reverse("join"), {"code": class_a.classroom.join_code})
    assert again.status_code == 302
    student = class_a.student.student
    assert _pin(_same_device(tablet), class_a, student, class_a.student.pin).status_code == 302


def test_wrong_pins_from_anywhere_lock_the_pupil_out_of_new_devices_only(
    class_a: ClassWorld,
) -> None:
    student, pin = class_a.student.student, class_a.student.pin
    tablet = _device()
    assert _pin(tablet, class_a, student, pin).status_code == 302
    stranger = _device("203.0.113.80")
    for _ in range(services.LOCK_AFTER_FAILURES):
        assert _pin(stranger, class_a, student, _wrong(pin)).status_code == 200
    student.refresh_from_db()
    assert student.is_locked()
    # The pupil's tablet still signs them in; a device they never used is refused.
    assert _pin(_same_device(tablet), class_a, student, pin).status_code == 302
    refused = _pin(_device(), class_a, student, pin)
    assert form_errors(refused) == [LOCKED_PUPIL]
    # The pupil's own device mistyping does not lock them, its own limit stops it.
    own = _same_device(tablet)
    for _ in range(services.DEVICE_FAILURE_LIMIT):
        assert _pin(own, class_a, student, _wrong(pin)).status_code == 200
    blocked = _pin(own, class_a, student, pin)
    assert form_errors(blocked) == [str(services.JOIN_DEVICE_BLOCKED)]


def _lock_once(world: ClassWorld, student: Student) -> timedelta:
    """Lock the pupil with wrong PINs from a new device; return how long the lock lasts."""
    Student.objects.filter(pk=student.pk).update(locked_until=None, failed_attempts=0)
    stranger = _device("203.0.113.81")
    for _ in range(services.LOCK_AFTER_FAILURES):
        _pin(stranger, world, student, _wrong(world.student.pin))
    student.refresh_from_db()
    assert student.locked_until is not None
    return student.locked_until - timezone.now()


def test_each_lock_of_a_pupil_lasts_twice_the_last_until_the_teacher_unlocks(
    class_a: ClassWorld,
) -> None:
    student = class_a.student.student
    minutes = [round(_lock_once(class_a, student).total_seconds() / 60) for _ in range(3)]
    assert minutes == [5, 10, 20]
    services.student_unlock(student=student)
    assert round(_lock_once(class_a, student).total_seconds() / 60) == 5


def test_a_forged_device_cookie_earns_no_trust(class_a: ClassWorld) -> None:
    student, pin = class_a.student.student, class_a.student.pin
    tablet = _device()
    assert _pin(tablet, class_a, student, pin).status_code == 302
    stranger = _device("203.0.113.82")
    for _ in range(services.LOCK_AFTER_FAILURES):
        _pin(stranger, class_a, student, _wrong(pin))
    # The stranger edits its cookie to the tablet's id with a made-up trust: refused.
    forged = _same_device(tablet)
    value = forged.cookies[sign_in_limit.COOKIE_NAME].value
    forged.cookies[sign_in_limit.COOKIE_NAME] = value[:-3] + (
        "AAA" if value[-3:] != "AAA" else "BBB"
    )
    assert form_errors(_pin(forged, class_a, student, pin)) == [LOCKED_PUPIL]
    assert _pin(_same_device(tablet), class_a, student, pin).status_code == 302


def test_the_pupil_is_told_the_length_of_the_next_pause(class_a: ClassWorld) -> None:
    student = class_a.student.student
    _lock_once(class_a, student)  # 5 minutes; the next one is 10
    Student.objects.filter(pk=student.pk).update(locked_until=None, failed_attempts=0)
    answer = _pin(_device("203.0.113.83"), class_a, student, _wrong(class_a.student.pin))
    assert form_errors(answer) == ["Wrong PIN. 4 tries left before a 10-minute pause."]
