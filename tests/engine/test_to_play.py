"""The play page's "You can play" list: what may go on the pile, from the engine's own facts.

Every card the engine would take is named by a phrase of the list, and a fraction the list
does not name is refused: the words never say less (or more) than the rules.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.engine import Game
from games.engine.cards import COLOUR, DECKS, DEN, KIND, NUM, SYMBOL
from games.engine.explain import to_play_parts

from .helpers import new

FR = "fractions"
FRACTION_CODES = list(dict.fromkeys(DECKS[FR]))


def _with_big_hand(ruleset: str, start: str, codes: list[str]) -> tuple[Game, int]:
    """Start a two-player game whose acting seat holds every code but the start card."""
    hand = [c for c in codes if c != start]
    for dealer in (0, 1):
        g = new(ruleset, [hand, []], start=start, dealer=dealer)
        seat = g.acting_seat()
        if seat == 0:
            return g, 0
    raise AssertionError("the big hand never plays first")


def test_a_reverse_at_the_start_lets_any_fraction_be_played() -> None:
    g = new(FR, [["1/2r", "5/6b"], ["1/3v", "2/3b"]], start="rev j", dealer=1)
    fr = to_play_parts(g.view(None), "fr")
    assert fr[0] == "n’importe quelle fraction"
    assert "un +2 jaune ou une Inversion jaune" in fr
    assert "une Inversion d’une autre couleur" in fr
    en = to_play_parts(g.view(None), "en")
    assert en[0] == "any fraction"
    assert en[-2:] == ["a Joker", "a Wild Draw Four if no other card fits"]


def test_between_fractions_colour_is_never_a_condition_of_a_fraction() -> None:
    g = new(FR, [["1/2r", "5/6b"], ["1/3v", "2/3b"]], start="8/12j")
    fr = to_play_parts(g.view(0), "fr")
    assert fr[0] == "une fraction égale à 8/12 ou avec 12 en bas"
    assert not any(part == "jaune" or part.startswith("couleur") for part in fr)
    assert "a fraction equal to 8/12 or with 12 at the bottom" in to_play_parts(g.view(0), "en")


def test_a_named_denominator_is_the_only_way_for_a_fraction() -> None:
    g = new(FR, [["joker", "5/6b", "1/2r"], ["1/3v", "2/3b", "1/6v"]], start="1/3r", dealer=1)
    g.apply(0, {"type": "play", "card": "joker", "denominator": 6})
    parts = to_play_parts(g.view(1), "fr")
    assert parts[0] == "une fraction avec 6 en bas"
    assert to_play_parts(g.view(1), "en")[0] == "a fraction with 6 at the bottom"


def test_classic_names_the_colour_the_number_and_the_plus4_rule() -> None:
    g = new("classic", [["1r", "7b"], ["3b", "4v"]], start="7j")
    assert to_play_parts(g.view(0), "fr") == [
        "une carte jaune",
        "un 7 d’une autre couleur",
        "un Joker",
        "un +4 si tu n’as pas de carte jaune",
    ]
    assert to_play_parts(g.view(0), "en")[0] == "a yellow card"


def test_nothing_is_said_once_the_game_is_over() -> None:
    g = new(FR, [["1/2r"], ["1/3v", "2/3b"]], start="3/6j", dealer=1)
    g.apply(0, {"type": "play", "card": "1/2r"})
    assert to_play_parts(g.view(None), "fr") == []


def _fraction_phrase_admits(phrase: str, card: str) -> bool:
    """Read a fraction phrase back: does it let this fraction card be played?"""
    if phrase == "n’importe quelle fraction":
        return True
    words = phrase.split()
    equal = next((w for w in words if "/" in w), None)
    den = next((int(w) for w in words if w.isdigit()), None)
    value = Fraction(NUM[card], DEN[card])
    by_value = equal is not None and value == Fraction(*map(int, equal.split("/")))
    return by_value or (den is not None and DEN[card] == den)


@pytest.mark.parametrize(
    "start", ["rev j", "+02b", "8/12j", "1/2r", "5/6v", "16/48b", "rev r", "2/3j"]
)
def test_every_card_the_engine_takes_is_named_and_no_other_fraction(start: str) -> None:
    g, seat = _with_big_hand(FR, start, FRACTION_CODES)
    legal = {a["card"] for a in g.legal_actions(seat) if a["type"] == "play"}
    parts = to_play_parts(g.view(seat), "fr")
    colour = g.view(None)["colour"]
    for card in FRACTION_CODES:
        if card == start:
            continue
        kind = KIND[card]
        if kind == "frac":
            assert (card in legal) == _fraction_phrase_admits(parts[0], card), card
        elif card in legal and kind in ("+2", "rev"):
            if COLOUR[card] == colour:
                assert any(p.startswith("un +2 ") and "Inversion" in p for p in parts), card
            else:
                name = "un +2" if SYMBOL[card] == "+2" else "une Inversion"
                assert f"{name} d’une autre couleur" in parts, card
        elif card in legal:
            assert ("un Joker" if kind == "wild" else "un +4 si aucune autre carte ne va") in parts
