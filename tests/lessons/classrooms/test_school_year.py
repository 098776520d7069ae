"""Archive a class (read-only, off the home page, reports readable) and start a new year from it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse

from lessons.classrooms.fresh_pins import fresh_pins_recall
from lessons.classrooms.pins import pin_matches
from lessons.classrooms.services import join_classroom_find
from lessons.models import Classroom, ClassSession, Student
from lessons.sessions.services import session_start
from tests.conftest import ClassWorld
from tests.support.factories import signed_in_client
from tests.support.responses import form_errors, page_text, snapshot

if TYPE_CHECKING:
    from tests.support.responses import ClientResponse


pytestmark = pytest.mark.django_db


def _archive(client: Client, world: ClassWorld) -> ClientResponse:
    return client.post(reverse("classroom_archive", args=[world.classroom.pk]))


def test_archived_class_leaves_home_stays_readable_and_refuses_changes(
    class_a: ClassWorld,
) -> None:
    client = signed_in_client(class_a.teacher, "en")
    response = _archive(client, class_a)
    assert response.status_code == 302 and response["Location"] == reverse("classrooms_archived")
    assert "Classe A" not in page_text(client.get(reverse("home")))
    assert "Classe A" in page_text(client.get(reverse("classrooms_archived")))
    detail = client.get(reverse("classroom_detail", args=[class_a.classroom.pk]))
    assert detail.status_code == 200 and "read-only" in page_text(detail)
    assert client.get(reverse("dashboard_class", args=[class_a.classroom.pk])).status_code == 200
    student = class_a.student.student
    report = reverse("report_student", args=[class_a.classroom.pk, student.pk])
    assert client.get(report).status_code == 200
    before = snapshot()
    pk = class_a.classroom.pk
    client.post(reverse("classroom_roster", args=[pk]), {"names": "Zoé"})
    client.post(reverse("classroom_cards", args=[pk]), {"action": "reset"})
    client.post(reverse("student_reset_pin", args=[student.pk]))
    client.post(reverse("student_rename", args=[student.pk]), {"name": "Zoé"})
    client.post(reverse("student_remove", args=[student.pk]), {"mode": "erase"})
    client.post(reverse("classroom_import_confirm", args=[pk]))
    assert snapshot() == before
    cards = page_text(client.get(reverse("classroom_cards", args=[pk])))
    assert "New PINs for the whole class" not in cards
    class_a.classroom.refresh_from_db()
    with pytest.raises(Exception, match="archived"):
        session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    # Nobody can join with the old code.
    with pytest.raises(Exception, match="No class has this code"):
        join_classroom_find(code=class_a.classroom.join_code, address="10.0.0.1")


def test_archive_is_refused_while_a_session_is_open(class_a: ClassWorld) -> None:
    session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    client = signed_in_client(class_a.teacher, "en")
    _archive(client, class_a)
    class_a.classroom.refresh_from_db()
    assert class_a.classroom.archived_at is None
    assert ClassSession.objects.filter(classroom=class_a.classroom).count() == 1


def test_archiving_twice_is_refused_and_keeps_the_first_date(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "en")
    _archive(client, class_a)
    first = Classroom.objects.get(pk=class_a.classroom.pk).archived_at
    _archive(client, class_a)
    assert Classroom.objects.get(pk=class_a.classroom.pk).archived_at == first


def test_new_year_copies_present_students_with_new_pins_and_a_new_code(
    class_a: ClassWorld,
) -> None:
    client = signed_in_client(class_a.teacher, "en")
    client.post(
        reverse("student_remove", args=[class_a.other_student.student.pk]),
        {"mode": "pseudonymise"},
    )
    _archive(client, class_a)
    url = reverse("classroom_new_year", args=[class_a.classroom.pk])
    assert "AnaïsA" in page_text(client.get(url))
    response = client.post(url, {"name": "CM2 2027", "grade": "CM2"})
    assert response.status_code == 302
    new = Classroom.objects.get(name="CM2 2027")
    assert response["Location"] == reverse("classroom_cards", args=[new.pk])
    assert new.teacher == class_a.teacher and new.previous_id == class_a.classroom.pk
    assert new.archived_at is None and new.join_code != class_a.classroom.join_code
    (student,) = new.students.all()
    assert student.display_name == "AnaïsA"
    assert student.user_id != class_a.student.user.pk
    pins = fresh_pins_recall(session=client.session)
    assert pin_matches(pins[student.pk], student.pin_hash)
    # The old class keeps its students and history.
    assert Student.objects.filter(classroom=class_a.classroom).count() == 2
    assert "CM2 2027" in page_text(client.get(reverse("home")))


def test_new_year_from_a_current_class_is_refused(class_a: ClassWorld) -> None:
    before = snapshot()
    url = reverse("classroom_new_year", args=[class_a.classroom.pk])
    response = signed_in_client(class_a.teacher, "en").post(url, {"name": "X", "grade": ""})
    assert response.status_code == 302
    assert snapshot() == before


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"name": "", "grade": ""}, "This field is required."),
        ({"name": "x" * 81, "grade": ""},
         "Ensure this value has at most 80 characters (it has 81)."),
        ({"name": "CM2", "grade": "g" * 21},
         "Ensure this value has at most 20 characters (it has 21)."),
    ],
    ids=["blank", "long-name", "long-grade"],
)  # fmt: skip
def test_new_year_bad_input_changes_nothing(
    class_a: ClassWorld, data: dict[str, str], error: str
) -> None:
    client = signed_in_client(class_a.teacher, "en")
    _archive(client, class_a)
    before = snapshot()
    response = client.post(reverse("classroom_new_year", args=[class_a.classroom.pk]), data)
    assert response.status_code == 200 and error in form_errors(response)
    assert snapshot() == before


def test_archive_pages_speak_french(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    _archive(client, class_a)
    assert "Classes archivées" in page_text(client.get(reverse("classrooms_archived")))
    detail = page_text(client.get(reverse("classroom_detail", args=[class_a.classroom.pk])))
    assert "cette classe est en lecture seule" in detail
    assert "Commencer une nouvelle année scolaire" in detail


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "The new year's class of this class was already started: CM2 2027."),
        ("fr", "La classe de la nouvelle année a déjà été créée à partir de cette classe\u202f: "
               "CM2 2027."),
    ],
)  # fmt: skip
def test_a_second_new_year_from_one_class_is_refused_with_the_first_ones_name(
    class_a: ClassWorld, language: str, message: str
) -> None:
    client = signed_in_client(class_a.teacher, language)
    _archive(client, class_a)
    url = reverse("classroom_new_year", args=[class_a.classroom.pk])
    assert client.post(url, {"name": "CM2 2027", "grade": "CM2"}).status_code == 302
    before = snapshot()
    again = client.post(url, {"name": "CM2 bis", "grade": "CM2"})
    assert again.status_code == 200 and message in form_errors(again)
    assert snapshot() == before
