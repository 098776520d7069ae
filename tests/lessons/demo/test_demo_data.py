"""`manage.py demo_data`: one teacher, one French class of 24, printed logins that work."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from lessons.demo.data import DEMO_CLASSROOM_NAME, DEMO_TEACHER_PASSWORD, DEMO_TEACHER_USERNAME
from lessons.models import Classroom, Student, User

pytestmark = pytest.mark.django_db


def _run() -> str:
    out = io.StringIO()
    call_command("demo_data", stdout=out)
    return out.getvalue()


def test_demo_data_is_idempotent_and_prints_working_logins() -> None:
    first = _run()
    second = _run()
    assert first == second
    assert User.objects.filter(role=User.Role.TEACHER).count() == 1
    classroom = Classroom.objects.get()
    assert classroom.name == DEMO_CLASSROOM_NAME
    assert classroom.language == "fr"
    assert classroom.students.count() == 24
    assert Student.objects.count() == 24
    assert classroom.join_code in second
    assert DEMO_TEACHER_USERNAME in second and DEMO_TEACHER_PASSWORD in second

    pins = dict(re.findall(r"^\s+(\S+)\s+(\d{4})$", second, re.M))
    assert len(pins) == 24
    assert {"Léa", "Zoé", "Éloïse"} <= set(pins)

    teacher = Client()
    assert teacher.login(username=DEMO_TEACHER_USERNAME, password=DEMO_TEACHER_PASSWORD)
    zoe = classroom.students.get(display_name="Zoé")
    pupil = Client()
    url = reverse("join_pin", args=[classroom.join_code, zoe.pk])
    assert pupil.post(url, {"pin": pins["Zoé"]}).status_code == 302


def test_demo_data_restores_a_reset_pin_and_a_lock() -> None:
    out = _run()
    pins = dict(re.findall(r"^\s+(\S+)\s+(\d{4})$", out, re.M))
    student = Student.objects.get(display_name="Hugo")
    student.pin_hash = "x"
    student.failed_attempts = 3
    student.save()
    _run()
    url = reverse("join_pin", args=[student.classroom.join_code, student.pk])
    assert Client().post(url, {"pin": pins["Hugo"]}).status_code == 302
