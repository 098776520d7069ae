"""The new session form: the deck follows the class's grade, the options follow the game."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from lessons.classrooms.grade_decks import deck_for_grade
from tests.conftest import ClassWorld
from tests.support.factories import teacher_client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("grade", "deck"),
    [
        ("CM1", "sixths"),
        ("cm1 ", "sixths"),
        ("CE2", "sixths"),
        ("CM1-CM2", "sixths"),
        ("CM2", "twelfths"),
        ("6e", "full"),
        ("6ème", "full"),
        ("Year 5", "sixths"),
        ("Year 6", "twelfths"),
        ("Grade 4", "sixths"),
        ("Year 8", "full"),
        ("", "full"),
        ("Les Tilleuls", "full"),
    ],
)
def test_deck_for_grade(grade: str, deck: str) -> None:
    assert deck_for_grade(grade) == deck


def _selected_deck(html: str) -> str:
    select = re.search(r'<select name="deck".*?</select>', html, re.S)
    assert select is not None
    chosen = re.search(r'<option value="(\w+)" selected>', select.group(0))
    assert chosen is not None
    return chosen.group(1)


@pytest.mark.parametrize(("grade", "deck"), [("CM1", "sixths"), ("CM2", "twelfths"), ("", "full")])
def test_a_cm1_class_starts_on_its_own_deck(class_a: ClassWorld, grade: str, deck: str) -> None:
    class_a.classroom.grade = grade
    class_a.classroom.save(update_fields=["grade"])
    html = (
        teacher_client(class_a.teacher)
        .get(reverse("session_new", args=[class_a.classroom.pk]))
        .content.decode()
    )
    assert _selected_deck(html) == deck


def test_each_game_has_its_own_options_group(class_a: ClassWorld) -> None:
    html = (
        teacher_client(class_a.teacher)
        .get(reverse("session_new", args=[class_a.classroom.pk]))
        .content.decode()
    )
    fractions = html.index('data-for-ruleset="fractions"')
    classic = html.index('data-for-ruleset="classic"')
    assert fractions < html.index('name="deck"') < classic < html.index('name="stacking"')
    assert html.index('name="ruleset"') < fractions  # the common fields come first
    assert "session_form.js" in html
