"""Deck levels chosen for a practice table and a class session; a practice aimed by the diagnosis
is an ordinary table to the page (the aim never reaches the student's view)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from pytest_django.fixtures import Settings

from games import driver
from games.engine import Game
from games.engine.cards import FRACTION_DECKS
from games.forms import PracticeForm
from games.models import Table
from games.services import SeatSpec, table_create
from lessons.diagnosis.decks import practice_options
from lessons.sessions.forms import SessionStartForm
from lessons.sessions.services import session_start
from tests.support.factories import signed_in_client


@pytest.fixture(autouse=True)
def _slow_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 60  # nothing moves by itself during these tests
    yield
    driver.cancel_all()


def _practice(user: Any, **fields: Any) -> Any:
    data = {"ruleset": "fractions", "bots": 2, "bot": "heuristic", **fields}
    return signed_in_client(user).post(reverse("games:practice"), data)


@pytest.mark.django_db
@pytest.mark.parametrize("level", ["sixths", "twelfths", "improper"])
def test_a_practice_table_deals_the_chosen_deck(class_a: Any, level: str) -> None:
    response = _practice(class_a.student.user, deck=level)
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.options == {"deck": level}
    game = Game.from_dict(table.state)
    every = [c for h in game.hands for c in h] + game.pile + game.discard
    assert sorted(every) == sorted(FRACTION_DECKS[level])
    page = signed_in_client(class_a.student.user).get(response["Location"]).content.decode()
    names = json.loads(re.search(r'id="card-names"[^>]*>(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
    assert set(names) == set(FRACTION_DECKS[level])  # every card of that deck has its name


@pytest.mark.django_db
def test_the_full_deck_is_the_default_and_stays_out_of_the_options(class_a: Any) -> None:
    assert _practice(class_a.student.user).status_code == 302
    assert _practice(class_a.student.user, deck="full").status_code == 302
    assert [t.options for t in Table.objects.all()] == [{}, {}]


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["huge", "48", "FULL", "sixths "])
def test_an_unknown_deck_is_a_form_error_and_no_table(class_a: Any, bad: str) -> None:
    response = _practice(class_a.student.user, deck=bad)
    assert response.status_code == 200
    assert "deck" in response.context["form"].errors
    assert not Table.objects.exists()


def test_the_deck_matters_to_fractions_only() -> None:
    form = PracticeForm({"ruleset": "classic", "bots": 2, "bot": "heuristic", "deck": "sixths"})
    assert form.is_valid()
    assert form.engine_options() == {}


@pytest.mark.django_db
def test_a_session_keeps_its_deck_level(class_a: Any) -> None:
    form = SessionStartForm(
        {"ruleset": "fractions", "table_size": 4, "turn_timer": 0, "deck": "improper"}
    )
    assert form.is_valid(), form.errors
    assert form.options() == {"deck": "improper"}
    session = session_start(
        teacher=class_a.teacher, classroom=class_a.classroom, options=form.options()
    )
    assert session.options == {"deck": "improper"}
    bad = SessionStartForm({"ruleset": "fractions", "table_size": 4, "turn_timer": 0, "deck": "x"})
    assert not bad.is_valid() and "deck" in bad.errors
    with pytest.raises(ValidationError):
        session_start(
            teacher=class_a.teacher, classroom=class_a.classroom, options={"deck": "huge"}
        )


@pytest.mark.django_db
def test_an_aimed_practice_table_never_shows_its_aim(class_a: Any) -> None:
    result = {"M1": {"status": "likely", "p_value": 0.001}}
    options = practice_options(result, "full")
    assert options["aim_pairs"]
    table = table_create(
        ruleset="fractions",
        seats=[
            SeatSpec(name="Anaïs", user_id=class_a.student.user.pk),
            SeatSpec(name="Bot 1", bot="heuristic"),
        ],
        options=options,
        seed=7,
    )
    game = Game.from_dict(table.state)
    assert game.opts["aim_pairs"] == options["aim_pairs"]
    page = (
        signed_in_client(class_a.student.user).get(reverse("games:play", args=[table.pk])).content
    )
    text = page.decode()
    assert "aim_pairs" not in text and "aim_seat" not in text
