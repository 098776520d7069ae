"""French on every page: names in the language's order, plural forms, one robot name (issue 11.13).

Names are added in a scrambled order with accents that Python's code-point order gets wrong
(Éloïse and émile after Zoé, Léa and Léo after Lucas); every page that lists students must show
them as a French reader expects.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from lessons.classrooms.roster_csv import roster_preview
from lessons.models import Classroom, ClassSession, Student
from lessons.sessions import services as class_sessions
from tests.games.helpers import make_table
from tests.lessons.reporting.helpers import RIGHT_PLAYS, log_attempt, log_miss, log_plays
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


# Plural forms: 1 and 2 of everything a dashboard counts, in French and in English.

TILE = re.compile(r'tile__value">([^<]*)</span><span class="tile__label">([^<]*)<')
PLURALS: dict[str, dict[int, dict[str, Any]]] = {
    "fr": {
        1: {
            "class": {("1", "élève actif"), ("1", "séance"), ("1", "annonce de fraction")},
            "student": {
                ("1", "annonce dans la fenêtre"),
                ("1", "partie"),
                ("1", "égalité manquée"),
            },
            "session": ["1 annonce, ", "1 occurrence, 1 élève<"],
        },
        2: {
            "class": {("2", "élèves actifs"), ("2", "séances"), ("4", "annonces de fractions")},
            "student": {
                ("2", "annonces dans la fenêtre"),
                ("2", "parties"),
                ("2", "égalités manquées"),
            },
            "session": ["2 annonces, ", "2 occurrences, 2 élèves<"],
        },
    },
    "en": {
        1: {
            "class": {("1", "active student"), ("1", "session"), ("1", "fraction claim")},
            "student": {
                ("1", "claim in the window"),
                ("1", "game"),
                ("1", "missed equivalence"),
            },
            "session": ["1 claim, ", "1 event, 1 student<"],
        },
        2: {
            "class": {("2", "active students"), ("2", "sessions"), ("4", "fraction claims")},
            "student": {
                ("2", "claims in the window"),
                ("2", "games"),
                ("2", "missed equivalences"),
            },
            "session": ["2 claims, ", "2 events, 2 students<"],
        },
    },
}


def _class_played(count: int) -> tuple[Client, Classroom, list[Student], list[ClassSession]]:
    """`count` students, `count` ended sessions; each student makes one M1 play per session."""
    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher)
    names = [f"Élève {i}" for i in range(count)]
    students = [login.student for login in make_students(classroom=classroom, names=names)]
    sessions = []
    for index in range(count):
        session = ClassSession.objects.create(
            classroom=classroom,
            started_at=timezone.now() - timedelta(hours=count - index),
            status=ClassSession.Status.ENDED,
        )
        table = make_table([s.user for s in students] + [None] * (2 - count))
        for student in students:
            log_attempt(
                student,
                (1, 2),
                (2, 3),
                session=session,
                table=table,
                at=session.started_at + timedelta(minutes=1),
            )
            log_miss(student, "1/2", ["2/4"], session=session)
        sessions.append(session)
    return teacher_client(teacher), classroom, students, sessions


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("count", [1, 2])
def test_dashboards_use_plural_forms(language: str, count: int) -> None:
    client, classroom, students, sessions = _class_played(count)
    client.cookies["django_language"] = language
    expected = PLURALS[language][count]
    html = _get(client, "dashboard_class", classroom_id=classroom.pk)
    assert expected["class"] <= set(TILE.findall(html))
    html = _get(client, "dashboard_student", classroom_id=classroom.pk, student_id=students[0].pk)
    assert expected["student"] <= set(TILE.findall(html))
    html = _get(client, "dashboard_session", classroom_id=classroom.pk, session_id=sessions[0].pk)
    for text in expected["session"]:
        assert text in html, text


@pytest.mark.parametrize(
    ("language", "penalty", "text"),
    [
        ("fr", 1, "une fraction fausse coûte 1 carte\n"),
        ("fr", 2, "une fraction fausse coûte 2 cartes\n"),
        ("en", 1, "a wrong fraction costs 1 card\n"),
        ("en", 2, "a wrong fraction costs 2 cards\n"),
    ],
)
def test_the_session_page_counts_penalty_cards_in_the_right_form(
    language: str, penalty: int, text: str
) -> None:
    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher)
    session = class_sessions.session_start(
        teacher=teacher, classroom=classroom, options={"wrong_attempt_penalty": penalty}
    )
    client = teacher_client(teacher)
    client.cookies["django_language"] = language
    assert text in _get(client, "session_overview", session_id=session.pk)


# The ended overview says so (not "Live").


@pytest.mark.parametrize(
    ("language", "live", "ended"),
    [
        ("fr", "Séance de classe en direct", "Séance de classe terminée"),
        ("en", "Live class session", "Ended class session"),
    ],
)
def test_the_overview_of_an_ended_session_says_ended(language: str, live: str, ended: str) -> None:
    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher)
    session = class_sessions.session_start(teacher=teacher, classroom=classroom)
    client = teacher_client(teacher)
    client.cookies["django_language"] = language
    html = _get(client, "session_overview", session_id=session.pk)
    assert f"<h1>{live}</h1>" in html and 'id="overview-connection"' in html
    class_sessions.session_end(session=session, teacher=teacher)
    html = _get(client, "session_overview", session_id=session.pk)
    assert f"<h1>{ended}</h1>" in html and f"<title>{ended}" in html
    assert live not in html
    # Nothing says the page is live, and the script does not follow the session any more.
    assert 'id="overview-connection"' not in html and "data-ended" in html
    assert '<meta http-equiv="refresh"' not in html


# One play time, one format, on the session dashboard and on the student page.


@pytest.mark.parametrize(
    ("seconds", "shown"), [(0, "1 min"), (20, "1 min"), (90, "3 min"), (150, "4 min")]
)
def test_session_dashboard_and_student_page_show_the_same_play_time(
    seconds: int, shown: str
) -> None:
    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher)
    (login,) = make_students(classroom=classroom, names=["Léa"])
    start = timezone.now() - timedelta(hours=1)
    session = ClassSession.objects.create(
        classroom=classroom, started_at=start, status=ClassSession.Status.ENDED
    )
    log_attempt(login.student, (1, 2), (3, 6), session=session, at=start)
    if seconds:
        log_attempt(
            login.student, (1, 2), (2, 4), session=session, at=start + timedelta(seconds=seconds)
        )
    client = teacher_client(teacher)
    client.cookies["django_language"] = "fr"
    session_page = _get(
        client, "dashboard_session", classroom_id=classroom.pk, session_id=session.pk
    )
    student_page = _get(
        client, "dashboard_student", classroom_id=classroom.pk, student_id=login.student.pk
    )
    cell = f'<td class="num">{shown}</td>'
    assert cell in session_page
    assert cell in student_page  # the student's row for that session
    assert f'tile__value">{shown}<' in student_page  # the total, one session
    assert "Temps de jeu" in session_page and "Temps de jeu" in student_page
