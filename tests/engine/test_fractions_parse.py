"""parse_fraction: the one reader of fraction text (card codes, plain fractions, pairs)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.cards import DECKS, FRACTION, KIND, NUM
from games.engine.fractions import format_fraction, parse_fraction


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("3/6r", (3, 6)),
        ("40/48b", (40, 48)),
        ("1/2j", (1, 2)),
        ("16/48v", (16, 48)),
        ("3/6", (3, 6)),
        ("3/4", (3, 4)),  # not a deck fraction: explanations use any fraction
        (" 2 / 3 ", (2, 3)),
        ((3, 6), (3, 6)),
    ],
)
def test_accepted_inputs(value: Any, expected: tuple[int, int]) -> None:
    assert parse_fraction(value) == expected


def test_every_fraction_card_of_the_deck_parses_to_its_printed_numbers() -> None:
    for code in set(DECKS["fractions"]):
        if KIND[code] == "frac":
            assert parse_fraction(code) == parse_fraction(FRACTION[code])
            assert parse_fraction(code)[0] == NUM[code]
            assert format_fraction(parse_fraction(code)) == FRACTION[code]


@pytest.mark.parametrize(
    "value",
    [
        "",
        "3",
        "3/",
        "/6",
        "3/6x",  # not a colour letter
        "3/6rr",
        "3/6 r",
        "3/6rr12",
        "r3/6",
        "1/0",
        "0/3",
        "-1/3",
        "+1/3",
        "1/3/4",
        "a/3",
        "1.5/3",
        "1_0/12",
        "\u0663/6",  # an Arabic-Indic 3: int() would take it
        "joker",
        "+04",
        "7r",
        (1, 2, 3),
        (1,),
        (0, 3),
        (-1, 3),
        (True, 2),
        (1.0, 2),
        ("1", "2"),
        [1, 2],
        None,
        12,
    ],
)
def test_bad_inputs_raise_value_error(value: Any) -> None:
    with pytest.raises(ValueError, match="not a fraction"):
        parse_fraction(value)
