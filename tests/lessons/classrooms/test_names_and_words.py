"""French on every page: names in the language's order, plural forms, one robot name (issue 11.13).

Names are added in a scrambled order with accents that Python's code-point order gets wrong
(Éloïse and émile after Zoé, Léa and Léo after Lucas); every page that lists students must show
them as a French reader expects.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from lessons.classrooms.roster_csv import roster_preview
from lessons.models import Classroom, ClassSession, Student
from lessons.sessions import services as class_sessions
from tests.lessons.reporting.helpers import RIGHT_PLAYS, log_plays
from tests.support.factories import make_classroom, make_students, make_teacher, teacher_client

pytestmark = pytest.mark.django_db

EXPECTED = ["Éloïse", "émile", "Léa", "Léo", "Lucas", "Zoé"]
SCRAMBLED = ["Zoé", "Lucas", "Léo", "émile", "Éloïse", "Léa"]


def _order_on_page(html: str, names: list[str]) -> list[str]:
    """Return the names in the order their first appearance on the page."""
    where = {name: html.find(f">{name}<") for name in names}
    missing = [name for name, at in where.items() if at < 0]
    assert not missing, f"not on the page: {missing}"
    return sorted(names, key=where.__getitem__)


@pytest.fixture
def named_class() -> tuple[Classroom, list[Student], Client]:
    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher)
    students = [login.student for login in make_students(classroom=classroom, names=SCRAMBLED)]
    return classroom, students, teacher_client(teacher)


def _get(client: Client, name: str, **kwargs: object) -> str:
    response = client.get(reverse(name, kwargs=kwargs), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    return response.content.decode()


def test_class_page_cards_and_join_list_sort_names_in_french(
    named_class: tuple[Classroom, list[Student], Client],
) -> None:
    classroom, _students, client = named_class
    for page in ("classroom_detail", "classroom_cards"):
        html = _get(client, page, classroom_id=classroom.pk)
        assert _order_on_page(html.replace("\n", "<"), EXPECTED) == EXPECTED, page
    html = _get(Client(), "join_name", code=classroom.join_code)
    assert _order_on_page(html.replace("\n", "<"), EXPECTED) == EXPECTED


def test_dashboards_and_session_overview_sort_names_in_french(
    named_class: tuple[Classroom, list[Student], Client],
) -> None:
    classroom, students, client = named_class
    session = class_sessions.session_start(teacher=classroom.teacher, classroom=classroom)
    for student in students:
        class_sessions.session_join(session=session, student=student)
        log_plays(student, RIGHT_PLAYS, session=session)
    html = _get(client, "session_overview", session_id=session.pk)
    assert _order_on_page(html.replace("\n", "<"), EXPECTED) == EXPECTED
    ClassSession.objects.filter(pk=session.pk).update(status=ClassSession.Status.ENDED)
    for page, kwargs in (
        ("dashboard_class", {"classroom_id": classroom.pk}),
        ("dashboard_session", {"classroom_id": classroom.pk, "session_id": session.pk}),
    ):
        html = _get(client, page, **kwargs)
        assert _order_on_page(html.replace("\n", "<"), EXPECTED) == EXPECTED, page


def test_roster_file_preview_sorts_the_class_names_in_french(
    named_class: tuple[Classroom, list[Student], Client],
) -> None:
    classroom, _students, _client = named_class
    preview = roster_preview(classroom=classroom, names=["Léa", "Zoé", "Éloïse", "Ana"])
    assert preview.unchanged == ["Éloïse", "Léa", "Zoé"]
    assert preview.missing == ["émile", "Léo", "Lucas"]
    assert preview.new == ["Ana"]
