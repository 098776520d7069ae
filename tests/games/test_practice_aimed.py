"""The practice page deals an aimed table to a student whose diagnosis suspects a misconception
(its options come from the table host, games.host), an ordinary one to anyone else, and no view of
the table ever shows the aim."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from games import driver, hooks, host
from games.engine import Game
from games.models import Table
from games.players import table_info
from games.protocol import state_frame
from lessons.aiming import rules as aiming
from lessons.diagnosis.decks import aim_pairs
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_plays
from tests.support.factories import signed_in_client
from tests.support.responses import without_tokens

AIMED_EN = "This game helps you practise a tricky kind of card."
AIMED_FR = "Cette partie t’aide à t’entraîner sur un type de carte piège."


@pytest.fixture(autouse=True)
def _slow_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 60  # nothing moves by itself during these tests
    yield
    driver.cancel_all()


def _practice(client: Client, **fields: Any) -> Any:
    data = {"ruleset": "fractions", "bots": 2, "bot": "heuristic", **fields}
    return client.post(reverse("games:practice"), data, follow=True)


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "told"), [("fr", AIMED_FR), ("en", AIMED_EN)])
def test_a_student_likely_on_m1_gets_a_table_aimed_at_m1(
    class_a: Any, language: str, told: str
) -> None:
    log_plays(class_a.student.student, M1_PLAYS + RIGHT_PLAYS)
    assert aiming.student_result(class_a.student.student)["M1"]["status"] == "likely"
    response = _practice(signed_in_client(class_a.student.user, language))
    assert response.status_code == 200
    table = Table.objects.get()
    # The form's deck (the full one, left out of the options) and the aim at M1, seat 0.
    assert table.options == {"aim_pairs": aim_pairs("M1", "full"), "aim_seat": 0}
    assert table.seats.get(index=0).user_id == class_a.student.user.pk
    game = Game.from_dict(table.state)
    assert game.opts["aim_pairs"] == aim_pairs("M1", "full")
    text = without_tokens(response.content.decode())
    assert told in text
    # Never a misconception's code or name, never the pairs.
    assert "M1" not in text and "aim_pairs" not in text and "aim_seat" not in text


@pytest.mark.django_db
def test_the_aim_follows_the_chosen_deck_level(class_a: Any) -> None:
    log_plays(class_a.student.student, M1_PLAYS + RIGHT_PLAYS)
    _practice(signed_in_client(class_a.student.user, "fr"), deck="sixths")
    table = Table.objects.get()
    assert table.options == {
        "deck": "sixths",
        "aim_pairs": aim_pairs("M1", "sixths"),
        "aim_seat": 0,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "told"), [("fr", AIMED_FR), ("en", AIMED_EN)])
def test_a_student_with_no_suspected_mistake_gets_an_ordinary_table(
    class_a: Any, language: str, told: str
) -> None:
    log_plays(class_a.student.student, RIGHT_PLAYS * 3)
    response = _practice(signed_in_client(class_a.student.user, language), deck="sixths")
    assert Table.objects.get().options == {"deck": "sixths"}
    assert told not in response.content.decode()


@pytest.mark.django_db
def test_a_teacher_and_classic_uno_get_ordinary_tables(class_a: Any) -> None:
    log_plays(class_a.student.student, M1_PLAYS + RIGHT_PLAYS)
    _practice(signed_in_client(class_a.teacher, "fr"))
    _practice(signed_in_client(class_a.student.user, "fr"), ruleset="classic")
    assert [t.options for t in Table.objects.order_by("pk")] == [{}, {}]


@pytest.mark.django_db
def test_another_students_mistakes_never_aim_my_table(class_a: Any) -> None:
    log_plays(class_a.other_student.student, M1_PLAYS + RIGHT_PLAYS)
    _practice(signed_in_client(class_a.student.user, "fr"))
    assert Table.objects.get().options == {}


@pytest.mark.django_db
def test_a_likely_rule_the_deck_cannot_show_gives_way_to_an_emerging_one(
    class_a: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = {
        "M8": {"status": "likely", "p_value": 0.0001},
        "M3": {"status": "emerging", "p_value": 0.02},
    }
    monkeypatch.setattr(aiming, "student_result", lambda student: result)
    _practice(signed_in_client(class_a.student.user, "fr"), deck="twelfths")
    assert Table.objects.get().options["aim_pairs"] == aim_pairs("M3", "twelfths")
    _practice(signed_in_client(class_a.student.user, "fr"), deck="improper")
    assert Table.objects.order_by("pk").last().options["aim_pairs"] == aim_pairs("M8", "improper")  # type: ignore[union-attr]


@pytest.mark.django_db
def test_the_aimed_table_never_shows_its_aim_to_anyone(class_a: Any) -> None:
    log_plays(class_a.student.student, M1_PLAYS + RIGHT_PLAYS)
    _practice(signed_in_client(class_a.student.user, "fr"))
    table = Table.objects.get()
    game = Game.from_dict(table.state)
    pairs = aim_pairs("M1", "full")
    for seat in (0, 1, 2, None):
        frame = json.dumps(state_frame(game, seat, table.state_id, table_info(table=table)))
        assert "aim_pairs" not in frame and "aim_seat" not in frame
        assert json.dumps(pairs[0]) not in frame
    page = signed_in_client(class_a.student.user, "fr").get(reverse("games:play", args=[table.pk]))
    assert "aim_pairs" not in page.content.decode() and "aim_seat" not in page.content.decode()
    # The student sees their own hand, no one else's, and not the draw pile's order.
    view = state_frame(game, 0, table.state_id, table_info(table=table))["view"]
    assert view["hand"] == game.hands[0]
    assert not {"pile", "hands", "discard"} & set(view)
    assert view["options"] == {k: v for k, v in game.opts.items() if not k.startswith("aim_")}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("asked", "shown"), [("improper", "improper"), ("huge", "full"), ("", "full")]
)
def test_the_deck_level_in_the_address_starts_the_form(
    class_a: Any, asked: str, shown: str
) -> None:
    response = signed_in_client(class_a.student.user, "fr").get(
        reverse("games:practice"), {"deck": asked}
    )
    assert response.status_code == 200
    assert response.context["form"]["deck"].value() == shown


def test_the_practice_options_are_the_hosts_and_none_without_one() -> None:
    class Aiming(host.NullHost):
        def practice_options(self, user: Any, deck_level: str) -> dict[str, Any]:
            return {"aim_seat": 0, "level": deck_level}

    previous = host.registered()
    try:
        host.register(host.NullHost())
        assert hooks.practice_options_for(object(), "full") == {}
        host.register(Aiming())
        assert hooks.practice_options_for(object(), "sixths") == {"aim_seat": 0, "level": "sixths"}
    finally:
        host.register(previous)
