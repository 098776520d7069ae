"""Classic Wild Draw Four: legality, bluffing, the challenge both ways, last-card draws."""

from __future__ import annotations

from .helpers import new, rejects, types


def legal_plus4() -> list[list[str]]:
    return [["1v"], ["+04", "3b", "9j"], ["2j", "4j"]]


def test_plus4_waits_for_challenge_or_accept() -> None:
    g = new(hands=legal_plus4(), start="5r")
    events = g.apply(1, {"type": "play", "card": "+04", "colour": "b"})
    assert events[0]["colour"] == "b"
    v = g.view(None)
    assert v["turn"] is None and v["awaiting"] == {"seat": 2, "kind": "challenge"}
    assert v["colour"] == "b"
    assert g.legal_actions(2) == [{"type": "challenge"}, {"type": "accept"}]
    rejects(g, 0, {"type": "challenge"}, "bad_action")
    rejects(g, 2, {"type": "draw"}, "must_answer")


def test_accept_draws_four_and_loses_the_turn() -> None:
    g = new(hands=legal_plus4(), start="5r", pile=["1r", "2r", "3r", "4r"])
    g.apply(1, {"type": "play", "card": "+04", "colour": "b"})
    events = g.apply(2, {"type": "accept"})
    assert types(events) == ["accepted", "drew", "skipped"]
    assert g.hands[2] == ["2j", "4j", "1r", "2r", "3r", "4r"]
    assert g.view(None)["turn"] == 0


def test_failed_challenge_costs_six_and_the_turn() -> None:
    g = new(hands=legal_plus4(), start="5r")
    g.apply(1, {"type": "play", "card": "+04", "colour": "b"})
    events = g.apply(2, {"type": "challenge"})
    assert events[0]["bluff"] is False
    assert events[0]["cards"] == ["3b", "9j"] and events[0]["visible_to"] == [2]
    assert len(g.hands[2]) == 2 + 6
    assert g.view(None)["turn"] == 0 and g.view(None)["colour"] == "b"


def test_exposed_bluffer_takes_back_the_plus4_draws_four() -> None:
    g = new(hands=[["1v"], ["+04", "3r", "9j"], ["2j", "4j"]], start="5r")
    g.apply(1, {"type": "play", "card": "+04", "colour": "j"})
    events = g.apply(2, {"type": "challenge"})
    assert events[0]["bluff"] is True
    assert sorted(g.hands[1][:3]) == sorted(["+04", "3r", "9j"]) and len(g.hands[1]) == 7
    v = g.view(None)
    assert v["top"] == "5r" and v["colour"] == "r" and v["turn"] == 2
    assert len(g.hands[2]) == 2


def test_bluff_refused_when_bluffing_is_off() -> None:
    g = new(hands=[["1v"], ["+04", "3r"], ["2j"]], start="5r", plus4_bluffing=False)
    assert all(a.get("card") != "+04" for a in g.legal_actions(1))
    rejects(g, 1, {"type": "play", "card": "+04", "colour": "j"}, "plus4_not_allowed")


def test_bluff_listed_when_bluffing_is_on() -> None:
    g = new(hands=[["1v"], ["+04", "3r"], ["2j"]], start="5r")
    assert {"type": "play", "card": "+04", "colour": "j"} in g.legal_actions(1)


def test_without_challenge_option_plus4_applies_at_once() -> None:
    g = new(hands=legal_plus4(), start="5r", plus4_challenge=False)
    events = g.apply(1, {"type": "play", "card": "+04", "colour": "v"})
    assert types(events) == ["played", "drew", "skipped"]
    assert len(g.hands[2]) == 6 and g.view(None)["turn"] == 0
    rejects(g, 2, {"type": "challenge"}, "bad_action")


def test_plus4_colour_absent_keeps_the_colour() -> None:
    g = new(hands=legal_plus4(), start="5r")
    g.apply(1, {"type": "play", "card": "+04"})
    assert g.view(None)["colour"] == "r"


def test_wild_changes_colour_and_may_be_played_with_a_playable_card() -> None:
    g = new(hands=[["1v"], ["couleur", "3r"], ["2j"]], start="5r")
    assert {"type": "play", "card": "couleur", "colour": "v"} in g.legal_actions(1)
    g.apply(1, {"type": "play", "card": "couleur", "colour": "v"})
    assert g.view(None)["colour"] == "v"
    rejects(g, 2, {"type": "play", "card": "2j"}, "no_match")


def test_last_card_plus4_makes_the_next_draw_before_scoring_no_challenge() -> None:
    g = new(hands=[["1v"], ["+04"], ["2j"]], start="5r", pile=["9b", "9j", "9v", "9r"])
    events = g.apply(1, {"type": "play", "card": "+04", "colour": "b"})
    assert types(events) == ["played", "drew", "round_over"]
    assert events[1]["seat"] == 2 and events[1]["count"] == 4
    assert g.view(None)["scores"][1] == 1 + 2 + 36


def test_last_card_plus2_makes_the_next_draw_before_scoring() -> None:
    g = new(hands=[["1v"], ["+02r"], ["2j"]], start="5r", pile=["9b", "9j"])
    events = g.apply(1, {"type": "play", "card": "+02r"})
    assert types(events) == ["played", "drew", "round_over"]
    assert g.view(None)["scores"][1] == 1 + 2 + 18


def test_plus2_next_player_draws_two_and_is_skipped() -> None:
    g = new(hands=[["1v"], ["+02r", "3r"], ["2j"]], start="5r", pile=["9b", "9j"])
    events = g.apply(1, {"type": "play", "card": "+02r"})
    assert types(events) == ["played", "drew", "skipped"]
    assert g.hands[2] == ["2j", "9b", "9j"] and g.view(None)["turn"] == 0


def test_reverse_and_skip_with_three_players() -> None:
    g = new(hands=[["1v", "2v"], ["rev r", "3r"], ["2j", "3j"]], start="5r")
    g.apply(1, {"type": "play", "card": "rev r"})
    assert g.view(None)["direction"] == -1 and g.view(None)["turn"] == 0
    g = new(hands=[["1v", "2v"], ["stop r", "3r"], ["2j", "3j"]], start="5r")
    events = g.apply(1, {"type": "play", "card": "stop r"})
    assert events[1] == {"type": "skipped", "seat": 2}
    assert g.view(None)["turn"] == 0
