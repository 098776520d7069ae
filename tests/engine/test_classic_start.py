"""Classic start-card conventions and the dealer draw."""

from __future__ import annotations

from games.engine import Game

from .helpers import assert_conserved, new, types

HANDS4 = [["1b"], ["2b"], ["3b"], ["4b"]]


def test_dealer_is_drawn_highest_number_wins() -> None:
    g = Game.new("classic", 4, seed=11)
    draw = g.start_events[0]
    assert draw["type"] == "dealer_draw"
    last = draw["draws"][-1]
    ranks = {s: (int(c[0]) if c[0].isdigit() else 0) for s, c in last}
    assert g.dealer == draw["dealer"] == max(ranks, key=lambda s: ranks[s])
    assert list(ranks.values()).count(ranks[g.dealer]) == 1


def test_number_start_left_of_dealer_plays() -> None:
    g = new(hands=HANDS4, start="5r", dealer=2)
    assert g.view(None)["turn"] == 3 and g.view(None)["direction"] == 1


def test_plus2_start_first_player_draws_two_and_is_skipped() -> None:
    g = new(hands=HANDS4, start="+02r", pile=["7j", "8j"])
    assert g.hands[1] == ["2b", "7j", "8j"]
    assert g.view(None)["turn"] == 2
    assert "skipped" in types(g.start_events)


def test_reverse_start_right_of_dealer_plays_and_direction_turns() -> None:
    g = new(hands=HANDS4, start="rev r", dealer=1)
    v = g.view(None)
    assert v["direction"] == -1 and v["turn"] == 0


def test_skip_start_first_player_is_skipped() -> None:
    g = new(hands=HANDS4, start="stop r")
    assert g.view(None)["turn"] == 2


def test_wild_start_first_player_names_the_colour_by_playing() -> None:
    g = new(hands=[["1b"], ["2j", "3v"], ["3b"]], start="couleur")
    v = g.view(None)
    assert v["turn"] == 1 and v["colour"] is None
    assert {"type": "play", "card": "2j"} in g.legal_actions(1)
    g.apply(1, {"type": "play", "card": "3v"})
    assert g.view(None)["colour"] == "v"


def test_wild_draw_four_start_is_returned_and_another_turned() -> None:
    g = new(hands=HANDS4, start="+04", pile=["7b"])
    assert g.view(None)["top"] == "7b"
    assert "+04" in g.pile
    assert types(g.start_events)[0] == "start_returned"
    assert g.view(None)["turn"] == 1
    assert_conserved(g)
