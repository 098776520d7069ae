"""A pupil's data for a family's request: the JSON and CSV download, and erasure with consent."""

from __future__ import annotations

import csv
import io
import json
import logging
from datetime import datetime, timedelta

import pytest
from django.apps import apps
from django.urls import reverse

from lessons.csv_writer import defused
from lessons.ent.links import seen_link
from lessons.ent.presets import PRESETS
from lessons.exported_columns import SECRET_COLUMNS
from lessons.models import (
    Attempt,
    CompareAnswer,
    EntConnector,
    EntSeenPupil,
    EntSignIn,
    Student,
    User,
)
from lessons.plans.services import plan_create
from lessons.practice.services import assignment_create, practice_table_start, today
from lessons.school.student_export import NOT_THE_PUPILS, RELATIONS, value_text
from lessons.warmup.services import warmup_recheck
from tests.conftest import ClassWorld
from tests.lessons.school.helpers import plays_make, texts_with
from tests.support.factories import signed_in_client
from tests.support.responses import body_of, form_errors, page_text, snapshot

pytestmark = pytest.mark.django_db


def _download(world: ClassWorld, fmt: str) -> str:
    url = reverse("student_export", args=[world.other_student.student.pk, fmt])
    response = signed_in_client(world.teacher, "en").get(url)
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


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_export_keeps_a_spreadsheet_from_running_a_name(
    class_a: ClassWorld, start: str
) -> None:
    name = f"{start}1+1"
    Student.objects.filter(pk=class_a.other_student.student.pk).update(display_name=name)
    rows = list(csv.reader(io.StringIO(_download(class_a, "csv"))))
    assert ["profile", "1", "display_name", f"'{name}"] in rows
    # A name that only holds such a sign further on is left as it is.
    assert defused(f"Zoé{start}1") == f"Zoé{start}1"


def _relations_to_the_pupil() -> set[str]:
    """Return 'app.Model.field' of every relation (FK, one-to-one, many-to-many) to a pupil
    or to a user account, in every installed model."""
    found = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            # Fields declared on the model (a reverse relation is the other model's field).
            declared = field.concrete or (field.many_to_many and not field.auto_created)
            if declared and field.is_relation and field.related_model in (Student, User):
                found.add(f"{model._meta.label}.{field.name}")
    return found


def test_every_relation_to_a_pupil_is_exported_or_said_not_the_pupils() -> None:
    relations = _relations_to_the_pupil()
    # The walk finds what it should (a broken walk would pass the next line trivially).
    assert {"lessons.Attempt.student", "games.Seat.user", "lessons.Student.user"} <= relations
    unaccounted = relations - set(RELATIONS) - set(NOT_THE_PUPILS)
    assert unaccounted == set(), "export these in lessons/school/student_export.py"
    assert set(RELATIONS).isdisjoint(NOT_THE_PUPILS)
    assert set(RELATIONS) | set(NOT_THE_PUPILS) <= relations  # no stale entry


SIGN_IN_SECRET = "f" * 64


def _everything_of(world: ClassWorld) -> Student:
    """Give the second pupil a row in every table that refers to a pupil or their account."""
    plays_make(world)
    student = world.other_student.student
    named = assignment_create(
        teacher=world.teacher, classroom=world.classroom, games=2, deck="sixths",
        due_on=today() + timedelta(days=3), students=[student],
    )  # fmt: skip
    assignment_create(
        teacher=world.teacher, classroom=world.classroom, games=1, deck="sixths",
        due_on=today() + timedelta(days=3),
    )  # fmt: skip
    practice_table_start(student=student, assignment=named, seed=3)
    warmup_recheck(teacher=world.teacher, classroom=world.classroom, students=[student.pk])
    # In a group plan (lessons.plans).
    plan_create(teacher=world.teacher, classroom=world.classroom, rule="M1", students=[student])
    # Asked to compare after a refused trap (lessons.attempts.compare_prompt).
    attempt = Attempt.objects.filter(student=student).first()
    assert attempt is not None
    CompareAnswer.objects.create(
        attempt=attempt,
        student=student,
        variant="equal_first",
        choices=["2/4", "2/3"],
        equal="2/4",
        answer="2/3",
    )
    # Linked to the ENT by the teacher, and signed in through it once.
    connector = EntConnector.objects.create(
        name="ENT", server_url="https://ent.example/cas/", **PRESETS["edifice"]
    )
    seen = EntSeenPupil.objects.create(
        connector=connector, external_id="ENT-42", display_name="X", classes=[world.classroom.name]
    )
    seen_link(classroom=world.classroom, choices={seen.pk: student}, by=world.teacher)
    EntSignIn.objects.create(
        connector=connector, ticket_hash=SIGN_IN_SECRET, user=student.user, session_key="s" * 32
    )
    return student


def test_the_export_holds_a_row_of_every_table_that_refers_to_the_pupil(
    class_a: ClassWorld,
) -> None:
    student = _everything_of(class_a)
    data = json.loads(_download(class_a, "json"))
    for relation, section in RELATIONS.items():
        label, field_name = relation.rsplit(".", 1)
        model = apps.get_model(label)
        field = model._meta.get_field(field_name)
        target = student if field.related_model is Student else student.user
        rows = model._default_manager.filter(**{field_name: target})
        assert rows.exists(), f"the test world has no {relation}"
        got = data[section] if section != "profile" else [data["profile"]]
        key = model._meta.pk.attname
        assert {row[key] for row in got} >= set(rows.values_list("pk", flat=True)), relation
        # Every column of those rows but the secrets, so that no new field is forgotten.
        wanted = {
            f.attname for f in model._meta.concrete_fields
            if f"{model._meta.label}.{f.name}" not in SECRET_COLUMNS
        }  # fmt: skip
        for row in got:
            assert wanted <= set(row), (relation, wanted - set(row))
    assert data["profile"]["account_username"] == student.user.username
    assert data["ent_link"][0]["external_id"] == "ENT-42"
    assert SIGN_IN_SECRET not in json.dumps(data) and "s" * 32 not in json.dumps(data)
    # Another pupil's rows never come with them.
    assert "AnaïsA" not in json.dumps(data, ensure_ascii=False)


def test_every_personal_column_of_an_attempt_is_in_both_formats(class_a: ClassWorld) -> None:
    plays_make(class_a)
    attempt = Attempt.objects.get(student=class_a.other_student.student)
    # Every column set, the child's own answers too (reason, drew).
    Attempt.objects.filter(pk=attempt.pk).update(reason="same_bottom", drew=True, turn=4)
    attempt.refresh_from_db()
    data = json.loads(_download(class_a, "json"))
    rows = list(csv.reader(io.StringIO(_download(class_a, "csv"))))
    csv_attempt = {field: value for section, _n, field, value in rows if section == "attempts"}
    for field in Attempt._meta.concrete_fields:
        value = field.value_from_object(attempt)
        if field.is_relation:
            value = getattr(attempt, field.attname)
        if isinstance(value, datetime):
            value = value.isoformat()
        assert data["attempts"][0][field.attname] == value, field.attname
        assert csv_attempt[field.attname] == defused(value_text(value)), field.attname
    assert data["attempts"][0]["reason"] == "same_bottom"


@pytest.mark.parametrize("fmt", ["xml", "JSON", "", "csv.exe"])
def test_unknown_export_format_is_404(class_a: ClassWorld, fmt: str) -> None:
    url = f"/students/{class_a.student.student.pk}/export.{fmt}"
    assert signed_in_client(class_a.teacher, "en").get(url).status_code == 404


def test_erase_asks_for_confirmation_and_changes_nothing_without_it(class_a: ClassWorld) -> None:
    url = reverse("student_erase", args=[class_a.student.student.pk])
    page = signed_in_client(class_a.teacher, "en").get(url)
    assert "Everything stored about AnaïsA is deleted" in page_text(page)
    for language, message in [
        ("en", "Tick the box to confirm the erasure."),
        ("fr", "Cochez la case pour confirmer l’effacement."),
    ]:
        for data in ({}, {"confirm": ""}, {"confirm": "no"}, {"confirm": "1"}):
            before = snapshot()
            response = signed_in_client(class_a.teacher, language).post(url, data)
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
    client = signed_in_client(class_a.teacher, "en")
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
        body = body_of(page)
        assert name not in body.decode("utf-8-sig"), url_name
    assert name not in caplog.text
    # The other pupil is still there, with their plays.
    assert Student.objects.filter(display_name="AnaïsA").exists()


def test_another_teacher_can_neither_download_nor_erase(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    student = class_a.student.student
    client = signed_in_client(class_b.teacher, "en")
    assert client.get(reverse("student_export", args=[student.pk, "json"])).status_code == 404
    response = client.post(reverse("student_erase", args=[student.pk]), {"confirm": "on"})
    assert response.status_code == 404
    assert Student.objects.filter(pk=student.pk).exists()


def test_a_co_teacher_may_download_and_erase(class_a: ClassWorld, class_b: ClassWorld) -> None:
    class_a.classroom.co_teachers.add(class_b.teacher)
    student = class_a.student.student
    client = signed_in_client(class_b.teacher, "en")
    assert client.get(reverse("student_export", args=[student.pk, "csv"])).status_code == 200
    assert (
        client.post(reverse("student_erase", args=[student.pk]), {"confirm": "on"}).status_code
        == 302
    )
    assert not Student.objects.filter(pk=student.pk).exists()
