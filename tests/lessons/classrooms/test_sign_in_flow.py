"""The whole foundation path through the pages: teacher sign-up to a signed-in student."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from lessons.models import Classroom, Student, User
from tests.conftest import ClassWorld
from tests.support.responses import page_text

pytestmark = pytest.mark.django_db

ROSTER = "Zoé\nNoah\n\n  Léa   Martin \nInès\n"


def _pins_on_cards(html: str) -> dict[str, str]:
    cards = re.findall(
        r'login-card__name">(.*?)</p>.*?PIN</dt>\s*<dd class="code">(\d{4})</dd>', html, re.S
    )
    return dict(cards)


def test_teacher_signs_up_creates_a_class_pastes_a_roster_and_a_student_signs_in() -> None:
    teacher = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = teacher.post(
        reverse("signup"),
        {"username": "mme.durand", "password1": "tilleuls-2026!", "password2": "tilleuls-2026!"},
    )
    assert response.status_code == 302
    assert User.objects.get(username="mme.durand").is_teacher

    response = teacher.post(
        reverse("classroom_create"), {"name": "CM2 B", "grade": "CM2", "language": "fr"}
    )
    classroom = Classroom.objects.get(name="CM2 B")
    assert response["Location"] == reverse("classroom_roster", args=[classroom.pk])
    assert classroom.teacher.username == "mme.durand"

    response = teacher.post(reverse("classroom_roster", args=[classroom.pk]), {"names": ROSTER})
    assert response["Location"] == reverse("classroom_cards", args=[classroom.pk])
    names = set(classroom.students.values_list("display_name", flat=True))
    assert names == {"Zoé", "Noah", "Léa Martin", "Inès"}
    for student in classroom.students.select_related("user"):
        assert student.user.is_student
        assert not student.user.has_usable_password()

    cards = teacher.get(reverse("classroom_cards", args=[classroom.pk]))
    pins = _pins_on_cards(page_text(cards))
    assert set(pins) == names
    assert classroom.join_code in page_text(cards)

    pupil = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = pupil.post(reverse("join"), {"code": classroom.join_code.lower()})
    assert response["Location"] == reverse("join_name", args=[classroom.join_code])
    names_page = pupil.get(response["Location"])
    lea = Student.objects.get(classroom=classroom, display_name="Léa Martin")
    pin_url = reverse("join_pin", args=[classroom.join_code, lea.pk])
    assert pin_url in names_page.content.decode()

    response = pupil.post(pin_url, {"pin": pins["Léa Martin"]})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "fr"
    home = pupil.get(reverse("home"))
    assert "Bonjour Léa Martin !" in page_text(home)
    assert "CM2 B" in page_text(home)
    assert int(pupil.session["_auth_user_id"]) == lea.user_id


def test_student_of_an_english_class_sees_english_after_sign_in(class_b: ClassWorld) -> None:
    pupil = Client(HTTP_ACCEPT_LANGUAGE="fr")
    url = reverse("join_pin", args=[class_b.classroom.join_code, class_b.student.student.pk])
    response = pupil.post(url, {"pin": class_b.student.pin})
    assert response.cookies["django_language"].value == "en"
    assert "Hello AnaïsB!" in page_text(pupil.get(reverse("home")))


def test_student_home_shows_practice_entry_without_link_until_live_play_exists(
    class_a: ClassWorld,
) -> None:
    pupil = Client()
    pupil.force_login(class_a.student.user)
    text = page_text(pupil.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Entraînement" in text
    try:
        practice_url = reverse("games:practice")
    except Exception:
        assert "Bientôt disponible." in text
    else:
        assert f'href="{practice_url}' in text  # with the class's grade deck


def test_teacher_home_lists_only_own_classrooms(class_a: ClassWorld, class_b: ClassWorld) -> None:
    teacher = Client()
    teacher.force_login(class_a.teacher)
    text = page_text(teacher.get(reverse("home")))
    assert "Classe A" in text and class_a.classroom.join_code in text
    assert "Classe B" not in text and class_b.classroom.join_code not in text


def test_teacher_signs_in_changes_password_and_signs_out(class_a: ClassWorld) -> None:
    client = Client()
    assert (
        client.post(
            reverse("login"), {"username": "teacher_A", "password": "correct-horse-battery-42"}
        ).status_code
        == 302
    )
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "correct-horse-battery-42",
            "new_password1": "a-new-secret-phrase-9",
            "new_password2": "a-new-secret-phrase-9",
        },
    )
    assert response["Location"] == reverse("password_change_done")
    class_a.teacher.refresh_from_db()
    assert class_a.teacher.check_password("a-new-secret-phrase-9")
    client.post(reverse("logout"))
    assert "_auth_user_id" not in client.session


def test_students_cannot_sign_in_with_the_password_form(class_a: ClassWorld) -> None:
    client = Client()
    response = client.post(
        reverse("login"), {"username": class_a.student.user.username, "password": ""}
    )
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_teacher_resets_a_pin_and_the_old_one_stops_working(class_a: ClassWorld) -> None:
    teacher = Client()
    teacher.force_login(class_a.teacher)
    student = class_a.student.student
    response = teacher.post(reverse("student_reset_pin", args=[student.pk]), follow=True)
    shown = re.search(r"(\d{4})", page_text(response).split("AnaïsA", 1)[1])
    assert shown is not None
    new_pin = shown.group(1)
    url = reverse("join_pin", args=[class_a.classroom.join_code, student.pk])
    if new_pin != class_a.student.pin:
        assert Client().post(url, {"pin": class_a.student.pin}).status_code == 200
    assert Client().post(url, {"pin": new_pin}).status_code == 302


def test_new_pins_for_the_whole_class_show_on_the_cards_then_hide(class_a: ClassWorld) -> None:
    teacher = Client(HTTP_ACCEPT_LANGUAGE="en")
    teacher.force_login(class_a.teacher)
    cards_url = reverse("classroom_cards", args=[class_a.classroom.pk])
    assert "hidden (give a new PIN" in page_text(teacher.get(cards_url))
    teacher.post(cards_url, {"action": "reset"})
    pins = _pins_on_cards(page_text(teacher.get(cards_url)))
    assert set(pins) == {"AnaïsA", "BasileA"}
    teacher.post(cards_url, {"action": "hide"})
    assert _pins_on_cards(page_text(teacher.get(cards_url))) == {}
    url = reverse("join_pin", args=[class_a.classroom.join_code, class_a.other_student.student.pk])
    assert Client().post(url, {"pin": pins["BasileA"]}).status_code == 302


def _sign_in(client: Client, classroom: Classroom, login: Any, pin: str) -> Any:
    url = reverse("join_pin", args=[classroom.join_code, login.student.pk])
    return client.post(url, {"pin": pin})


@pytest.mark.parametrize("status", ["open", "paused"])
def test_signing_in_joins_the_class_session_in_progress(class_a: ClassWorld, status: str) -> None:
    from lessons.models import SessionMember
    from lessons.sessions.services import session_set_paused, session_start

    session = session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    if status == "paused":
        session_set_paused(session=session, teacher=class_a.teacher, paused=True)
    pupil = Client()
    assert (
        _sign_in(pupil, class_a.classroom, class_a.student, class_a.student.pin).status_code == 302
    )
    member = SessionMember.objects.get()
    assert (member.session, member.student, member.table) == (
        session,
        class_a.student.student,
        None,
    )
    pupil.get(reverse("home"))
    assert SessionMember.objects.count() == 1


def test_a_refused_sign_in_or_no_session_joins_nothing(class_a: ClassWorld) -> None:
    from lessons.models import ClassSession, SessionMember
    from lessons.sessions.services import session_end, session_start

    pupil = Client()
    _sign_in(pupil, class_a.classroom, class_a.other_student, class_a.other_student.pin)
    session = session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    wrong = "0000" if class_a.student.pin != "0000" else "1111"
    assert _sign_in(Client(), class_a.classroom, class_a.student, wrong).status_code == 200
    session_end(session=session, teacher=class_a.teacher)
    _sign_in(Client(), class_a.classroom, class_a.student, class_a.student.pin)
    assert SessionMember.objects.count() == 0
    assert ClassSession.objects.get().status == ClassSession.Status.ENDED
