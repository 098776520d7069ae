"""A refused fraction under a +2, Joker, +4 or Inversion says what the pile asks for (§1.3).

Issue 30. The child sees the special card, not the fraction the play is judged against:
"1/2 n'est pas égale à 1/6" with a Joker on top named a card nobody could see.
"""

from __future__ import annotations

from tests.engine.helpers import new, refusal

HANDS = [["1/2b", "5/6v", "2/3j"], ["joker", "+04", "rev v", "+02v", "1/6b", "4/12r"]]


def test_under_a_joker_that_named_nothing_the_kept_fraction_is_said() -> None:
    g = new("fractions", HANDS, start="1/6v")
    g.apply(1, {"type": "play", "card": "joker"})
    err = refusal(g, 0, {"type": "play", "card": "1/2b", "claim": "equal"})
    assert err.code == "not_equivalent"
    assert err.messages["fr"] == (
        "Sous le Joker, la fraction à suivre est 1/6. 1/2 n’est pas égale à 1/6."
    )
    assert err.messages["en"].startswith("Under the Joker, the fraction to follow is 1/6.")
    assert err.details["top"] == "joker"


def test_under_a_plus4_that_named_a_denominator_it_is_said() -> None:
    g = new("fractions", HANDS, start="1/6v", plus4_challenge=False)
    g.apply(1, {"type": "play", "card": "+04", "denominator": 12})
    err = refusal(g, 1, {"type": "play", "card": "1/6b"})  # seat 0 drew 2 and is skipped
    assert err.code == "wrong_denominator"
    assert err.messages["fr"] == "Le +4 demande le dénominateur 12\u202f: 1/6 ne l’a pas."
    assert err.messages["en"] == "The +4 asks for the denominator 12: 1/6 does not have it."
    assert "1/6 n’a pas" not in err.messages["fr"]


def test_under_an_inversion_the_named_denominator_still_holds() -> None:
    g = new("fractions", HANDS, start="1/6v", players=2)
    g.apply(1, {"type": "play", "card": "joker", "denominator": 12})
    g.apply(0, {"type": "draw"})
    g.apply(0, {"type": "pass"})
    g.apply(1, {"type": "play", "card": "rev v"})  # two players: play again
    err = refusal(g, 1, {"type": "play", "card": "1/6b", "claim": "denominator"})
    assert err.messages["fr"] == "Le dénominateur demandé est toujours 12\u202f: 1/6 ne l’a pas."


def test_on_a_fraction_the_message_is_as_before() -> None:
    g = new("fractions", HANDS, start="1/3v")
    err = refusal(g, 1, {"type": "play", "card": "1/6b", "claim": "equal"})
    assert err.messages["fr"] == "1/6 n’est pas égale à 1/3."
