"""UNO Family Quick: the 68-card deck, Family Quick functions, +4 and Quickos, start cards."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Game, IllegalAction
from games.engine.cards import DECKS, POINTS

from .helpers import assert_conserved, new, rejects, types

FQ = "family_quick"


def test_deck_has_68_cards_one_of_each_number() -> None:
    deck = DECKS[FQ]
    assert len(deck) == 68
    assert deck.count("7r") == 1 and deck.count("0b") == 1 and deck.count("+04") == 3
    assert deck.count("hugo r") == 2 and deck.count("cathy b") == 2 and deck.count("quickos") == 1


def test_points_plus4_is_worth_40() -> None:
    p = POINTS[FQ]
    assert (p["+04"], p["hugo r"], p["quickos"], p["couleur"], p["stop j"]) == (40, 50, 50, 50, 20)


def test_ten_players_get_six_cards() -> None:
    g = Game.new(FQ, 10, seed=4)
    assert sorted(g.view(None)["hand_sizes"])[:8] == [6] * 8


def hands(fq_card: str = "hugo r") -> list[list[str]]:
    return [["1v", "2v"], [fq_card, "3r", "4r"], ["4j", "5j"]]


def test_family_quick_card_goes_on_its_own_colour_only() -> None:
    g = new(FQ, hands(), start="6j")
    assert all(a.get("card") != "hugo r" for a in g.legal_actions(1))
    rejects(g, 1, {"type": "play", "card": "hugo r", "function": "rev"}, "no_match")
    g = new(FQ, hands(), start="5r")
    plays = [a for a in g.legal_actions(1) if a.get("card") == "hugo r"]
    assert {"type": "play", "card": "hugo r", "function": "rev"} in plays
    assert {"type": "play", "card": "hugo r", "function": "swap", "target": 2} in plays


def test_function_reverse() -> None:
    g = new(FQ, hands(), start="5r")
    events = g.apply(1, {"type": "play", "card": "hugo r", "function": "rev"})
    assert events[0]["function"] == "rev"
    assert g.view(None)["direction"] == -1 and g.view(None)["turn"] == 0


def test_function_skip() -> None:
    g = new(FQ, hands(), start="5r")
    g.apply(1, {"type": "play", "card": "hugo r", "function": "stop"})
    assert g.view(None)["turn"] == 0


def test_function_draw_two() -> None:
    g = new(FQ, hands(), start="5r")
    events = g.apply(1, {"type": "play", "card": "hugo r", "function": "+2"})
    assert types(events) == ["played", "drew", "skipped"]
    assert len(g.hands[2]) == 4 and g.view(None)["turn"] == 0


def test_function_swap_hands() -> None:
    g = new(FQ, hands(), start="5r")
    rejects(g, 1, {"type": "play", "card": "hugo r", "function": "swap"}, "bad_target")
    g.apply(1, {"type": "play", "card": "hugo r", "function": "swap", "target": 2})
    assert g.hands[1] == ["4j", "5j"] and g.hands[2] == ["3r", "4r"]


def test_function_must_be_allowed() -> None:
    g = new(FQ, hands(), start="5r", family_quick_functions=["swap", "+2"])
    rejects(g, 1, {"type": "play", "card": "hugo r", "function": "rev"}, "bad_function")
    rejects(g, 1, {"type": "play", "card": "hugo r"}, "bad_function")
    plays = [a for a in g.legal_actions(1) if a.get("card") == "hugo r"]
    assert {a.get("function") for a in plays} == {"swap", "+2"}


def test_manon_marco_cathy_colours() -> None:
    g = new(FQ, [["1v"], ["manon j", "marco v", "cathy b", "3r"], ["4j"]], start="5j")
    assert {"type": "play", "card": "manon j", "function": "stop"} in g.legal_actions(1)
    assert all(a.get("card") not in ("marco v", "cathy b") for a in g.legal_actions(1))


def test_plus4_on_anything_waits_for_quickos_then_accept() -> None:
    g = new(FQ, [["1v", "2v"], ["+04", "3r", "4r"], ["4j", "5j"]], start="5r")
    assert {"type": "play", "card": "+04", "colour": "v"} in g.legal_actions(1)  # no bluff rule
    g.apply(1, {"type": "play", "card": "+04", "colour": "v"})
    v = g.view(None)
    assert v["awaiting"] == {"seat": 2, "kind": "quickos"} and v["turn"] is None
    assert g.legal_actions(2) == [{"type": "accept"}]
    rejects(g, 2, {"type": "challenge"}, "bad_action")
    g.apply(2, {"type": "accept"})
    assert len(g.hands[2]) == 6 and g.view(None)["turn"] == 0


def test_quickos_turns_the_plus4_back_on_its_player() -> None:
    g = new(FQ, [["quickos", "2v", "3v"], ["+04", "3r", "4r"], ["4j", "5j"]], start="5r")
    rejects(g, 0, {"type": "quickos"}, "bad_action")  # no +4 yet
    g.apply(1, {"type": "play", "card": "+04", "colour": "v"})
    assert {"type": "quickos"} in g.legal_actions(0)
    events = g.apply(0, {"type": "quickos"})
    assert types(events) == ["quickos", "drew"]
    assert events[0] == {"type": "quickos", "seat": 0, "target": 1}
    assert len(g.hands[1]) == 2 + 4 and len(g.hands[2]) == 2
    v = g.view(None)
    assert v["top"] == "quickos" and v["colour"] == "v" and v["turn"] == 2
    assert_conserved(g)


def test_quickos_may_be_played_by_the_victim() -> None:
    g = new(FQ, [["1v", "2v"], ["+04", "3r", "4r"], ["quickos", "5j"]], start="5r")
    g.apply(1, {"type": "play", "card": "+04", "colour": "v"})
    assert {"type": "quickos"} in g.legal_actions(2)
    g.apply(2, {"type": "quickos"})
    assert len(g.hands[1]) == 6 and g.view(None)["turn"] == 2


def test_the_plus4_player_cannot_play_quickos() -> None:
    g = new(FQ, [["1v", "2v"], ["+04", "quickos", "4r"], ["3j", "5j"]], start="5r")
    g.apply(1, {"type": "play", "card": "+04", "colour": "v"})
    rejects(g, 1, {"type": "quickos"}, "bad_action")
    assert g.legal_actions(1) == []


def test_two_players_plus4_then_play_again() -> None:
    g = new(FQ, [["1v", "2v"], ["+04", "3r", "4r"]], start="5r")
    g.apply(1, {"type": "play", "card": "+04", "colour": "r"})
    g.apply(0, {"type": "accept"})
    assert g.view(None)["turn"] == 1


def test_start_reverse_dealer_plays_first_to_the_right() -> None:
    g = new(FQ, [["1v"], ["2v"], ["3v"], ["4v"]], start="rev r", dealer=1)
    v = g.view(None)
    assert v["turn"] == 1 and v["direction"] == -1


def test_start_family_quick_card_goes_under_the_pile() -> None:
    g = new(FQ, [["1v"], ["2v"], ["3v"]], start="hugo r", pile=["7b"])
    assert g.view(None)["top"] == "7b" and g.pile[0] == "hugo r"
    assert g.start_events[0] == {"type": "start_returned", "card": "hugo r", "to": "bottom"}


def test_start_quickos_goes_under_the_pile() -> None:
    g = new(FQ, [["1v"], ["2v"], ["3v"]], start="quickos", pile=["7b"])
    assert g.view(None)["top"] == "7b" and g.pile[0] == "quickos"


def test_start_plus4_first_player_draws_four_and_is_skipped() -> None:
    g = new(FQ, [["1v"], ["2v"], ["3v"]], start="+04")
    assert len(g.hands[1]) == 5 and g.view(None)["turn"] == 2


def test_start_joker_left_of_dealer_names_the_colour() -> None:
    g = new(FQ, [["1v"], ["2v"], ["3v"]], start="couleur")
    assert g.view(None)["turn"] == 1 and g.view(None)["colour"] is None


def test_family_quick_options() -> None:
    bad: dict[str, Any]
    for bad in (
        {"plus4_challenge": True},
        {"stacking": True},
        {"teams": True},
        {"family_quick_functions": []},
        {"family_quick_functions": ["rev", "rev"]},
        {"family_quick_functions": ["wild"]},
    ):
        with pytest.raises(IllegalAction) as info:
            Game.new(FQ, 4, options=bad)
        assert info.value.code == "bad_option"
    g = Game.new(FQ, 4, options={"plus4_challenge": False, "target_score": 100})
    assert g.view(0)["options"]["target_score"] == 100


def test_uno_penalty_two_by_default() -> None:
    g = new(FQ, [["1v", "2v"], ["3r", "4r"], ["4j", "5j"]], start="5r")
    g.apply(1, {"type": "play", "card": "3r"})
    g.apply(0, {"type": "catch", "target": 1})
    assert len(g.hands[1]) == 3


def test_round_scoring_and_500_target() -> None:
    g = new(FQ, [["+04", "hugo r", "9b"], ["3r"], ["quickos"]], start="5r")
    g.apply(1, {"type": "play", "card": "3r"})
    assert g.view(None)["scores"] == [0, 40 + 50 + 9 + 50, 0]
    big = ["couleur"] * 4 + ["hugo r", "hugo r", "manon j", "manon j", "marco v", "marco v"]
    g = new(FQ, [big, ["3r"], ["4j"]], start="5r")
    g.apply(1, {"type": "play", "card": "3r"})
    assert g.view(None)["winner"] == 1 and g.view(None)["scores"][1] == 504
