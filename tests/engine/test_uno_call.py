"""UNO calls and catches: the timing windows of the rules README."""

from __future__ import annotations

from .helpers import new, rejects, types


def hands() -> list[list[str]]:
    return [["1v", "2v"], ["3r", "4r"], ["2j", "3j", "6j"]]


def test_call_with_two_cards_on_your_turn_then_play_is_safe() -> None:
    g = new(hands=hands(), start="5r")
    assert {"type": "uno"} in g.legal_actions(1)
    assert g.apply(1, {"type": "uno"}) == [{"type": "uno", "seat": 1}]
    rejects(g, 1, {"type": "uno"}, "bad_action")  # once is enough
    g.apply(1, {"type": "play", "card": "3r"})
    v = g.view(None)
    assert v["uno_window"] is None and v["awaiting"] is None
    rejects(g, 0, {"type": "catch", "target": 1}, "bad_action")


def test_forgotten_uno_can_be_caught_until_the_next_player_acts() -> None:
    g = new(hands=hands(), start="5r", pile=["9b", "9j"])
    g.apply(1, {"type": "play", "card": "3r"})
    v = g.view(None)
    assert v["turn"] == 2 and v["uno_window"] == 1
    assert v["awaiting"] == {"seat": 1, "kind": "uno"}
    assert {"type": "catch", "target": 1} in g.legal_actions(0)
    assert {"type": "catch", "target": 1} in g.legal_actions(2)
    assert {"type": "uno"} in g.legal_actions(1)
    rejects(g, 1, {"type": "catch", "target": 1}, "bad_action")
    rejects(g, 0, {"type": "catch", "target": 2}, "bad_action")
    events = g.apply(0, {"type": "catch", "target": 1})
    assert types(events) == ["caught", "drew"]
    assert events[0]["count"] == 2 and g.hands[1] == ["4r", "9b", "9j"]
    assert g.view(None)["uno_window"] is None and g.view(None)["turn"] == 2


def test_calling_uno_just_after_playing_closes_the_window() -> None:
    g = new(hands=hands(), start="5r")
    g.apply(1, {"type": "play", "card": "3r"})
    g.apply(1, {"type": "uno"})
    assert g.view(None)["uno_window"] is None
    rejects(g, 0, {"type": "catch", "target": 1}, "bad_action")


def test_window_closes_when_the_next_player_acts() -> None:
    g = new(hands=hands(), start="5r")
    g.apply(1, {"type": "play", "card": "3r"})
    g.apply(2, {"type": "draw"})
    rejects(g, 0, {"type": "catch", "target": 1}, "bad_action")
    rejects(g, 1, {"type": "uno"}, "bad_action")


def test_uno_out_of_window_is_refused() -> None:
    g = new(hands=hands(), start="5r")
    rejects(g, 2, {"type": "uno"}, "bad_action")  # not their turn
    rejects(g, 0, {"type": "uno"}, "bad_action")
    g2 = new(hands=[["1v"], ["3r", "4r", "5r"], ["2j"]], start="5r")
    rejects(g2, 1, {"type": "uno"}, "bad_action")  # three cards


def test_uno_penalty_option() -> None:
    g = new(hands=hands(), start="5r", uno_penalty=4)
    g.apply(1, {"type": "play", "card": "3r"})
    g.apply(2, {"type": "catch", "target": 1})
    assert len(g.hands[1]) == 5
