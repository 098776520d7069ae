"""Corners where rules meet: jump-in on a +4, last cards, reshuffles under a pending +4, duels."""

from __future__ import annotations

from games.engine import Game

from .helpers import assert_conserved, new, rest_of_deck, types


def test_jump_in_on_a_challengeable_plus4_voids_it() -> None:
    g = new(
        hands=[["+04", "1v"], ["+04", "3b"], ["4j", "5j"], ["2b", "3v"]],
        start="5r",
        jump_in=True,
    )
    g.apply(1, {"type": "play", "card": "+04", "colour": "b"})
    assert g.view(None)["awaiting"] == {"seat": 2, "kind": "challenge"}
    events = g.apply(0, {"type": "play", "card": "+04", "colour": "v"})
    assert events[0]["jump_in"] is True
    assert g.view(None)["awaiting"] == {"seat": 1, "kind": "challenge"}
    g.apply(1, {"type": "accept"})
    assert len(g.hands[1]) == 1 + 4 and len(g.hands[2]) == 2 and g.view(None)["turn"] == 2


def test_jump_in_leaving_one_card_opens_the_uno_window() -> None:
    g = new(hands=[["1v"], ["3r", "4r"], ["5r", "4j"], ["2b"]], start="5r", jump_in=True)
    g.apply(2, {"type": "play", "card": "5r"})
    assert g.view(None)["uno_window"] == 2
    assert {"type": "catch", "target": 2} in g.legal_actions(1)


def test_seven_as_last_card_swaps_nothing() -> None:
    g = new(hands=[["1v", "2v"], ["7r"], ["4j"]], start="5r", seven_o=True)
    assert g.legal_actions(1)[0] == {"type": "play", "card": "7r"}
    events = g.apply(1, {"type": "play", "card": "7r"})
    assert types(events) == ["played", "round_over"]


def test_quickos_as_last_card_wins_the_round() -> None:
    g = new("family_quick", [["quickos"], ["+04", "3r"], ["4j", "5j"]], start="5r")
    g.apply(1, {"type": "play", "card": "+04", "colour": "v"})
    events = g.apply(0, {"type": "quickos"})
    assert types(events)[:3] == ["quickos", "drew", "round_over"]
    assert g.view(None)["round_winner"] == 0


def test_reshuffle_under_a_pending_plus4_keeps_the_card_below() -> None:
    mine = ["6r", "+04", "9r"]
    other = rest_of_deck("classic", mine, "5r")
    g = new(hands=[other, mine], start="5r", players=2)
    g.apply(1, {"type": "play", "card": "6r"})
    g.apply(0, {"type": "play", "card": "7r"})
    g.apply(1, {"type": "play", "card": "+04", "colour": "b"})  # a bluff, and no UNO call
    events = g.apply(0, {"type": "catch", "target": 1})
    assert {"type": "reshuffled", "count": 2} in events  # 5r and 6r; +04 and 7r stay
    events = g.apply(0, {"type": "challenge"})
    assert events[0]["bluff"] is True
    v = g.view(None)
    assert v["top"] == "7r" and v["colour"] == "r" and v["turn"] == 0
    assert "+04" in g.hands[1]
    assert_conserved(g)


def test_start_plus2_with_stacking_applies_at_once() -> None:
    g = new(hands=[["1b"], ["+02b", "2b"], ["3b"]], start="+02r", stacking=True)
    assert len(g.hands[1]) == 4 and g.view(None)["turn"] == 2 and g.view(None)["awaiting"] is None


def test_elimination_duel_uses_two_player_rules() -> None:
    five_hundred = ["couleur"] * 4 + ["+04"] * 4 + ["+02b", "+02j", "rev b", "rev j", "stop b"]
    g = new(hands=[five_hundred, ["3r"], ["2j"]], start="5r", scoring="elimination")
    g.apply(1, {"type": "play", "card": "3r"})
    assert g.view(None)["eliminated"] == [0]
    g.apply(1, {"type": "next_round"})
    assert g.n_active == 2
    # Hand the player to act a reverse of the colour in force (swapping cards, so the deck
    # stays whole): in the duel it means "play again".
    d = g.to_dict()
    seat = d["turn"]
    assert seat in (1, 2) and d["hands"][0] == []
    rev = "rev " + d["colour"]
    if rev not in d["hands"][seat]:
        where = next(p for p in (d["pile"], d["discard"][:-1], d["hands"][3 - seat]) if rev in p)
        if where is not d["pile"] and where is not d["hands"][3 - seat]:
            where = d["discard"]
        where[where.index(rev)] = d["hands"][seat][0]
        d["hands"][seat][0] = rev
    g = Game.from_dict(d)
    g.apply(seat, {"type": "play", "card": rev})
    assert g.view(None)["turn"] == seat and g.view(None)["direction"] == d["direction"]


def test_setup_without_hands_deals_seven_each() -> None:
    g = Game.new("classic", 3, seed=4, setup={"dealer": 2, "start": "5r"})
    assert g.view(None)["hand_sizes"] == [7, 7, 7] and g.view(None)["turn"] == 0
    assert g.view(None)["top"] == "5r"


def test_game_without_seed_replays_from_its_state() -> None:
    g = Game.new("classic", 3)
    g2 = Game.from_dict(g.to_dict())
    seat = g.view(None)["turn"]
    for game in (g, g2):
        game.apply(seat, {"type": "draw"})
    assert g.to_dict() == g2.to_dict()
