"""Chance rates: the guide's deck figures, and per-attempt rates from a hand."""

from __future__ import annotations

import pytest

from lessons.diagnosis import (
    DEFAULT_DECK_CARDS,
    chance_rates,
    deck_chance_rates,
    missed_equivalences,
    reachable_rules,
)

DENOMINATORS = (2, 3, 6, 12, 24, 48)
PROPER_DECK = [(n, d) for d in DENOMINATORS for n in range(1, d)]
# Cards up to twice their denominator; whole cards (n = d) left out, as in the guide's figures.
IMPROPER_DECK = [(n, d) for d in DENOMINATORS for n in range(1, 2 * d + 1) if n != d]


def _show(title: str, rates: dict[str, float]) -> None:
    print(title, {rule: f"{100 * share:.1f}%" for rule, share in rates.items()})


def test_proper_deck_reproduces_the_guides_figures() -> None:
    assert len(PROPER_DECK) == 89
    rates = deck_chance_rates(PROPER_DECK)
    _show("proper deck (89 cards):", rates)
    # Guide: M5 11.0%, M2 3.0%, M1 3.0%, M2a 2.9%, M6 2.5%, M7 1.4%, M4 1.2%; 80.6% no rule.
    expected = {"M5": 0.110, "M2": 0.030, "M1": 0.030, "M2a": 0.029, "M6": 0.025}
    expected |= {"M7": 0.014, "M4": 0.012, "U": 0.806}
    for rule, share in expected.items():
        assert rates[rule] == pytest.approx(share, abs=0.002), rule
    assert 0.75 < rates["U"] < 0.85
    assert not {"M3", "M3a", "M8", "M9", "M10", "D1"} & set(rates)


def test_improper_cards_keep_each_rule_between_half_and_nine_percent() -> None:
    rates = deck_chance_rates(IMPROPER_DECK)
    _show(f"with improper cards ({len(IMPROPER_DECK)} cards):", rates)
    for rule in ("M1", "M2", "M2a", "M4", "M5", "M6", "M7", "M8", "M9", "M10"):
        assert 0.004 <= rates[rule] <= 0.095, rule


def test_default_deck_rates_are_much_higher_so_hands_matter() -> None:
    assert len(DEFAULT_DECK_CARDS) == 23
    rates = deck_chance_rates()
    _show("default deck (23 forms):", rates)
    # Five values in every form: many more pairs fit some rule by chance.
    assert rates["U"] < 0.5 and rates["M5"] > 0.2


def test_chance_rates_from_a_hand() -> None:
    hand = [(4, 12), (8, 12), (2, 12), (1, 2), (5, 6)]
    # Non-equal cards: 4/12 (M0 M2 M2a M6), 2/12 (M0 M4), 1/2 (U); 5/6 has the reference's
    # denominator, so a page that infers the rule would call it "same denominator".
    third = 1 / 3
    assert chance_rates((4, 6), hand, "equal") == {
        "M0": 2 * third,
        "M2": third,
        "M2a": third,
        "M4": third,
        "M6": third,
        "U": third,
    }
    # A page that asks for the rule on every play: 5/6 could be a wrong "equal" claim (M3).
    assert chance_rates((4, 6), hand, "equal", claim_asked=True) == {
        "M0": 0.75,
        "M2": 0.25,
        "M2a": 0.25,
        "M3": 0.25,
        "M4": 0.25,
        "M6": 0.25,
        "U": 0.25,
    }
    assert chance_rates((4, 6), hand, "denominator") == {"D1": 1.0}
    assert reachable_rules((4, 6), hand) == {"M0", "M2", "M2a", "M4", "M6", "U", "D1"}
    assert "M3" in reachable_rules((4, 6), hand, claim_asked=True)


def test_a_same_denominator_play_claimed_equal_always_counts() -> None:
    hand = [(5, 6), (1, 2)]
    rates = chance_rates((4, 6), hand, "equal", played=(5, 6))
    assert rates == {"M0": 0.5, "M3": 0.5, "U": 0.5}
    assert "M3" in reachable_rules((4, 6), hand, played=(5, 6))


def test_missed_equivalences() -> None:
    hand = [(8, 12), (4, 6), (1, 3), (16, 24)]
    assert missed_equivalences((2, 3), hand) == [(8, 12), (4, 6), (16, 24)]
    assert missed_equivalences((4, 6), hand) == [(8, 12), (16, 24)]
    assert missed_equivalences((5, 6), hand) == []


def test_the_played_card_counts_even_if_the_snapshot_lost_it() -> None:
    assert chance_rates((4, 6), [(8, 12)], "equal", played=(2, 12)) == {"M0": 1.0, "M4": 1.0}
    assert chance_rates((4, 6), [(2, 12)], "equal", played=(2, 12)) == {"M0": 1.0, "M4": 1.0}


def test_no_wrong_card_in_hand_gives_no_rates() -> None:
    assert chance_rates((1, 3), [(2, 6), (4, 12)], "equal") == {}


def test_unknown_hand_falls_back_to_the_default_deck() -> None:
    assert chance_rates((2, 3), None, "equal") == chance_rates((2, 3), DEFAULT_DECK_CARDS, "equal")


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        chance_rates((1, 3), [(2, 0)], "equal")
    with pytest.raises(ValueError):
        chance_rates((1, 3), [(2, 6)], "same")
    with pytest.raises(ValueError):
        reachable_rules((0, 3), [(2, 6)])
