"""Classic variants: stacking, 7-0 and jump-in, alone and combined."""

from __future__ import annotations

from .helpers import new, rejects, types


def test_stacking_plus2_on_plus2_total_lands_on_who_accepts() -> None:
    g = new(hands=[["1v", "2v"], ["+02r", "3r"], ["+02j", "4j"]], start="5r", stacking=True)
    g.apply(1, {"type": "play", "card": "+02r"})
    v = g.view(None)
    assert v["awaiting"] == {"seat": 2, "kind": "stack", "total": 2} and v["turn"] is None
    assert {"type": "play", "card": "+02j"} in g.legal_actions(2)
    rejects(g, 2, {"type": "play", "card": "4j"}, "must_answer")
    g.apply(2, {"type": "play", "card": "+02j"})
    assert g.view(None)["awaiting"] == {"seat": 0, "kind": "stack", "total": 4}
    acts = g.legal_actions(0)
    assert {"type": "accept"} in acts and all(a["type"] != "play" for a in acts)
    events = g.apply(0, {"type": "accept"})
    assert types(events) == ["accepted", "drew", "skipped"] and events[1]["count"] == 4
    assert len(g.hands[0]) == 6 and g.view(None)["turn"] == 1


def test_stacking_only_same_kind() -> None:
    g = new(hands=[["1v"], ["+02r", "3r"], ["+04", "4j"]], start="5r", stacking=True)
    g.apply(1, {"type": "play", "card": "+02r"})
    assert all(a["type"] != "play" for a in g.legal_actions(2))
    rejects(g, 2, {"type": "play", "card": "+04", "colour": "j"}, "must_answer")


def test_stacking_plus4_challenge_concerns_the_last_plus4_bluff() -> None:
    g = new(hands=[["1v", "2v"], ["+04", "3b"], ["+04", "4j", "9v"]], start="5r", stacking=True)
    g.apply(1, {"type": "play", "card": "+04", "colour": "v"})
    assert g.view(None)["awaiting"] == {"seat": 2, "kind": "challenge"}
    g.apply(2, {"type": "play", "card": "+04", "colour": "j"})  # a bluff: 9v is green
    assert g.view(None)["awaiting"] == {"seat": 0, "kind": "challenge"}
    events = g.apply(0, {"type": "challenge"})
    assert events[0]["bluff"] is True
    assert len(g.hands[2]) == 3 + 8  # takes the +4 back, draws the whole total
    v = g.view(None)
    assert v["top"] == "+04" and v["colour"] == "v" and v["turn"] == 0


def test_stacking_failed_challenge_costs_total_plus_two() -> None:
    g = new(hands=[["1v", "2v"], ["+04", "3b"], ["+04", "4j"]], start="5r", stacking=True)
    g.apply(1, {"type": "play", "card": "+04", "colour": "v"})
    g.apply(2, {"type": "play", "card": "+04", "colour": "j"})
    g.apply(0, {"type": "challenge"})
    assert len(g.hands[0]) == 2 + 10 and g.view(None)["turn"] == 1


def test_stacking_accept_after_two_plus4() -> None:
    g = new(hands=[["1v", "2v"], ["+04", "3b"], ["+04", "4j"]], start="5r", stacking=True)
    g.apply(1, {"type": "play", "card": "+04", "colour": "v"})
    g.apply(2, {"type": "play", "card": "+04", "colour": "j"})
    g.apply(0, {"type": "accept"})
    assert len(g.hands[0]) == 10 and g.view(None)["turn"] == 1


def test_seven_swaps_hands_with_the_chosen_player() -> None:
    g = new(hands=[["1v", "2v", "3v"], ["7r", "3r"], ["4j"]], start="5r", seven_o=True)
    assert {"type": "play", "card": "7r", "target": 0} in g.legal_actions(1)
    rejects(g, 1, {"type": "play", "card": "7r"}, "bad_target")
    rejects(g, 1, {"type": "play", "card": "7r", "target": 1}, "bad_target")
    events = g.apply(1, {"type": "play", "card": "7r", "target": 0})
    assert {"type": "swapped", "seat": 1, "target": 0} in events
    assert g.hands[1] == ["1v", "2v", "3v"] and g.hands[0] == ["3r"]
    assert g.view(None)["turn"] == 2 and g.view(None)["uno_window"] is None


def test_zero_passes_every_hand_on_in_the_direction() -> None:
    g = new(hands=[["1v"], ["0r", "3r"], ["4j", "5j"]], start="5r", seven_o=True)
    events = g.apply(1, {"type": "play", "card": "0r"})
    assert {"type": "rotated", "direction": 1} in events
    assert g.hands == [["4j", "5j"], ["1v"], ["3r"]]


def test_seven_o_off_seven_is_a_plain_number() -> None:
    g = new(hands=[["1v"], ["7r", "3r"], ["4j"]], start="5r")
    g.apply(1, {"type": "play", "card": "7r"})
    assert g.hands[1] == ["3r"]


def test_jump_in_identical_card_out_of_turn_play_continues_from_jumper() -> None:
    g = new(hands=[["1v"], ["3r"], ["5r", "4j"], ["2b"]], start="5r", jump_in=True)
    assert {"type": "play", "card": "5r"} in g.legal_actions(2)
    events = g.apply(2, {"type": "play", "card": "5r"})
    assert events[0]["jump_in"] is True
    assert g.view(None)["turn"] == 3


def test_jump_in_needs_the_identical_card() -> None:
    g = new(hands=[["1v"], ["3r"], ["5j", "4r"], ["2b"]], start="5r", jump_in=True)
    rejects(g, 2, {"type": "play", "card": "5j"}, "not_your_turn")
    rejects(g, 2, {"type": "play", "card": "4r"}, "not_your_turn")


def test_jump_in_off_is_not_your_turn() -> None:
    g = new(hands=[["1v"], ["3r"], ["5r", "4j"], ["2b"]], start="5r")
    rejects(g, 2, {"type": "play", "card": "5r"}, "not_your_turn")


def test_jump_in_plus2_penalty_waits_and_a_jumper_voids_it() -> None:
    g = new(
        hands=[["1v", "+02r"], ["+02r", "3r"], ["4j", "5j"], ["2b", "3b"]],
        start="5r",
        jump_in=True,
    )
    g.apply(1, {"type": "play", "card": "+02r"})
    assert g.view(None)["awaiting"] == {"seat": 2, "kind": "penalty", "total": 2}
    events = g.apply(0, {"type": "play", "card": "+02r"})
    assert events[0]["jump_in"] is True
    assert g.view(None)["awaiting"] == {"seat": 1, "kind": "penalty", "total": 2}
    g.apply(1, {"type": "accept"})
    assert len(g.hands[1]) == 3 and len(g.hands[2]) == 2 and g.view(None)["turn"] == 2


def test_jump_in_by_the_victim_passes_the_penalty_on() -> None:
    g = new(
        hands=[["1v", "2v"], ["+02r", "3r"], ["+02r", "5j"], ["2b", "3b"]],
        start="5r",
        jump_in=True,
    )
    g.apply(1, {"type": "play", "card": "+02r"})
    g.apply(2, {"type": "play", "card": "+02r"})
    assert g.view(None)["awaiting"] == {"seat": 3, "kind": "penalty", "total": 2}


def test_jump_in_reverse_takes_effect_as_if_played_by_the_jumper() -> None:
    g = new(
        hands=[["1v", "2v"], ["rev r", "3r"], ["4j", "5j"], ["rev r", "3b"]],
        start="5r",
        jump_in=True,
    )
    g.apply(1, {"type": "play", "card": "rev r"})
    assert g.view(None)["turn"] == 0 and g.view(None)["direction"] == -1
    g.apply(3, {"type": "play", "card": "rev r"})
    assert g.view(None)["direction"] == 1 and g.view(None)["turn"] == 0


def test_combined_stacking_and_jump_in() -> None:
    g = new(
        hands=[["+02j", "2v"], ["+02r", "3r"], ["+02r", "5j"], ["2b", "3b"]],
        start="5r",
        jump_in=True,
        stacking=True,
    )
    g.apply(1, {"type": "play", "card": "+02r"})
    g.apply(2, {"type": "play", "card": "+02r"})  # the victim stacks
    assert g.view(None)["awaiting"] == {"seat": 3, "kind": "stack", "total": 4}
    rejects(g, 0, {"type": "play", "card": "+02j"}, "not_your_turn")


def test_jump_in_never_on_ones_own_card() -> None:
    g = new(hands=[["1v"], ["5r", "5r", "3b"], ["2j", "4j"], ["2b"]], start="6r", jump_in=True)
    g.apply(1, {"type": "play", "card": "5r"})
    assert {"type": "play", "card": "5r"} not in g.legal_actions(1)
    rejects(g, 1, {"type": "play", "card": "5r"}, "not_your_turn")


def test_jump_in_never_on_ones_own_challengeable_plus4() -> None:
    g = new(hands=[["1v"], ["+04", "+04", "3r"], ["2j", "4j"], ["2b"]], start="6r", jump_in=True)
    g.apply(1, {"type": "play", "card": "+04", "colour": "b"})
    assert g.view(None)["awaiting"]["kind"] == "challenge"
    assert all(a["type"] != "play" for a in g.legal_actions(1))
    rejects(g, 1, {"type": "play", "card": "+04", "colour": "b"}, "not_your_turn")
