"""Assigned practice through its pages: the teacher's form (bad input, CSRF), the student's home,
the class page, the assignment's page, and the dashboards' choice of plays (fr/en)."""

from __future__ import annotations

import html
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from lessons.models import PracticeAssignment, PracticeTable
from lessons.practice.services import today
from tests.conftest import ClassWorld
from tests.lessons.practice.helpers import assign, play_one_game
from tests.lessons.reporting.helpers import RIGHT_PLAYS, log_plays
from tests.support.factories import signed_in_client

pytestmark = pytest.mark.django_db


def _text(response: Any) -> str:
    """Return the page's HTML with entities decoded (a test client's response)."""
    return html.unescape(bytes(response.content).decode())


def _form(**change: Any) -> dict[str, Any]:
    data = {"games": "3", "deck": "sixths", "due_on": str(today() + timedelta(days=4))}
    data.update(change)
    return data


def test_the_teacher_assigns_to_chosen_students(class_a: ClassWorld) -> None:
    client = signed_in_client(class_a.teacher, "fr")
    url = reverse("practice_assignment_new", args=[class_a.classroom.pk])
    page = _text(client.get(url))
    assert class_a.student.student.display_name in page  # the students to choose from
    response = client.post(url, _form(students=[str(class_a.student.student.pk)]))
    assignment = PracticeAssignment.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "practice_assignment", args=[class_a.classroom.pk, assignment.pk]
    )
    assert (assignment.games, assignment.deck) == (3, "sixths")
    assert list(assignment.students.all()) == [class_a.student.student]
    assert assignment.created_by == class_a.teacher


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"games": "0"}, "games"),
        ({"games": "-2"}, "games"),
        ({"games": "trois"}, "games"),
        ({"games": "999"}, "games"),
        ({"deck": "giant"}, "deck"),
        ({"due_on": "2001-01-01"}, "due_on"),
        ({"due_on": "not a date"}, "due_on"),
        ({"due_on": ""}, "due_on"),
    ],
)
def test_bad_input_is_refused_on_the_form(
    class_a: ClassWorld, change: dict[str, str], error: str
) -> None:
    response = signed_in_client(class_a.teacher, "fr").post(
        reverse("practice_assignment_new", args=[class_a.classroom.pk]), _form(**change)
    )
    assert response.status_code == 200
    assert error in response.context["form"].errors
    assert not PracticeAssignment.objects.exists()


def test_a_past_date_is_refused_in_both_languages(class_a: ClassWorld) -> None:
    url = reverse("practice_assignment_new", args=[class_a.classroom.pk])
    yesterday = str(today() - timedelta(days=1))
    fr = _text(signed_in_client(class_a.teacher, "fr").post(url, _form(due_on=yesterday)))
    en = _text(signed_in_client(class_a.teacher, "en").post(url, _form(due_on=yesterday)))
    assert "La date est déjà passée" in fr
    assert "The date is already past" in en


def test_another_class_students_are_not_a_choice(class_a: ClassWorld, class_b: ClassWorld) -> None:
    response = signed_in_client(class_a.teacher, "fr").post(
        reverse("practice_assignment_new", args=[class_a.classroom.pk]),
        _form(students=[str(class_b.student.student.pk)]),
    )
    assert response.status_code == 200
    assert "students" in response.context["form"].errors
    assert not PracticeAssignment.objects.exists()


def test_another_teacher_cannot_assign_to_the_class(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    response = signed_in_client(class_b.teacher, "fr").post(
        reverse("practice_assignment_new", args=[class_a.classroom.pk]), _form()
    )
    assert response.status_code == 404
    assert not PracticeAssignment.objects.exists()


def test_posts_need_the_csrf_token(class_a: ClassWorld) -> None:
    teacher = signed_in_client(class_a.teacher, "fr", enforce_csrf_checks=True)
    url = reverse("practice_assignment_new", args=[class_a.classroom.pk])
    assert teacher.post(url, _form()).status_code == 403
    assignment = assign(class_a.teacher, class_a.classroom)
    delete = reverse("practice_assignment_delete", args=[class_a.classroom.pk, assignment.pk])
    assert teacher.post(delete).status_code == 403
    student = signed_in_client(class_a.student.user, "fr", enforce_csrf_checks=True)
    assert student.post(reverse("practice_play", args=[assignment.pk])).status_code == 403
    assert PracticeAssignment.objects.count() == 1 and not Table.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ["Entraînement donné par ton enseignant·e", "0 sur 2 parties jouées",
                "Jouer une partie"]),
        ("en", ["Practice from your teacher", "0 of 2 games played", "Play a game"]),
    ],
)  # fmt: skip
def test_the_student_home_shows_the_assignment_and_progress(
    class_a: ClassWorld, language: str, words: list[str]
) -> None:
    assign(class_a.teacher, class_a.classroom, games=2)
    page = _text(signed_in_client(class_a.student.user, language).get(reverse("home")))
    for word in words:
        assert word in page


def test_the_home_counts_a_finished_game_and_says_done(class_a: ClassWorld) -> None:
    assignment = assign(class_a.teacher, class_a.classroom, games=1)
    play_one_game(class_a.student.student, assignment)
    page = _text(signed_in_client(class_a.student.user, "en").get(reverse("home")))
    assert "1 of 1 game played" in page and "Done!" in page and "Play one more game" in page


def test_play_starts_a_table_then_carries_it_on(class_a: ClassWorld) -> None:
    assignment = assign(class_a.teacher, class_a.classroom, deck="improper")
    client = signed_in_client(class_a.student.user, "fr")
    first = client.post(reverse("practice_play", args=[assignment.pk]))
    table = Table.objects.get()
    assert first["Location"] == reverse("games:play", args=[table.pk])
    assert table.options["deck"] == "improper" and table.play_settings["ask_reason"] == 100
    assert table.play_settings["turn_timer"] == 0
    again = client.post(reverse("practice_play", args=[assignment.pk]))
    assert again["Location"] == first["Location"]
    assert PracticeTable.objects.get().table == table


def test_a_student_not_chosen_gets_404(class_a: ClassWorld) -> None:
    assignment = assign(class_a.teacher, class_a.classroom, students=[class_a.student.student])
    response = signed_in_client(class_a.other_student.user, "fr").post(
        reverse("practice_play", args=[assignment.pk])
    )
    assert response.status_code == 404
    assert not Table.objects.exists()
    assert "practice-assigned" not in _text(
        signed_in_client(class_a.other_student.user, "fr").get(reverse("home"))
    )


def test_the_assignment_page_shows_each_student(class_a: ClassWorld) -> None:
    assignment = assign(class_a.teacher, class_a.classroom, games=1)
    play_one_game(class_a.student.student, assignment)
    url = reverse("practice_assignment", args=[class_a.classroom.pk, assignment.pk])
    response = signed_in_client(class_a.teacher, "en").get(url)
    lines = {line.student: line for line in response.context["progress"]}
    assert lines[class_a.student.student].done and not lines[class_a.other_student.student].done
    text = _text(response)
    assert "1 student of 2 has finished" in text and "Not yet" in text
    assert "Denominators 2, 3 and 6" in text
    fr = _text(signed_in_client(class_a.teacher, "fr").get(url))
    assert "1 élève sur 2 a fini" in fr


def test_the_class_page_links_and_counts(class_a: ClassWorld) -> None:
    assignment = assign(class_a.teacher, class_a.classroom, games=1)
    play_one_game(class_a.student.student, assignment)
    response = signed_in_client(class_a.teacher, "en").get(
        reverse("classroom_detail", args=[class_a.classroom.pk])
    )
    text = response.content.decode()
    assert reverse("practice_assignment_new", args=[class_a.classroom.pk]) in text
    assert reverse("practice_assignment", args=[class_a.classroom.pk, assignment.pk]) in text
    assert "Assigned practice" in text
    assert [s.practice_done.done for s in response.context["students"]] == [1, 0]


def test_the_teacher_withdraws_an_assignment(class_a: ClassWorld) -> None:
    assignment = assign(class_a.teacher, class_a.classroom)
    response = signed_in_client(class_a.teacher, "fr").post(
        reverse("practice_assignment_delete", args=[class_a.classroom.pk, assignment.pk])
    )
    assert response.status_code == 302
    assert not PracticeAssignment.objects.exists()


def _claims(client: Client, url: str, source: str | None) -> int:
    response = client.get(url, {"source": source} if source else {})
    assert response.status_code == 200
    if "report" in response.context:
        return int(response.context["report"].claims)
    return int(response.context["dash"].tiles.claims)


def test_dashboards_show_sessions_practice_or_both(class_a: ClassWorld) -> None:
    from lessons.models import ClassSession

    student = class_a.student.student
    session = ClassSession.objects.create(classroom=class_a.classroom)
    log_plays(student, RIGHT_PLAYS[:3], session=session)
    assignment = assign(class_a.teacher, class_a.classroom, games=1)
    play_one_game(student, assignment)  # one practice play
    client = signed_in_client(class_a.teacher, "en")
    for url in (
        reverse("dashboard_class", args=[class_a.classroom.pk]),
        reverse("dashboard_student", args=[class_a.classroom.pk, student.pk]),
    ):
        assert _claims(client, url, None) == 4
        assert _claims(client, url, "both") == 4
        assert _claims(client, url, "sessions") == 3
        assert _claims(client, url, "practice") == 1
        assert client.get(url, {"source": "everything"}).status_code == 404
        page = _text(client.get(url, {"source": "practice"}))
        assert "Plays shown:" in page and "practice only" in page
    student_page = _text(
        client.get(reverse("dashboard_student", args=[class_a.classroom.pk, student.pk]))
    )
    assert "(practice)" in student_page
