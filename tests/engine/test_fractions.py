"""Uno Fractions: equal fractions, same denominator, claims, Joker/+2/+4 denominators, +4
rules, finishing rules, UNO penalty 1 and the wrong-attempt penalty."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Game, IllegalAction
from games.engine.cards import DECKS, POINTS

from .helpers import new, rejects, types

FR = "fractions"


def game(hand1: list[str], start: str = "1/3r", **options: Any) -> Game:
    return new(FR, [["1/2v", "3/6v"], hand1, ["1/6j", "5/6j"]], start=start, **options)


def test_deck_116_cards() -> None:
    deck = DECKS[FR]
    assert len(deck) == 116
    fractions = [c for c in deck if "/" in c]
    assert len(fractions) == 92 and len(set(fractions)) == 92
    assert deck.count("joker") == 4 and deck.count("+04") == 4 and deck.count("+02r") == 2
    assert "40/48b" in deck and "1/2r" in deck and "1/6j" in deck


def test_points_numerator_and_actions() -> None:
    p = POINTS[FR]
    assert (p["3/6r"], p["40/48b"], p["+02j"], p["rev v"], p["joker"], p["+04"]) == (
        3,
        40,
        20,
        20,
        50,
        50,
    )


def test_start_fraction_is_the_reference() -> None:
    v = game(["2/6b"]).view(1)
    assert v["reference"] == "1/3" and v["denominator"] == 3 and v["colour"] == "r"


def test_equal_fraction_matches_whatever_the_colour() -> None:
    g = game(["2/6b", "1/2r"])
    events = g.apply(1, {"type": "play", "card": "2/6b"})
    assert events[0]["rule"] == "equal"
    v = g.view(None)
    assert v["reference"] == "2/6" and v["denominator"] == 6 and v["colour"] == "b"


def test_same_denominator_matches() -> None:
    g = game(["10/12b", "1/2r"], start="4/12r")
    events = g.apply(1, {"type": "play", "card": "10/12b", "claim": "denominator"})
    assert events[0]["rule"] == "denominator" and events[0]["claim"] == "denominator"


def test_claim_equal_on_same_denominator_is_judged_wrong() -> None:
    g = game(["10/12b", "1/2r"], start="4/12r")
    err = rejects(g, 1, {"type": "play", "card": "10/12b", "claim": "equal"}, "not_equivalent")
    assert err.details["reference"] == "4/12" and err.details["played"] == "10/12"
    assert err.details["rule"] == "equal" and err.details["other_rule_ok"] is True
    assert "10/12" in err.messages["fr"] and "4/12" in err.messages["en"]


def test_claim_denominator_on_equal_fraction_is_judged_wrong() -> None:
    g = game(["2/6b", "1/2r"])
    err = rejects(
        g, 1, {"type": "play", "card": "2/6b", "claim": "denominator"}, "wrong_denominator"
    )
    assert err.details == {
        "reference": "1/3",
        "denominator": 3,
        "played": "2/6",
        "card": "2/6b",
        "claim": "denominator",
        "rule": "denominator",
        "other_rule_ok": True,
        "top": "1/3r",
    }


def test_no_rule_holds() -> None:
    g = game(["1/2b", "1/2r"])
    err = rejects(g, 1, {"type": "play", "card": "1/2r"}, "no_match")
    assert err.details["rule"] == "equal_or_denominator"
    assert err.details["other_rule_ok"] is False
    err = rejects(g, 1, {"type": "play", "card": "1/2b", "claim": "equal"}, "not_equivalent")
    assert err.details["other_rule_ok"] is False
    assert g.legal_actions(1) == [{"type": "draw"}, {"type": "uno"}]


def test_bad_claim_is_refused() -> None:
    rejects(game(["2/6b"]), 1, {"type": "play", "card": "2/6b", "claim": "maybe"}, "bad_action")


def test_plus2_and_reverse_go_on_the_same_colour_or_symbol() -> None:
    g = game(["+02r", "+02b", "rev b"])
    rejects(g, 1, {"type": "play", "card": "+02b"}, "no_match")
    rejects(g, 1, {"type": "play", "card": "rev b"}, "no_match")
    events = g.apply(1, {"type": "play", "card": "+02r"})
    assert types(events) == ["played", "drew", "skipped"]
    assert len(g.hands[2]) == 4 and g.view(None)["turn"] == 0
    assert g.view(None)["reference"] == "1/3"  # no denominator named: the reference stays


def test_plus2_on_plus2_of_another_colour() -> None:
    g = new(FR, [["1/2v"], ["+02b", "1/3b"], ["1/6j"]], start="+02r")
    assert g.view(None)["turn"] == 2
    g2 = new(FR, [["+02b", "1/2v"], ["1/3b"], ["1/6j", "1/2j"]], start="+02r", dealer=2)
    assert g2.view(None)["turn"] == 1
    g2.apply(1, {"type": "play", "card": "1/3b"})  # free: no reference after a +2 start
    g3 = new(FR, [["+02b", "1/2v"], ["1/3b"], ["1/6j", "1/2j"]], start="+02r", dealer=1)
    assert g3.view(None)["turn"] == 0
    g3.apply(0, {"type": "play", "card": "+02b"})


def test_reverse_changes_direction() -> None:
    g = game(["rev r", "1/2b"])
    g.apply(1, {"type": "play", "card": "rev r"})
    assert g.view(None)["direction"] == -1 and g.view(None)["turn"] == 0


def test_joker_names_a_denominator() -> None:
    g = game(["joker", "1/2b"])
    assert {"type": "play", "card": "joker", "denominator": 12} in g.legal_actions(1)
    events = g.apply(1, {"type": "play", "card": "joker", "denominator": 12})
    assert events[0]["denominator"] == 12
    v = g.view(None)
    assert v["denominator"] == 12 and v["reference"] is None
    err = rejects(g, 2, {"type": "play", "card": "1/6j"}, "wrong_denominator")
    assert err.details["reference"] is None and err.details["denominator"] == 12


def test_joker_named_denominator_then_matching_fraction() -> None:
    g = new(FR, [["1/2v"], ["joker", "1/2b"], ["4/12v", "1/3j"]], start="1/3r")
    g.apply(1, {"type": "play", "card": "joker", "denominator": 12})
    events = g.apply(2, {"type": "play", "card": "4/12v"})
    assert events[0]["rule"] == "denominator"


def test_joker_without_denominator_keeps_the_reference() -> None:
    g = game(["joker", "1/2b"])
    g.apply(1, {"type": "play", "card": "joker"})
    v = g.view(None)
    assert v["reference"] == "1/3" and v["denominator"] == 3


def test_bad_denominator_is_refused() -> None:
    g = game(["joker", "1/2b"])
    rejects(g, 1, {"type": "play", "card": "joker", "denominator": 5}, "bad_denominator")
    rejects(g, 1, {"type": "play", "card": "joker", "denominator": "12"}, "bad_denominator")


def test_plus2_names_a_denominator() -> None:
    g = game(["+02r", "1/2b"])
    g.apply(1, {"type": "play", "card": "+02r", "denominator": 48})
    assert g.view(None)["denominator"] == 48 and g.view(None)["reference"] is None


def test_no_finish_on_a_joker() -> None:
    g = game(["joker"])
    assert all(a["type"] != "play" for a in g.legal_actions(1))
    rejects(g, 1, {"type": "play", "card": "joker"}, "cannot_finish_on_joker")


def test_finish_on_plus4_allowed_by_default_next_draws_two() -> None:
    g = game(["+04"])
    events = g.apply(1, {"type": "play", "card": "+04"})
    assert types(events) == ["played", "drew", "round_over", "game_over"]
    assert events[1]["count"] == 2


def test_no_finish_on_plus4_option() -> None:
    g = game(["+04"], no_finish_on_plus4=True)
    rejects(g, 1, {"type": "play", "card": "+04"}, "cannot_finish_on_plus4")
    assert all(a["type"] != "play" for a in g.legal_actions(1))


def test_plus4_without_other_solution_challenge_fails() -> None:
    g = game(["+04", "1/2b"])
    g.apply(1, {"type": "play", "card": "+04", "denominator": 2})
    assert g.view(None)["awaiting"] == {"seat": 2, "kind": "challenge"}
    events = g.apply(2, {"type": "challenge"})
    assert events[0]["bluff"] is False
    assert len(g.hands[2]) == 2 + 2 + 1 and g.view(None)["turn"] == 0


def test_plus4_bluff_exposed_takes_it_back_draws_one_challenger_plays() -> None:
    g = game(["+04", "2/6b"])
    g.apply(1, {"type": "play", "card": "+04", "denominator": 2})
    g.apply(2, {"type": "challenge"})
    assert sorted(g.hands[1][:2]) == ["+04", "2/6b"] and len(g.hands[1]) == 3
    v = g.view(None)
    assert v["turn"] == 2 and v["top"] == "1/3r" and v["reference"] == "1/3"
    assert v["denominator"] == 3


def test_a_joker_is_another_solution() -> None:
    g = game(["+04", "joker"], plus4_bluffing=False)
    rejects(g, 1, {"type": "play", "card": "+04"}, "plus4_not_allowed")


def test_plus4_accept_draws_two_or_the_option() -> None:
    g = game(["+04", "1/2b"])
    g.apply(1, {"type": "play", "card": "+04"})
    g.apply(2, {"type": "accept"})
    assert len(g.hands[2]) == 4 and g.view(None)["turn"] == 0
    g = game(["+04", "1/2b"], fractions_plus4_draws=4)
    g.apply(1, {"type": "play", "card": "+04"})
    g.apply(2, {"type": "accept"})
    assert len(g.hands[2]) == 6


def test_plus4_without_challenge_option() -> None:
    g = game(["+04", "1/2b"], plus4_challenge=False)
    events = g.apply(1, {"type": "play", "card": "+04"})
    assert types(events) == ["played", "drew", "skipped"]


def test_uno_penalty_is_one_card() -> None:
    g = game(["2/6b", "1/2b"])
    g.apply(1, {"type": "play", "card": "2/6b"})
    g.apply(0, {"type": "catch", "target": 1})
    assert len(g.hands[1]) == 2


def test_wrong_attempt_penalty_returns_events_card_stays_turn_stays() -> None:
    g = game(["1/2b", "2/6b"], wrong_attempt_penalty=2)
    events = g.apply(1, {"type": "play", "card": "1/2b", "claim": "equal"})
    assert types(events) == ["wrong_attempt", "drew"]
    assert events[0]["code"] == "not_equivalent"
    assert events[0]["details"]["played"] == "1/2" and events[0]["details"]["reference"] == "1/3"
    assert events[1]["count"] == 2 and events[1]["reason"] == "wrong_attempt"
    assert len(g.hands[1]) == 4 and "1/2b" in g.hands[1]
    assert g.view(None)["turn"] == 1


def test_without_penalty_a_wrong_attempt_changes_nothing() -> None:
    rejects(game(["1/2b", "2/6b"]), 1, {"type": "play", "card": "1/2b"}, "no_match")


def test_start_plus2_first_draws_two_skipped_any_fraction_then() -> None:
    g = new(FR, [["1/2v"], ["1/3b"], ["1/6j", "1/2j"]], start="+02r")
    assert len(g.hands[1]) == 3 and g.view(None)["turn"] == 2
    assert g.view(None)["reference"] is None and g.view(None)["denominator"] is None
    events = g.apply(2, {"type": "play", "card": "1/6j"})
    assert events[0]["rule"] == "free"


def test_start_reverse_as_classic() -> None:
    g = new(FR, [["1/2v"], ["1/3b"], ["1/6j"], ["5/6j"]], start="rev r", dealer=1)
    assert g.view(None)["turn"] == 0 and g.view(None)["direction"] == -1


@pytest.mark.parametrize("card", ["joker", "+04"])
def test_start_joker_or_plus4_is_shuffled_back(card: str) -> None:
    g = new(FR, [["1/2v"], ["1/3b"], ["1/6j"]], start=card, pile=["2/3b"])
    assert g.view(None)["top"] == "2/3b" and card in g.pile
    assert g.start_events[0]["type"] == "start_returned"


def test_draw_keeps_the_card_pending_even_when_it_does_not_fit() -> None:
    g = game(["1/2b", "2/6b"], pile=["1/2r"])
    g.apply(1, {"type": "draw"})
    assert g.view(1)["drawn"] == "1/2r" and g.view(None)["turn"] == 1
    assert g.legal_actions(1) == [{"type": "pass"}]
    rejects(g, 1, {"type": "play", "card": "2/6b"}, "must_play_drawn")
    rejects(g, 1, {"type": "play", "card": "1/2r"}, "no_match")
    g.apply(1, {"type": "pass"})
    assert g.view(None)["turn"] == 2


def test_one_round_by_default_and_points_optional() -> None:
    g = game(["2/6b"])
    events = g.apply(1, {"type": "play", "card": "2/6b"})
    assert types(events) == ["played", "round_over", "game_over"]
    assert g.view(None)["winner"] == 1 and g.view(None)["scores"][1] == 1 + 3 + 1 + 5
    g = game(["2/6b"], target_score=100)
    g.apply(1, {"type": "play", "card": "2/6b"})
    assert not g.view(None)["game_over"]


def test_player_limits_and_classic_only_options() -> None:
    for players in (1, 6):
        with pytest.raises(IllegalAction) as info:
            Game.new(FR, players)
        assert info.value.code == "bad_option"
    for bad in ({"stacking": True}, {"seven_o": True}, {"family_quick_functions": ["rev"]}):
        with pytest.raises(IllegalAction) as info:
            Game.new(FR, 3, options=bad)
        assert info.value.code == "bad_option"


def test_points_when_scoring_is_on() -> None:
    g = new(FR, [["40/48b", "joker"], ["2/6b"], ["+04", "rev v"]], start="1/3r", target_score=100)
    g.apply(1, {"type": "play", "card": "2/6b"})
    v = g.view(None)
    assert v["scores"] == [0, 40 + 50 + 50 + 20, 0] and v["winner"] == 1
