"""The overview's one move form: outside the live part (its CSRF token holds), every pupil and
table in it, a "Move <name>" button per row, and bad input refused with a clear error."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import Seat
from lessons.models import ClassSession, SessionMember
from lessons.sessions.overview import session_overview
from lessons.sessions.present import overview_html
from lessons.sessions.services import session_end, session_join, session_seat_now
from tests.lessons.sessions.helpers import class_of, start
from tests.support.factories import teacher_client
from tests.support.responses import page_text

pytestmark = pytest.mark.django_db

MOVE_FORM = re.compile(r'<form method="post" action="([^"]*/move/)"[^>]*>(.*?)</form>', re.S)
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _seated(class_a: Any, count: int = 5) -> tuple[ClassSession, list[Any]]:
    """Open a session of `count` pupils seated at their tables (5: a table of 3 and one of 2)."""
    classroom, students = class_of(class_a.teacher, count)
    session = start(class_a.teacher, classroom)
    for student in students:
        session_join(session=session, student=student)
    session_seat_now(session=session, teacher=class_a.teacher)
    return session, students


def _english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


class _Ancestors(HTMLParser):
    """Record the ids (or tag names) of the elements around the element of a given id."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted = wanted
        self.stack: list[str] = []
        self.found: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        ids = dict(attrs).get("id")
        if ids == self.wanted and self.found is None:
            self.found = list(self.stack)
        if tag not in self.VOID:
            self.stack.append(ids or tag)

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.stack:
            self.stack.pop()


def _ancestors(page: str, element_id: str) -> list[str]:
    parser = _Ancestors(element_id)
    parser.feed(page)
    assert parser.found is not None, element_id
    return list(parser.found)


def _options(select: str, form: str) -> list[tuple[str, str]]:
    found = re.search(rf'<select name="{select}".*?</select>', form, re.S)
    assert found is not None
    options = re.findall(r'<option value="([^"]*)"[^>]*>(.*?)</option>', found.group(0), re.S)
    return [(value, html.unescape(text).strip()) for value, text in options]


def test_the_live_part_has_no_form_and_the_page_has_one_move_form(class_a: Any) -> None:
    session, students = _seated(class_a)
    overview = session_overview(session=session)
    with translation.override("en"):
        sent = overview_html(overview)
    # Rendered without a request, a form in the frame would carry an empty CSRF token.
    assert "<form" not in sent and "csrfmiddlewaretoken" not in sent
    for row in overview.students:
        button = f'data-student="{row.student_id}" aria-label="Move {html.escape(row.name)}"'
        assert button in sent
    page = _english(teacher_client(class_a.teacher)).get(
        reverse("session_overview", args=[session.pk])
    )
    text = page.content.decode()
    (found,) = MOVE_FORM.findall(text)
    action, form = found
    assert action == reverse("session_move", args=[session.pk])
    assert TOKEN.search(form) is not None
    # Outside the live part that the frames replace.
    assert "overview-live" not in _ancestors(text, "move-form")
    assert "overview-live" in _ancestors(text, "students-title")  # the parser sees the box
    pupils = _options("student", form)
    assert pupils[0] == ("", "Choose a student")
    members = SessionMember.objects.select_related("table")
    places = {m.student_id: m.table.number for m in members if m.table is not None}
    assert len(places) == len(members)
    assert sorted(pupils[1:]) == sorted(
        (str(s.pk), f"{s.display_name}, table {places[s.pk]}") for s in students
    )
    assert _options("table", form) == [("", "the waiting list"), ("1", "Table 1"), ("2", "Table 2")]


def test_a_waiting_pupil_is_said_waiting_and_an_empty_session_hides_the_form(
    class_a: Any,
) -> None:
    classroom, students = class_of(class_a.teacher, 1)
    session = start(class_a.teacher, classroom)
    client = _english(teacher_client(class_a.teacher))
    url = reverse("session_overview", args=[session.pk])
    assert re.search(r'<section id="move"[^>]*\shidden', client.get(url).content.decode())
    session_join(session=session, student=students[0])
    text = client.get(url).content.decode()
    assert not re.search(r'<section id="move"[^>]*\shidden', text)
    (found,) = MOVE_FORM.findall(text)
    assert _options("student", found[1])[1] == (
        str(students[0].pk),
        f"{students[0].display_name}, waiting",
    )


def test_an_ended_session_has_no_move_control(class_a: Any) -> None:
    session, _ = _seated(class_a)
    session_end(session=session, teacher=class_a.teacher)
    text = teacher_client(class_a.teacher).get(reverse("session_overview", args=[session.pk]))
    assert "/move/" not in text.content.decode() and "data-student=" not in text.content.decode()


def test_the_pages_token_moves_a_pupil_with_csrf_checks_on(class_a: Any) -> None:
    session, students = _seated(class_a)
    client = Client(enforce_csrf_checks=True)
    client.force_login(class_a.teacher)
    page = client.get(reverse("session_overview", args=[session.pk])).content.decode()
    token = TOKEN.search(MOVE_FORM.findall(page)[0][1])
    assert token is not None
    url = reverse("session_move", args=[session.pk])
    data = {"student": students[0].pk, "table": ""}
    assert client.post(url, data).status_code == 403  # the check is on
    moved = client.post(url, {**data, "csrfmiddlewaretoken": token.group(1)})
    assert moved.status_code == 302
    assert SessionMember.objects.get(student=students[0]).table is None


def _state(session: ClassSession) -> tuple[list[Any], list[Any]]:
    members = SessionMember.objects.filter(session=session).order_by("student_id")
    seats = Seat.objects.filter(table__lesson_table__session=session).order_by("table", "index")
    return (
        list(members.values_list("student_id", "table_id")),
        list(seats.values_list("table_id", "index", "user_id", "name", "bot")),
    )


@pytest.mark.parametrize(
    ("student", "table", "english"),
    [
        ("unknown", "", "This student has not joined the session."),
        ("other_class", "", "This student has not joined the session."),
        ("not joined", "2", "This student has not joined the session."),
        ("x", "1", "Choose a student and a table."),
        ("", "1", "Choose a student and a table."),
        ("-3", "1", "Choose a student and a table."),
        ("seated", "abc", "Choose a student and a table."),
        ("seated", "0", "Choose a student and a table."),
        ("seated", "99", "This session has no such table."),
        ("seated", "1", "The student already sits at this table."),
        ("seated", "2", "This table has no robot seat a student could take."),
    ],
)
def test_bad_moves_say_why_and_change_nothing(
    class_a: Any, class_b: Any, student: str, table: str, english: str
) -> None:
    session, students = _seated(class_a)
    seated = SessionMember.objects.filter(session=session, table__number=1).first()
    assert seated is not None
    value = {
        "unknown": "999999",
        "other_class": str(class_b.student.student.pk),
        "not joined": str(class_a.student.student.pk),
        "seated": str(seated.student_id),
    }.get(student, student)
    before = _state(session)
    client = _english(teacher_client(class_a.teacher))
    url = reverse("session_move", args=[session.pk])
    response = client.post(url, {"student": value, "table": table}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("session_overview", args=[session.pk])
    assert english in page_text(response)
    assert "The student has moved." not in page_text(response)
    assert _state(session) == before


def test_a_bad_move_is_said_in_french(class_a: Any) -> None:
    session, _ = _seated(class_a)
    client = teacher_client(class_a.teacher)
    client.cookies["django_language"] = "fr"
    url = reverse("session_move", args=[session.pk])
    response = client.post(url, {"student": "999999", "table": "99"}, follow=True)
    assert "Cet élève n’a pas rejoint la séance." in page_text(response)
