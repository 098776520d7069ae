"""The worked example after a wrong fraction play: only at a practice table, only the own hand.

Seat 1 (pair[1]) plays first on 1/3 (FRACTIONS_SETUP) and holds 4/12j, 2/3r, 10/12v, 1/6b;
seat 0 holds 2/6r, also equal to 1/3, which must never reach seat 1's frame.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from pytest_django.fixtures import Settings

from games import driver
from games.engine.explain import worked_example
from games.models import Table
from games.protocol import refusal_example
from lessons.models import User
from tests.games.helpers import FRACTIONS_SETUP, make_table, open_seat, receive_until

WRONG_EQUAL = {"type": "play", "card": "2/3r", "claim": "equal"}
SEAT0_CARDS = ("2/6r", "5/6v", "1/2b")


@pytest.fixture(autouse=True)
def _fast_bots(settings: Settings) -> Iterator[None]:
    settings.GAMES_BOT_DELAY = 0.01
    settings.GAMES_ROUND_PAUSE = 0.01
    yield
    driver.cancel_all()


async def _refusal(table: Table, user: Any, action: dict[str, Any], lang: str) -> dict[str, Any]:
    comm = await open_seat(table.pk, user, lang)
    try:
        await comm.send_to(
            text_data=json.dumps({"type": "action", "action": action, "state_id": 0})
        )
        error = await receive_until(comm, "error")
        if error["code"] == "not_equivalent":
            await receive_until(comm, "state")  # a wrong fraction play: a fresh state follows
    finally:
        await comm.disconnect()
    return error


async def _table(users: list[Any], kind: str) -> Table:
    build = lambda: make_table(users, setup=FRACTIONS_SETUP, kind=kind)  # noqa: E731
    table: Table = await database_sync_to_async(build)()
    return table


@pytest.mark.django_db(transaction=True)
async def test_practice_refusal_carries_the_example_with_the_own_card(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair), Table.Kind.PRACTICE)
    error = await _refusal(table, pair[1], WRONG_EQUAL, "en")
    assert error["code"] == "not_equivalent"
    example = error["example"]
    assert example["reference"] == {"text": "1/3", "num": 1, "den": 3}
    assert example["played"] == {"text": "2/3", "num": 2, "den": 3}
    assert example["equal"] is False
    assert example["sentence"] == "1/3 and 2/3 are not equal: 2/3 is more."
    assert example["own_card"] == {
        "card": "4/12j",
        "text": "4/12",
        "sentence": "Your card 4/12 is equal to 1/3.",
    }
    # The hidden-hand guarantee: no card of seat 0 (2/6r is equal to 1/3 too) reaches seat 1.
    text = json.dumps(example)
    assert "2/6" not in text
    assert not any(card in text for card in SEAT0_CARDS)


@pytest.mark.django_db(transaction=True)
async def test_example_follows_the_socket_language(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), Table.Kind.PRACTICE)
    example = (await _refusal(table, pair[1], WRONG_EQUAL, "fr"))["example"]
    assert example["sentence"] == "1/3 et 2/3 ne sont pas égales : 2/3 est plus grande."
    assert example["own_card"]["sentence"] == "Ta carte 4/12 est égale à 1/3."


@pytest.mark.django_db(transaction=True)
async def test_a_class_session_table_has_no_example(pair: tuple[User, User]) -> None:
    table = await _table(list(pair), Table.Kind.LESSON)
    error = await _refusal(table, pair[1], WRONG_EQUAL, "en")
    assert error["code"] == "not_equivalent"
    assert "example" not in error
    assert error["details"]["explanation"]  # the words of the refusal are unchanged


@pytest.mark.django_db(transaction=True)
async def test_a_refusal_that_is_not_a_wrong_fraction_has_no_example(
    pair: tuple[User, User],
) -> None:
    table = await _table(list(pair), Table.Kind.PRACTICE)
    error = await _refusal(table, pair[0], WRONG_EQUAL, "en")  # not seat 0's turn
    assert error["code"] == "not_your_turn"
    assert "example" not in error


@pytest.mark.django_db
def test_refusal_example_needs_a_reference_and_a_practice_table(pair: tuple[User, User]) -> None:
    table = make_table(list(pair), setup=FRACTIONS_SETUP)
    named = {"reference": None, "denominator": 6, "played": "2/3", "card": "2/3r"}
    assert refusal_example(table.pk, 1, named, "en") is None
    bad = {"reference": "1/x", "played": "2/3", "card": "2/3r"}
    assert refusal_example(table.pk, 1, bad, "en") is None
    assert refusal_example(table.pk + 999, 1, {"reference": "1/3", "card": "2/3r"}, "en") is None
    example = refusal_example(table.pk, 0, {"reference": "1/3", "card": "5/6v"}, "en")
    assert example is not None and example["own_card"]["card"] == "2/6r"  # seat 0's own


def test_a_bit_more_or_less_and_equal_in_both_languages() -> None:
    assert worked_example("1/3", "2/5", [], "en")["sentence"] == (
        "1/3 and 2/5 are not equal: 2/5 is a bit more."
    )
    assert worked_example("1/2", "5/12", [], "en")["sentence"] == (
        "1/2 and 5/12 are not equal: 5/12 is a bit less."
    )
    assert worked_example("5/6", "1/6", [], "fr")["sentence"] == (
        "5/6 et 1/6 ne sont pas égales : 1/6 est plus petite."
    )
    same = worked_example("1/3", "2/6r", ["2/6r"], "en")
    assert same["equal"] is True and same["own_card"] is None  # never the played card itself
    assert same["sentence"] == "1/3 and 2/6 are equal: they are at the same place on the line."


def test_the_own_card_prefers_another_form_then_the_smallest() -> None:
    hand = ["joker", "+04", "8/24b", "1/3r", "2/6v", "5/6j"]
    assert worked_example("1/3", "2/3r", hand, "en")["own_card"]["card"] == "2/6v"
    assert worked_example("1/3", "2/3r", ["1/3r", "5/6j"], "en")["own_card"]["card"] == "1/3r"
    assert worked_example("1/3", "2/3r", ["5/6j", "1/2b"], "en")["own_card"] is None


@pytest.mark.parametrize(
    ("reference", "played", "lang"),
    [("1/3", "2/3", "de"), ("1/0", "2/3", "en"), ("1/3", "x", "fr")],
)
def test_bad_input_raises(reference: str, played: str, lang: str) -> None:
    with pytest.raises(ValueError):
        worked_example(reference, played, [], lang)
