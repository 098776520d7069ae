"""One robot name everywhere (issue 11.13): "Robot 1" in practice and in class, "(robot)" only
where a robot plays a student's seat."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Seat, Table
from games.services import seat_give_to_bot, seat_set_takeover
from lessons.models import SessionTable
from lessons.sessions import services as class_sessions
from tests.lessons.sessions.helpers import at, start
from tests.support.factories import (
    make_classroom,
    make_students,
    make_teacher,
    student_client,
    teacher_client,
)

pytestmark = pytest.mark.django_db


def _seat_lines(html: str) -> list[str]:
    """Return the overview's seat lines as text (name, the robot mark, cards)."""
    block = html.split('class="overview-seats"', 1)[1].split("</ol>", 1)[0]
    items = re.findall(r"<li[^>]*>(.*?)</li>", block, re.S)
    return [" ".join(re.sub(r"<[^>]+>|\{#.*?#\}", " ", item).split()) for item in items]


def test_practice_robots_are_named_robot_n() -> None:
    classroom = make_classroom()
    (login,) = make_students(classroom=classroom, names=["Léa"])
    client = student_client(login.student)
    response = client.post(
        reverse("games:practice"), {"ruleset": "fractions", "bots": 2, "bot": "heuristic"}
    )
    assert response.status_code == 302
    table = Table.objects.get()
    names = list(table.seats.order_by("index").values_list("name", flat=True))
    assert names == ["Léa", "Robot 1", "Robot 2"]


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_class_robot_is_robot_n_and_robot_marks_only_a_students_seat(language: str) -> None:
    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher)
    (login,) = make_students(classroom=classroom, names=["Léa"])
    session = start(teacher, classroom, table_size=3)
    class_sessions.session_join(session=session, student=login.student, now=at(0))
    # A lone student waits for a partner, then plays with robots.
    class_sessions.session_seat_due(session=session, now=at(61))
    seated = SessionTable.objects.get(session=session)
    names = list(seated.table.seats.order_by("index").values_list("name", flat=True))
    assert names == ["Léa", "Robot 1", "Robot 2"]
    client: Client = teacher_client(teacher)
    client.cookies["django_language"] = language
    url = reverse("session_overview", kwargs={"session_id": session.pk})
    lines = _seat_lines(client.get(url).content.decode())
    assert [line.split(" ·")[0] for line in lines] == ["Léa", "Robot 1", "Robot 2"]
    # A robot playing the student's seat while she is away: her seat says "(robot)".
    seat_set_takeover(table_id=seated.table_id, seat_index=0, by_bot=True)
    lines = _seat_lines(client.get(url).content.decode())
    assert [line.split(" ·")[0] for line in lines] == ["Léa (robot)", "Robot 1", "Robot 2"]


def test_a_seat_given_to_a_robot_takes_the_first_free_robot_number() -> None:
    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher)
    (login,) = make_students(classroom=classroom, names=["Léa"])
    session = start(teacher, classroom, table_size=3)
    class_sessions.session_join(session=session, student=login.student, now=at(0))
    class_sessions.session_seat_due(session=session, now=at(61))
    seated = SessionTable.objects.get(session=session)
    seat_give_to_bot(table_id=seated.table_id, user_id=login.student.user_id)
    seat = Seat.objects.get(table=seated.table, index=0)
    assert seat.name == "Robot 3"
