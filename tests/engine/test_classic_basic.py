"""Classic UNO: the base rules, scripted with ``setup``."""

from __future__ import annotations

import json

from games.engine import Game

from .helpers import assert_conserved, new, rejects, types


def test_new_game_deals_seven_and_turns_a_start_card() -> None:
    g = Game.new("classic", 4, seed=7)
    v = g.view(0)
    assert sum(v["hand_sizes"]) in (28, 30)  # 30 after a +2 start card
    assert len(v["hand"]) == v["hand_sizes"][0]
    assert v["top"] == g.discard[-1]
    assert_conserved(g)


def test_same_seed_same_game() -> None:
    a = Game.new("classic", 3, seed=42).to_dict()
    b = Game.new("classic", 3, seed=42).to_dict()
    assert a == b


def test_play_same_colour_then_turn_passes_left() -> None:
    g = new(hands=[["1b"], ["7r", "3j"], ["2j"]], start="5r")
    assert g.view(None)["turn"] == 1
    events = g.apply(1, {"type": "play", "card": "7r"})
    assert events[0] == {"type": "played", "seat": 1, "card": "7r"}
    assert g.view(None)["turn"] == 2
    assert g.view(None)["colour"] == "r"


def test_play_same_number_other_colour() -> None:
    g = new(hands=[["1b"], ["5j", "3j"], ["2j"]], start="5r")
    g.apply(1, {"type": "play", "card": "5j"})
    assert g.view(None)["colour"] == "j"


def test_no_match_is_refused_and_changes_nothing() -> None:
    g = new(hands=[["1b"], ["3j", "4j"], ["2j"]], start="5r")
    err = rejects(g, 1, {"type": "play", "card": "3j"}, "no_match")
    assert "3 jaune" in err.messages["fr"] and "yellow 3" in err.messages["en"]


def test_not_your_turn_and_card_not_in_hand() -> None:
    g = new(hands=[["1b"], ["3r", "4j"], ["2j"]], start="5r")
    rejects(g, 2, {"type": "play", "card": "2j"}, "not_your_turn")
    rejects(g, 1, {"type": "play", "card": "9r"}, "card_not_in_hand")
    rejects(g, 1, {"type": "play", "card": "nope"}, "unknown_card")


def test_draw_unplayable_card_passes_the_turn() -> None:
    g = new(hands=[["1b"], ["3j", "4j"], ["2j"]], start="5r", pile=["8b"])
    events = g.apply(1, {"type": "draw"})
    assert types(events) == ["drew", "passed"]
    assert events[0]["cards"] == ["8b"] and events[0]["visible_to"] == [1]
    assert g.view(None)["turn"] == 2


def test_draw_playable_card_may_be_played_or_kept() -> None:
    g = new(hands=[["1b"], ["3j", "4j"], ["2j"]], start="5r", pile=["8r", "9r"])
    g.apply(1, {"type": "draw"})
    assert g.view(1)["drawn"] == "8r"
    assert g.legal_actions(1) == [{"type": "play", "card": "8r"}, {"type": "pass"}]
    rejects(g, 1, {"type": "play", "card": "3j"}, "must_play_drawn")
    rejects(g, 1, {"type": "draw"}, "already_drew")
    g.apply(1, {"type": "pass"})
    assert g.view(None)["turn"] == 2 and "8r" in g.hands[1]


def test_voluntary_draw_allowed_with_a_playable_card() -> None:
    g = new(hands=[["1b"], ["3r", "4j"], ["2j"]], start="5r", pile=["8b"])
    assert {"type": "draw"} in g.legal_actions(1)
    g.apply(1, {"type": "draw"})
    assert g.hands[1] == ["3r", "4j", "8b"]


def test_win_a_round_scores_the_other_hands() -> None:
    g = new(hands=[["9b", "+02j"], ["3r"], ["couleur", "rev v"]], start="5r")
    events = g.apply(1, {"type": "play", "card": "3r"})
    assert types(events) == ["played", "round_over"]
    v = g.view(None)
    assert v["round_over"] and v["round_winner"] == 1 and v["winner"] is None
    assert v["scores"] == [0, 9 + 20 + 50 + 20, 0]
    assert g.legal_actions(0) == [{"type": "next_round"}]
    rejects(g, 0, {"type": "draw"}, "round_over")
    events = g.apply(2, {"type": "next_round"})
    assert "round_started" in types(events)
    assert g.view(None)["round"] == 2
    assert_conserved(g)


def test_to_dict_round_trip_is_exact() -> None:
    g = Game.new("classic", 10, seed=3)
    for _ in range(30):
        seat = g.view(None)["turn"]
        if seat is None:
            seat = g.view(None)["awaiting"]["seat"]
        g.apply(seat, g.legal_actions(seat)[0])
    d = g.to_dict()
    text = json.dumps(d, separators=(",", ":"))
    assert len(text) < 16 * 1024
    assert Game.from_dict(json.loads(text)).to_dict() == d
