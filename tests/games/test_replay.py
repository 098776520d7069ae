"""Practice ends with "Play again" (issue 30, section 1, point 7): the same game, anew."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import Table
from games.services import SeatSpec, table_act, table_create
from lessons.models import PracticeTable
from tests.lessons.practice.helpers import assign, play_one_game
from tests.support.factories import signed_in_client

pytestmark = pytest.mark.django_db

# Seat 0 plays first on 1/3 and holds one card: playing it ends the game.
LAST_CARD = {"dealer": 1, "hands": [["2/6j"], ["5/6v", "1/2b", "joker"]], "start": "1/3v"}


def _finished_practice(user: Any) -> Table:
    table = table_create(
        ruleset="fractions",
        seats=[
            SeatSpec(name="Alice", user_id=user.pk),
            SeatSpec(name="Robot 1", bot="student", bot_profile={"M1": 0.5}),
        ],
        options={"deck": "twelfths"},
        table_settings={"ask_reason": 100, "highlight_playable": True},
        setup=LAST_CARD,
        created_by=user,
    )
    table_act(table_id=table.pk, user=user, action={"type": "play", "card": "2/6j"}, state_id=0)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def test_the_end_of_a_practice_game_offers_play_again(class_a: Any) -> None:
    user = class_a.student.user
    old = _finished_practice(user)
    client = signed_in_client(user, "fr")
    page = client.get(reverse("games:play", args=[old.pk])).content.decode()
    again = reverse("games:replay", args=[old.pk])
    assert f'action="{again}" id="play-next-game"' in page
    assert "Rejouer" in page
    response = client.post(again)
    new = Table.objects.exclude(pk=old.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{new.pk}/"
    assert new.status == Table.Status.PLAYING and new.kind == Table.Kind.PRACTICE
    assert new.options["deck"] == "twelfths"
    assert new.play_settings["highlight_playable"] and new.play_settings["ask_reason"] == 100
    seats = list(new.seats.order_by("index").values_list("user_id", "bot", "bot_profile"))
    assert seats == [(user.pk, "", {}), (None, "student", {"M1": 0.5})]


def test_play_again_is_only_for_the_tables_player_and_its_end(class_a: Any) -> None:
    user, other = class_a.student.user, class_a.other_student.user
    old = _finished_practice(user)
    again = reverse("games:replay", args=[old.pk])
    assert signed_in_client(other, "fr").post(again).status_code == 404
    playing = table_create(
        ruleset="fractions",
        seats=[SeatSpec(name="Alice", user_id=user.pk), SeatSpec(name="R", bot="heuristic")],
    )
    response = signed_in_client(user, "fr").post(reverse("games:replay", args=[playing.pk]))
    assert response["Location"] == f"/tables/{playing.pk}/"  # not over: the same table
    assert Table.objects.count() == 2


def test_an_assigned_practice_plays_again_through_its_assignment(class_a: Any) -> None:
    student = class_a.student.student
    assignment = assign(class_a.teacher, class_a.classroom)
    old = play_one_game(student, assignment)
    client = signed_in_client(student.user, "fr")
    page = client.get(reverse("games:play", args=[old.pk])).content.decode()
    way_in = reverse("practice_play", args=[assignment.pk])
    assert f'action="{way_in}" id="play-next-game"' in page
    assert client.post(reverse("games:replay", args=[old.pk])).status_code == 404
    client.post(way_in)
    assert PracticeTable.objects.filter(assignment=assignment, student=student).count() == 2


def test_a_class_session_table_keeps_next_game(class_a: Any) -> None:
    """A lesson table has no "Play again": its next game is the session's."""
    user = class_a.student.user
    table = table_create(
        ruleset="fractions",
        seats=[SeatSpec(name="Alice", user_id=user.pk), SeatSpec(name="R", bot="heuristic")],
        kind=Table.Kind.LESSON,
    )
    page = signed_in_client(user, "fr").get(reverse("games:play", args=[table.pk]))
    assert "Rejouer" not in page.content.decode()
