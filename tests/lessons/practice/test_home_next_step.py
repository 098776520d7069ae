"""The student's home gives one clear next step (issue 21, point 5).

In a class game, the class game comes first with the one big button; a student already at a
table is sent to it in those words; assigned practice is the one practice button (free
practice, which does not count toward it, is a plain link); one word for the teacher; and the
free practice form shows the game, its deck (the class's grade's) and the robots first.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from lessons.sessions.services import session_join, session_seat_now
from tests.conftest import ClassWorld
from tests.lessons.practice.helpers import assign
from tests.lessons.sessions.helpers import start
from tests.support.responses import without_tokens

pytestmark = pytest.mark.django_db


def _home(user: Any, language: str = "fr") -> str:
    client = Client()
    client.cookies["django_language"] = language
    client.force_login(user)
    return without_tokens(client.get(reverse("home")).content.decode())


def _main(html: str) -> str:
    return html[html.index("<main") : html.index("</main>")]


def test_in_a_class_game_the_class_game_is_the_one_big_step(class_a: ClassWorld) -> None:
    session = start(class_a.teacher, class_a.classroom)
    session_join(session=session, student=class_a.student.student)
    session_join(session=session, student=class_a.other_student.student)
    session_seat_now(session=session, teacher=class_a.teacher)
    main = _main(_home(class_a.student.user, "en"))
    assert main.index('id="class-game"') < main.index('id="practice"')
    assert main.count("button--big") == 1
    big = main[main.index("button--big") - 200 : main.index("button--big") + 300]
    assert "Go to my table" in big
    assert "You have joined the class game" not in main
    assert "Join the class session" not in main


def test_assigned_practice_is_the_one_practice_button(class_a: ClassWorld) -> None:
    assign(class_a.teacher, class_a.classroom, games=2)
    main = _main(_home(class_a.student.user, "en"))
    assert main.count("Start practising") == 0
    assert "Play a game" in main
    free = re.search(r'<a href="[^"]*" id="free-practice">([^<]*)</a>', main)
    assert free is not None and "does not count" in free.group(1)


def test_one_word_for_the_teacher_in_french(class_a: ClassWorld) -> None:
    assign(class_a.teacher, class_a.classroom, games=2)
    start(class_a.teacher, class_a.classroom)
    main = _main(_home(class_a.student.user, "fr"))
    assert "maîtresse" not in main and "maître" not in main
    assert re.search(r"[Tt]on enseignant(?!·e)", main) is None
    assert "ton enseignant·e" in main.lower()


def test_the_practice_link_starts_on_the_class_grade_deck(class_a: ClassWorld) -> None:
    class_a.classroom.grade = "CM1"
    class_a.classroom.save(update_fields=["grade"])
    main = _main(_home(class_a.student.user, "en"))
    assert 'href="/practice/?deck=sixths"' in main


def test_the_practice_form_shows_three_choices_first(class_a: ClassWorld) -> None:
    client = Client()
    client.force_login(class_a.student.user)
    html = client.get(reverse("games:practice") + "?deck=sixths").content.decode()
    before, after = _main(html).split('<details class="more-options"', 1)
    shown = re.findall(r'name="(\w+)"', before)
    assert [n for n in shown if n != "csrfmiddlewaretoken"] == ["ruleset", "deck", "bots"]
    assert 'value="sixths" selected' in before
    assert {"stacking", "seven_o", "jump_in", "bot"} <= set(re.findall(r'name="(\w+)"', after))
