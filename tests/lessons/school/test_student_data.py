"""A pupil's data for a family's request: the JSON and CSV download, and erasure with consent."""

from __future__ import annotations

import csv
import io
import json
import logging

import pytest
from django.test import Client
from django.urls import reverse

from lessons.models import Attempt, Student, User
from tests.conftest import ClassWorld
from tests.lessons.school.helpers import plays_make, texts_with
from tests.support.responses import form_errors, page_text, snapshot

pytestmark = pytest.mark.django_db


def _teacher(world: ClassWorld, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(world.teacher)
    return client


def _download(world: ClassWorld, fmt: str) -> str:
    url = reverse("student_export", args=[world.other_student.student.pk, fmt])
    response = _teacher(world).get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="student-{world.other_student.student.pk}.{fmt}"'
    )
    return response.content.decode()


def test_json_export_holds_profile_sessions_attempts_and_missed_but_no_pin(
    class_a: ClassWorld,
) -> None:
    plays_make(class_a)
    student = class_a.other_student.student
    data = json.loads(_download(class_a, "json"))
    assert data["profile"]["display_name"] == "BasileA"
    assert data["profile"]["classroom"] == "Classe A"
    assert [s["table_number"] for s in data["sessions"]] == [1]
    assert [a["card"] for a in data["attempts"]] == ["4/12j"]
    assert data["attempts"][0]["hand"] == ["4/12", "2/3", "10/12", "1/6"]
    assert [m["reference"] for m in data["missed_equivalences"]] == ["1/3"]
    text = json.dumps(data)
    assert student.pin_hash not in text and "pin" not in text.lower()
    # Only this pupil's rows.
    assert "AnaïsA" not in text


def test_csv_export_is_the_same_data_one_value_a_row(class_a: ClassWorld) -> None:
    plays_make(class_a)
    rows = list(csv.reader(io.StringIO(_download(class_a, "csv"))))
    assert rows[0] == ["section", "row", "field", "value"]
    assert ["profile", "1", "display_name", "BasileA"] in rows
    assert ["attempts", "1", "card", "4/12j"] in rows
    assert ["missed_equivalences", "1", "equal_cards", '["2/6"]'] in rows
    assert ["sessions", "1", "table_number", "1"] in rows
    assert class_a.other_student.student.pin_hash not in str(rows)


def test_csv_export_keeps_a_spreadsheet_from_running_a_name(class_a: ClassWorld) -> None:
    Student.objects.filter(pk=class_a.other_student.student.pk).update(display_name="=1+1")
    rows = list(csv.reader(io.StringIO(_download(class_a, "csv"))))
    assert ["profile", "1", "display_name", "'=1+1"] in rows


@pytest.mark.parametrize("fmt", ["xml", "JSON", "", "csv.exe"])
def test_unknown_export_format_is_404(class_a: ClassWorld, fmt: str) -> None:
    url = f"/students/{class_a.student.student.pk}/export.{fmt}"
    assert _teacher(class_a).get(url).status_code == 404


def test_erase_asks_for_confirmation_and_changes_nothing_without_it(class_a: ClassWorld) -> None:
    url = reverse("student_erase", args=[class_a.student.student.pk])
    page = _teacher(class_a).get(url)
    assert "Everything stored about AnaïsA is deleted" in page_text(page)
    for language, message in [
        ("en", "Tick the box to confirm the erasure."),
        ("fr", "Cochez la case pour confirmer l'effacement."),
    ]:
        for data in ({}, {"confirm": ""}, {"confirm": "no"}, {"confirm": "1"}):
            before = snapshot()
            response = _teacher(class_a, language).post(url, data)
            assert response.status_code == 200
            assert message in form_errors(response)
            assert snapshot() == before


def test_erase_from_the_student_page_leaves_no_name_or_pin_anywhere(
    class_a: ClassWorld, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    table = plays_make(class_a)
    student = class_a.other_student.student
    name, pin_hash, user_id = student.display_name, student.pin_hash, student.user_id
    assert "games.Seat.name" in texts_with(name) and table.pk
    client = _teacher(class_a)
    manage = page_text(client.get(reverse("student_manage", args=[student.pk])))
    erase_url = reverse("student_erase", args=[student.pk])
    assert f'href="{erase_url}"' in manage
    response = client.post(erase_url, {"confirm": "on"})
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom_detail", args=[class_a.classroom.pk])
    assert not Student.objects.filter(pk=student.pk).exists()
    assert not User.objects.filter(pk=user_id).exists()
    assert not Attempt.objects.filter(student_id=student.pk).exists()
    # Every text column of every table (table states and event logs included).
    assert texts_with(name) == []
    assert texts_with(pin_hash) == []
    # The class's exports and pages.
    for url_name in ("export_attempts", "export_students", "classroom_detail", "dashboard_class"):
        page = client.get(reverse(url_name, args=[class_a.classroom.pk]))
        body = b"".join(page.streaming_content) if page.streaming else page.content
        assert name not in body.decode("utf-8-sig"), url_name
    assert name not in caplog.text
    # The other pupil is still there, with their plays.
    assert Student.objects.filter(display_name="AnaïsA").exists()


def test_another_teacher_can_neither_download_nor_erase(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    student = class_a.student.student
    client = _teacher(class_b)
    assert client.get(reverse("student_export", args=[student.pk, "json"])).status_code == 404
    response = client.post(reverse("student_erase", args=[student.pk]), {"confirm": "on"})
    assert response.status_code == 404
    assert Student.objects.filter(pk=student.pk).exists()


def test_a_co_teacher_may_download_and_erase(class_a: ClassWorld, class_b: ClassWorld) -> None:
    class_a.classroom.co_teachers.add(class_b.teacher)
    student = class_a.student.student
    client = _teacher(class_b)
    assert client.get(reverse("student_export", args=[student.pk, "csv"])).status_code == 200
    assert (
        client.post(reverse("student_erase", args=[student.pk]), {"confirm": "on"}).status_code
        == 302
    )
    assert not Student.objects.filter(pk=student.pk).exists()
