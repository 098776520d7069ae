"""The student's way in: pages are reads, joining and seating happen on sign-in or a POST."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Seat, Table, TableEvent
from games.services import table_finish
from lessons.models import ClassSession, SessionMember, SessionTable, Student
from lessons.sessions.services import SETTLE_SECONDS, session_end, session_join, session_seat_now
from tests.conftest import ClassWorld
from tests.lessons.sessions.helpers import class_of, start
from tests.support.factories import student_client, teacher_client
from tests.support.responses import page_text

pytestmark = pytest.mark.django_db


def _database() -> dict[str, Any]:
    """Return what seating could change: members and their tables, the games and their seats."""
    return {
        "members": sorted(SessionMember.objects.values_list("id", "table_id", "joined_at")),
        "session_tables": sorted(SessionTable.objects.values_list("id", "table_id", "number")),
        "tables": sorted(Table.objects.values_list("id", "status", "state_id", "deadline")),
        "seats": sorted(Seat.objects.values_list("id", "user_id", "bot", "name", "bot_takeover")),
        "events": TableEvent.objects.count(),
        "sessions": sorted(ClassSession.objects.values_list("id", "status")),
    }


def _settled_waiting_class(class_a: ClassWorld) -> tuple[ClassSession, list[Student]]:
    """Four students joined long enough ago to be dealt (any seating call would seat them);
    a fifth has not joined."""
    classroom, students = class_of(class_a.teacher, 5)
    session = start(class_a.teacher, classroom)
    long_ago = timezone.now() - timedelta(seconds=10 * SETTLE_SECONDS)
    for student in students[:4]:
        session_join(session=session, student=student, now=long_ago)
    assert SessionTable.objects.count() == 0
    return session, students


def test_pages_change_nothing(class_a: ClassWorld) -> None:
    session, students = _settled_waiting_class(class_a)
    waiting, newcomer = student_client(students[0]), student_client(students[4])
    teacher = teacher_client(class_a.teacher)
    before = _database()
    for client, url in [
        (waiting, reverse("home")),
        (waiting, reverse("session_play", args=[session.pk])),
        (newcomer, reverse("home")),
        (newcomer, reverse("session_play", args=[session.pk])),
        (teacher, reverse("session_overview", args=[session.pk])),
        (teacher, reverse("home")),
    ]:
        assert client.get(url).status_code == 200, url
    assert _database() == before


def test_a_student_who_has_not_joined_sees_a_join_button_and_is_not_joined(
    class_a: ClassWorld,
) -> None:
    classroom, (student,) = class_of(class_a.teacher, 1)
    session = start(class_a.teacher, classroom)
    client = student_client(student)
    for language, label in [
        ("fr", "Rejoindre la partie de la classe"),
        ("en", "Join the class game"),
    ]:
        client.cookies["django_language"] = language
        for url in (reverse("home"), reverse("session_play", args=[session.pk])):
            text = page_text(client.get(url))
            assert label in text
            assert (
                f'<form method="post" action="{reverse("session_join", args=[session.pk])}">'
                in text
            )
            assert 'type="submit"' in text and "csrfmiddlewaretoken" in text
    assert SessionMember.objects.count() == 0


def test_the_join_post_seats_the_settled_class(class_a: ClassWorld) -> None:
    session, students = _settled_waiting_class(class_a)
    client = student_client(students[0])
    response = client.post(reverse("session_join", args=[session.pk]), follow=True)
    (table,) = SessionTable.objects.all()
    assert response.redirect_chain == [
        (reverse("session_play", args=[session.pk]), 302),
        (reverse("games:play", args=[table.table_id]), 302),
    ]
    assert SessionMember.objects.filter(table=table).count() == 4
    assert not SessionMember.objects.filter(student=students[4]).exists()


def test_a_post_too_early_joins_and_waits(class_a: ClassWorld) -> None:
    classroom, students = class_of(class_a.teacher, 2)
    session = start(class_a.teacher, classroom)
    client = student_client(students[0])
    response = client.post(reverse("session_join", args=[session.pk]), follow=True)
    assert response.redirect_chain == [(reverse("session_play", args=[session.pk]), 302)]
    assert 'id="waiting-check"' in page_text(response)
    assert SessionMember.objects.get().table is None  # a lone student waits for company
    client.post(reverse("session_join", args=[session.pk]))  # asking again joins once
    assert SessionMember.objects.count() == 1


def test_a_finished_game_shows_the_waiting_page_and_its_post_starts_a_new_one(
    class_a: ClassWorld,
) -> None:
    classroom, students = class_of(class_a.teacher, 2)
    session = start(class_a.teacher, classroom)
    for student in students:
        session_join(session=session, student=student)
    (old,) = session_seat_now(session=session, teacher=class_a.teacher)
    table_finish(table_id=old.table_id)
    client = student_client(students[0])
    before = _database()
    waiting = client.get(reverse("session_play", args=[session.pk]))
    assert waiting.status_code == 200 and 'id="waiting-check"' in page_text(waiting)
    assert _database() == before  # the page did not start the new game
    response = client.post(reverse("session_join", args=[session.pk]))
    new = SessionTable.objects.get(number=1, game=2)  # the same table's next game
    assert client.get(response["Location"])["Location"] == reverse(
        "games:play", args=[new.table_id]
    )


def test_joining_an_ended_session_is_refused_and_changes_nothing(class_a: ClassWorld) -> None:
    classroom, (student,) = class_of(class_a.teacher, 1)
    session = start(class_a.teacher, classroom)
    session_end(session=session, teacher=class_a.teacher)
    client = student_client(student)
    client.cookies["django_language"] = "en"
    response = client.post(reverse("session_join", args=[session.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "This session has ended." in page_text(response)
    assert SessionMember.objects.count() == 0


@pytest.mark.parametrize(
    ("who", "method", "session_of", "status"),
    [
        ("student_b", "post", "a", 404),  # another class's session
        ("student_a", "post", "missing", 404),
        ("student_a", "get", "a", 405),
        ("student_a", "put", "a", 405),
        ("teacher_a", "post", "a", 403),
    ],
)
def test_bad_join_requests_are_refused_and_change_nothing(
    class_a: ClassWorld, class_b: ClassWorld, who: str, method: str, session_of: str, status: int
) -> None:
    session = start(class_a.teacher, class_a.classroom)
    session_id = session.pk + 100 if session_of == "missing" else session.pk
    client = Client()
    client.force_login(
        {
            "student_a": class_a.student.user,
            "student_b": class_b.student.user,
            "teacher_a": class_a.teacher,
        }[who]
    )
    before = _database()
    response = getattr(client, method)(reverse("session_join", args=[session_id]))
    assert response.status_code == status
    assert _database() == before


def test_join_needs_the_csrf_token(class_a: ClassWorld) -> None:
    session = start(class_a.teacher, class_a.classroom)
    client = Client(enforce_csrf_checks=True)
    client.force_login(class_a.student.user)
    assert client.post(reverse("session_join", args=[session.pk])).status_code == 403
    assert SessionMember.objects.count() == 0
    page = client.get(reverse("home"))
    token = page.cookies["csrftoken"].value
    response = client.post(
        reverse("session_join", args=[session.pk]), {"csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    assert SessionMember.objects.count() == 1
