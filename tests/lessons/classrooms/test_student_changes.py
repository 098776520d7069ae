"""One student's page: rename, move to another class of the teacher, erase or pseudonymise."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Seat, Table
from games.services import SeatSpec, table_create
from lessons.classrooms.pins import pin_matches
from lessons.models import Attempt, Student, User
from tests.conftest import ClassWorld
from tests.support.factories import make_classroom, signed_in_client
from tests.support.responses import form_errors, page_text, snapshot

pytestmark = pytest.mark.django_db


def _attempt(world: ClassWorld, student: Student) -> Attempt:
    return Attempt.objects.create(
        classroom=world.classroom,
        student=student,
        played_num=1,
        played_den=2,
        card="1/2",
        claim="equal",
        outcome="wrong",
        rules_version="test",
    )


def test_rename_keeps_the_pin(class_a: ClassWorld) -> None:
    student = class_a.student.student
    url = reverse("student_rename", args=[student.pk])
    response = signed_in_client(class_a.teacher, "en").post(url, {"name": " Zoé  M "})
    assert response.status_code == 302
    student.refresh_from_db()
    assert student.display_name == "Zoé M"
    assert pin_matches(class_a.student.pin, student.pin_hash)


@pytest.mark.parametrize(
    ("name", "english", "french"),
    [
        ("BasileA", "“BasileA” is already in this class.",
         "« BasileA » est déjà dans cette classe."),
        ("basilea", "“basilea” is already in this class.",
         "« basilea » est déjà dans cette classe."),
        ("   ", "This field is required.", "Ce champ est obligatoire."),
        ("x" * 41, "Ensure this value has at most 40 characters (it has 41).", None),
        ("Zo\u0007é", "The name contains characters that cannot be shown.",
         "Le nom contient des caractères qui ne peuvent pas être affichés."),
    ],
    ids=["taken", "taken-other-case", "blank", "too-long", "control-char"],
)  # fmt: skip
def test_bad_rename_is_refused_and_changes_nothing(
    class_a: ClassWorld, name: str, english: str, french: str | None
) -> None:
    for language, message in (("en", english), ("fr", french)):
        before = snapshot()
        url = reverse("student_rename", args=[class_a.student.student.pk])
        response = signed_in_client(class_a.teacher, language).post(url, {"name": name})
        assert response.status_code == 200
        if message is not None:
            assert message in form_errors(response)
        assert snapshot() == before


def test_move_takes_pin_and_plays_to_another_class_of_the_teacher(class_a: ClassWorld) -> None:
    other = make_classroom(teacher=class_a.teacher, name="CM2 bis")
    student = class_a.student.student
    attempt = _attempt(class_a, student)
    response = signed_in_client(class_a.teacher, "en").post(
        reverse("student_move", args=[student.pk]), {"to": other.pk}
    )
    assert response.status_code == 302
    student.refresh_from_db()
    attempt.refresh_from_db()
    assert student.classroom_id == other.pk and attempt.classroom_id == other.pk
    assert pin_matches(class_a.student.pin, student.pin_hash)


def test_move_to_another_teachers_class_is_refused(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    before = snapshot()
    url = reverse("student_move", args=[class_a.student.student.pk])
    response = signed_in_client(class_a.teacher, "en").post(url, {"to": class_b.classroom.pk})
    assert response.status_code == 200 and form_errors(response)
    assert snapshot() == before


@pytest.mark.parametrize("to", ["", "abc", "999999", "-1"])
def test_move_bad_target_is_refused(class_a: ClassWorld, to: str) -> None:
    make_classroom(teacher=class_a.teacher, name="CM2 bis")
    before = snapshot()
    url = reverse("student_move", args=[class_a.student.student.pk])
    response = signed_in_client(class_a.teacher, "en").post(url, {"to": to})
    assert response.status_code == 200 and form_errors(response)
    assert snapshot() == before


def test_move_clash_with_a_name_in_the_target_class_is_refused(class_a: ClassWorld) -> None:
    other = make_classroom(teacher=class_a.teacher, name="CM2 bis")
    from tests.support.factories import make_student

    make_student(classroom=other, display_name="AnaïsA")
    before = snapshot()
    url = reverse("student_move", args=[class_a.student.student.pk])
    response = signed_in_client(class_a.teacher, "en").post(url, {"to": other.pk})
    assert "“AnaïsA” is already in this class." in form_errors(response)
    assert snapshot() == before


def _seat_at_a_table(world: ClassWorld) -> int:
    table = table_create(
        ruleset="fractions",
        seats=[
            SeatSpec(name=world.student.student.display_name, user_id=world.student.user.pk),
            SeatSpec(name="Bot 1", bot="heuristic"),
        ],
        kind="practice",
        seed=3,
    )
    return table.pk


def test_remove_erase_deletes_student_account_and_plays_and_the_name_at_tables(
    class_a: ClassWorld,
) -> None:
    student = class_a.student.student
    user_id = student.user_id
    _attempt(class_a, student)
    table_id = _seat_at_a_table(class_a)
    url = reverse("student_remove", args=[student.pk])
    response = signed_in_client(class_a.teacher, "en").post(url, {"mode": "erase"})
    assert response.status_code == 302
    assert not Student.objects.filter(pk=student.pk).exists()
    assert not User.objects.filter(pk=user_id).exists()
    assert not Attempt.objects.filter(student_id=student.pk).exists()
    # The game was still being played: a robot has the seat (and no player is left at it).
    seat = Seat.objects.get(table_id=table_id, index=0)
    assert seat.user_id is None and seat.bot and seat.name == "Robot 1"
    assert Table.objects.get(pk=table_id).status == Table.Status.FINISHED


def test_remove_pseudonymise_keeps_plays_under_a_pseudonym_without_pin_or_sign_in(
    class_a: ClassWorld,
) -> None:
    student = class_a.student.student
    attempt = _attempt(class_a, student)
    table_id = _seat_at_a_table(class_a)
    url = reverse("student_remove", args=[student.pk])
    response = signed_in_client(class_a.teacher, "en").post(url, {"mode": "pseudonymise"})
    assert response.status_code == 302
    student.refresh_from_db()
    attempt.refresh_from_db()
    assert student.display_name == "Élève retiré 1" and student.pin_hash == ""
    assert not student.user.is_active and not student.user.has_usable_password()
    assert attempt.student_id == student.pk
    # A robot has the seat of the game still being played.
    seat = Seat.objects.get(table_id=table_id, index=0)
    assert seat.user_id is None and seat.bot and seat.name == "Robot 1"
    # Gone from the class page and the sign-in list; the student page answers 404.
    client = signed_in_client(class_a.teacher, "en")
    detail = page_text(client.get(reverse("classroom_detail", args=[class_a.classroom.pk])))
    assert "AnaïsA" not in detail and "Élève retiré" not in detail
    join = page_text(Client().get(reverse("join_name", args=[class_a.classroom.join_code])))
    assert "Élève retiré" not in join
    assert client.get(reverse("student_manage", args=[student.pk])).status_code == 404
    # A class-wide PIN reset gives the removed student no PIN.
    client.post(reverse("classroom_cards", args=[class_a.classroom.pk]), {"action": "reset"})
    student.refresh_from_db()
    assert student.pin_hash == ""


@pytest.mark.parametrize("mode", ["", "delete", "ERASE"])
def test_remove_with_an_unknown_mode_changes_nothing(class_a: ClassWorld, mode: str) -> None:
    before = snapshot()
    url = reverse("student_remove", args=[class_a.student.student.pk])
    response = signed_in_client(class_a.teacher, "en").post(url, {"mode": mode})
    assert response.status_code == 200 and form_errors(response)
    assert snapshot() == before


def test_student_page_states_what_each_removal_does(class_a: ClassWorld) -> None:
    text = page_text(
        signed_in_client(class_a.teacher, "en").get(
            reverse("student_manage", args=[class_a.student.student.pk])
        )
    )
    assert "Erase everything" in text and "under a pseudonym" in text
