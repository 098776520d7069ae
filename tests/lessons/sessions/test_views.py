"""Session pages: start, overview (no hands), controls, the student's way in, the diagnosis page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.fractions import is_fraction_card
from games.models import Table
from lessons.models import ClassSession, SessionMember
from lessons.sessions.services import session_join, session_seat_now
from tests.conftest import ClassWorld
from tests.lessons.sessions.helpers import class_of, start
from tests.support.factories import student_client, teacher_client
from tests.support.responses import form_errors, page_text

pytestmark = pytest.mark.django_db


def _english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


def test_teacher_starts_a_session_with_its_settings(class_a: ClassWorld) -> None:
    client = _english(teacher_client(class_a.teacher))
    url = reverse("session_new", args=[class_a.classroom.pk])
    assert "Start the session" in page_text(client.get(url))
    response = client.post(
        url,
        {"ruleset": "classic", "table_size": 6, "turn_timer": 20, "stacking": "on"},
    )
    session = ClassSession.objects.get()
    assert response["Location"] == reverse("session_overview", args=[session.pk])
    assert (session.ruleset, session.table_size, session.options) == (
        "classic",
        6,
        {"stacking": True},
    )
    assert session.play_settings == {
        "turn_timer": 20, "accessible": False, "animations": True, "sound": True,
    }  # fmt: skip
    # A second visit shows the session in progress instead of the form.
    assert "already in progress" in page_text(client.get(url))


@pytest.mark.parametrize("ticked", ["on", "nonsense"])
def test_a_teacher_turns_animations_and_sound_off_for_a_session(
    class_a: ClassWorld, ticked: str
) -> None:
    """Issue 30 §2: the session's tables carry the teacher's "animations off" and "no sound"."""
    client = _english(teacher_client(class_a.teacher))
    url = reverse("session_new", args=[class_a.classroom.pk])
    page = page_text(client.get(url))
    assert "Animations off" in page and "No sound at the tables" in page
    # Any value of a ticked box is "on" (a browser sends "on"; a hand-made form anything).
    data = {"ruleset": "fractions", "table_size": 4, "turn_timer": 0}
    client.post(url, data | {"animations_off": ticked, "mute": ticked})
    session = ClassSession.objects.get()
    assert (session.play_settings["animations"], session.play_settings["sound"]) == (False, False)
    session_join(session=session, student=class_a.student.student)
    (seated,) = session_seat_now(session=session, teacher=class_a.teacher)
    settings = seated.table.play_settings
    assert (settings["animations"], settings["sound"]) == (False, False)


@pytest.mark.parametrize(
    ("data", "english"),
    [
        ({"ruleset": "fractions", "table_size": 9, "turn_timer": 0}, "seats 2 to 5 players"),
        ({"ruleset": "chess", "table_size": 4, "turn_timer": 0}, "Select a valid choice"),
    ],
)
def test_bad_settings_show_an_error_and_start_nothing(
    class_a: ClassWorld, data: dict[str, object], english: str
) -> None:
    client = _english(teacher_client(class_a.teacher))
    response = client.post(reverse("session_new", args=[class_a.classroom.pk]), data)
    assert response.status_code == 200
    assert any(english in error for error in form_errors(response))
    assert ClassSession.objects.count() == 0


def test_french_error_on_a_bad_table_size(class_a: ClassWorld) -> None:
    client = teacher_client(class_a.teacher)
    client.cookies["django_language"] = "fr"
    response = client.post(
        reverse("session_new", args=[class_a.classroom.pk]),
        {"ruleset": "fractions", "table_size": 9, "turn_timer": 0},
    )
    assert "Dans ce jeu, une table compte de 2 à 5 joueurs." in form_errors(response)


def test_student_home_offers_to_join_the_open_session(class_a: ClassWorld) -> None:
    client = _english(student_client(class_a.student.student))
    assert "Join the class game" not in page_text(client.get(reverse("home")))
    session = start(class_a.teacher, class_a.classroom)
    text = page_text(client.get(reverse("home")))
    assert "Join the class game" in text
    assert f'action="{reverse("session_join", args=[session.pk])}"' in text
    response = client.post(reverse("session_join", args=[session.pk]))
    assert response["Location"] == reverse("session_play", args=[session.pk])
    assert SessionMember.objects.filter(session=session, student=class_a.student.student).exists()
    assert "Wait for my table" in page_text(client.get(reverse("home")))


def test_student_waits_then_is_sent_to_their_table(class_a: ClassWorld) -> None:
    session = start(class_a.teacher, class_a.classroom)
    session_join(session=session, student=class_a.student.student)
    client = _english(student_client(class_a.student.student))
    url = reverse("session_play", args=[session.pk])
    waiting = client.get(url)
    assert waiting.status_code == 200
    # The page looks again by itself with a GET of itself (a button without JavaScript): it
    # only listens, the server deals (lessons.sessions.services.session_step).
    assert re.search(
        r'<form method="get" action="[^"]+/play/" id="waiting-check"', page_text(waiting)
    )
    assert "fetch(form.action, { credentials" in waiting.content.decode()
    session_join(session=session, student=class_a.other_student.student)
    (table,) = session_seat_now(session=session, teacher=class_a.teacher)
    assert client.get(url)["Location"] == reverse("games:play", args=[table.table_id])


def test_an_ended_session_sends_the_student_home(class_a: ClassWorld) -> None:
    session = start(class_a.teacher, class_a.classroom)
    teacher_client(class_a.teacher).post(reverse("session_end", args=[session.pk]))
    client = student_client(class_a.student.student)
    assert client.get(reverse("session_play", args=[session.pk]))["Location"] == reverse("home")
    assert SessionMember.objects.count() == 0


def test_overview_shows_tables_and_cards_left_but_no_hand(class_a: ClassWorld) -> None:
    classroom, students = class_of(class_a.teacher, 5)
    session = start(class_a.teacher, classroom)
    for student in students:
        session_join(session=session, student=student)
    session_seat_now(session=session, teacher=class_a.teacher)
    client = _english(teacher_client(class_a.teacher))
    text = page_text(client.get(reverse("session_overview", args=[session.pk])))
    assert "Table 1" in text and "Table 2" in text
    assert "7 cards" in text
    for student in students:
        assert student.display_name in text
    for table in Table.objects.all():
        for hand in _hands(table):
            for card in hand:
                if is_fraction_card(card):
                    assert card not in text


def _hands(table: Table) -> list[list[str]]:
    from games.engine import Game

    game = Game.from_dict(table.state)
    return [game.view(seat)["hand"] for seat in range(table.seats.count())]


def test_controls_pause_resume_move_end(class_a: ClassWorld) -> None:
    classroom, students = class_of(class_a.teacher, 3)
    session = start(class_a.teacher, classroom)
    for student in students:
        session_join(session=session, student=student)
    session_seat_now(session=session, teacher=class_a.teacher)
    client = _english(teacher_client(class_a.teacher))
    client.post(reverse("session_pause", args=[session.pk]), {"paused": "on"})
    assert set(Table.objects.values_list("status", flat=True)) == {"paused"}
    client.post(reverse("session_pause", args=[session.pk]))
    assert set(Table.objects.values_list("status", flat=True)) == {"playing"}
    client.post(
        reverse("session_move", args=[session.pk]), {"student": students[0].pk, "table": ""}
    )
    assert SessionMember.objects.get(student=students[0]).table is None
    response = client.post(reverse("session_end", args=[session.pk]), follow=True)
    assert "The session has ended." in page_text(response)
    again = client.post(reverse("session_end", args=[session.pk]), follow=True)
    assert "This session has ended." in page_text(again)
    assert set(Table.objects.values_list("status", flat=True)) == {"finished"}


def test_a_bad_move_shows_an_error(class_a: ClassWorld) -> None:
    session = start(class_a.teacher, class_a.classroom)
    client = _english(teacher_client(class_a.teacher))
    response = client.post(
        reverse("session_move", args=[session.pk]), {"student": "x", "table": "1"}, follow=True
    )
    assert "Choose a student and a table." in page_text(response)
    response = client.post(
        reverse("session_move", args=[session.pk]),
        {"student": class_a.student.student.pk, "table": "1"},
        follow=True,
    )
    assert "This student has not joined the session." in page_text(response)


def test_signing_in_joins_the_open_session(class_a: ClassWorld) -> None:
    session = start(class_a.teacher, class_a.classroom)
    client = Client()
    code, login = class_a.classroom.join_code, class_a.student
    response = client.post(
        reverse("join_pin", args=[code, login.student.pk]), {"pin": login.pin}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "Attendre ma table" in page_text(response)
    assert SessionMember.objects.filter(session=session, student=login.student).exists()


def test_the_ask_why_box_is_ticked_by_default_and_reaches_the_session(class_a: ClassWorld) -> None:
    client = _english(teacher_client(class_a.teacher))
    url = reverse("session_new", args=[class_a.classroom.pk])
    box = re.search(r'<input[^>]*name="ask_reason"[^>]*>', client.get(url).content.decode())
    assert box is not None and "checked" in box.group(0)
    client.post(url, {"ruleset": "fractions", "table_size": 4, "turn_timer": 0, "ask_reason": "on"})
    assert ClassSession.objects.get().play_settings["ask_reason"] == 100
