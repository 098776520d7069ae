"""Two-player rules, the reshuffle and both piles empty."""

from __future__ import annotations

from .helpers import assert_conserved, new, rest_of_deck, types


def test_two_players_reverse_means_play_again() -> None:
    g = new(hands=[["1v", "2v"], ["rev r", "3r", "4r"]], start="5r")
    g.apply(1, {"type": "play", "card": "rev r"})
    assert g.view(None)["turn"] == 1


def test_two_players_skip_means_play_again() -> None:
    g = new(hands=[["1v", "2v"], ["stop r", "3r", "4r"]], start="5r")
    g.apply(1, {"type": "play", "card": "stop r"})
    assert g.view(None)["turn"] == 1


def test_two_players_plus2_draws_then_player_plays_again() -> None:
    g = new(hands=[["1v", "2v"], ["+02r", "3r", "4r"]], start="5r")
    g.apply(1, {"type": "play", "card": "+02r"})
    assert len(g.hands[0]) == 4 and g.view(None)["turn"] == 1


def test_two_players_plus4_accepted_then_player_plays_again() -> None:
    g = new(hands=[["1v", "2v"], ["+04", "3j", "4j"]], start="5r")
    g.apply(1, {"type": "play", "card": "+04", "colour": "j"})
    g.apply(0, {"type": "accept"})
    assert len(g.hands[0]) == 6 and g.view(None)["turn"] == 1


def test_empty_pile_reshuffles_the_discards_but_the_top() -> None:
    mine = ["6r", "7r", "1b"]
    other = rest_of_deck("classic", mine, "5r", ["8r", "9r"])
    g = new(hands=[other + ["8r", "9r"], mine], start="5r", players=2)
    assert g.view(None)["draw_pile_size"] == 0
    g.apply(1, {"type": "play", "card": "6r"})
    g.apply(0, {"type": "play", "card": "8r"})
    g.apply(1, {"type": "play", "card": "7r"})
    g.apply(0, {"type": "play", "card": "9r"})
    events = g.apply(1, {"type": "draw"})
    assert "reshuffled" in types(events)
    assert events[0] == {"type": "reshuffled", "count": 4}
    v = g.view(None)
    assert v["top"] == "9r" and v["discard_size"] == 1 and v["draw_pile_size"] == 3
    assert_conserved(g)


def test_both_piles_empty_the_player_simply_passes() -> None:
    mine = ["1b", "2b"]
    other = rest_of_deck("classic", mine, "5r")
    g = new(hands=[other, mine], start="5r", players=2)
    events = g.apply(1, {"type": "draw"})
    assert types(events) == ["drew", "passed"]
    assert events[0]["count"] == 0 and g.view(None)["turn"] == 0
    assert_conserved(g)
