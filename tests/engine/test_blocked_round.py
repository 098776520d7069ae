"""A blocked round: every seat in a row finds nothing to draw and passes; the round ends.

The hands hold the whole deck but the start card, so the draw pile is empty and the discard
pile has nothing to reshuffle from the first turn on (docs/engine.md "Blocked round").
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Game
from games.engine.cards import DECKS, POINTS

from .helpers import assert_conserved, new, types


def _rest(ruleset: str, start: str, *held: list[str]) -> list[str]:
    """Return the deck less the start card and the cards already given out."""
    rest = list(DECKS[ruleset])
    for card in [start, *[c for h in held for c in h]]:
        rest.remove(card)
    return rest


def _dead_pass(g: Game, seat: int) -> list[dict[str, Any]]:
    """Draw with nothing to draw: the seat gets no card and passes."""
    assert g.acting_seat() == seat
    events = g.apply(seat, {"type": "draw"})
    assert events[0]["type"] == "drew" and events[0]["count"] == 0
    assert events[1] == {"type": "passed", "seat": seat}
    return events


START = {"fractions": "1/2r", "classic": "5r", "family_quick": "5r"}


@pytest.mark.parametrize("ruleset", ["fractions", "classic", "family_quick"])
def test_two_players_who_only_draw_end_the_round(ruleset: str) -> None:
    start = START[ruleset]
    deck = _rest(ruleset, start)
    half = len(deck) // 2
    g = new(ruleset, [deck[:half], deck[half:]], start, target_score=0)
    assert g.view(None)["draw_pile_size"] == 0 and g.view(None)["discard_size"] == 1
    # Seat 1 starts (dealer 0); both could play, yet both draw nothing and pass.
    assert any(a["type"] == "play" for a in g.legal_actions(1))
    first = _dead_pass(g, 1)
    assert "blocked" not in types(first)
    events = _dead_pass(g, 0)
    assert types(events)[2:] == ["blocked", "round_over", "game_over"]
    assert events[2] == {"type": "blocked", "seat": 0}
    points = [sum(POINTS[ruleset][c] for c in h) for h in g.hands]
    winner = 0 if points[0] < points[1] else 1
    if points[0] == points[1]:
        winner = 0 if len(g.hands[0]) < len(g.hands[1]) else 1  # then seat 1 comes first
    over = events[3]
    assert over["winner"] == winner and over["points"] == points
    assert over["scores"][winner] == points[1 - winner]  # not its own hand
    assert over["scores"][1 - winner] == 0
    assert g.view(None)["winner"] == winner and g.view(None)["game_over"]
    assert g.legal_actions(0) == [] and g.legal_actions(1) == []
    assert_conserved(g)


def test_fewest_points_win_before_fewest_cards() -> None:
    hands = [["1/2b", "1/3j"], ["40/48b"]]  # 2 points in 2 cards against 40 in 1
    g = new("fractions", [*hands, _rest("fractions", "1/6r", *hands)], "1/6r", target_score=0)
    for seat in (1, 2):
        _dead_pass(g, seat)
    events = _dead_pass(g, 0)
    assert types(events)[2:] == ["blocked", "round_over", "game_over"]
    assert g.round_winner == 0 and g.winner == 0


def test_equal_points_then_fewer_cards() -> None:
    hands = [["1/2b", "1/3j"], ["2/6v"]]  # 2 points each: seat 1 holds fewer cards
    g = new("fractions", [*hands, _rest("fractions", "1/6r", *hands)], "1/6r", target_score=0)
    for seat in (1, 2, 0):
        events = _dead_pass(g, seat)
    assert g.round_winner == 1
    assert events[-2]["type"] == "round_over" and events[-1] == {"type": "game_over", "winner": 1}


def test_equal_points_and_cards_then_play_order_after_the_blocking_seat() -> None:
    hands = [["1/2b"], ["1/3j"]]  # 1 point, 1 card each
    g = new("fractions", [*hands, _rest("fractions", "1/6r", *hands)], "1/6r", target_score=0)
    for seat in (1, 2, 0):
        _dead_pass(g, seat)
    # Seat 0's pass blocked the round: play order from seat 1, so seat 1 before seat 0.
    assert g.round_winner == 1


def test_a_play_or_a_drawn_card_starts_the_count_again() -> None:
    hands = [["1/2b", "2/12j"], ["1/3j", "2/6v"]]
    rest = _rest("fractions", "1/6r", *hands)
    g = new("fractions", [*hands, rest], "1/6r", target_score=0)
    _dead_pass(g, 1)
    _dead_pass(g, 2)
    assert g.dead_passes == 2
    g.apply(0, {"type": "play", "card": "2/12j"})  # equal to 1/6
    assert g.dead_passes == 0
    # The discard pile now holds two cards: seat 1's draw reshuffles one and gets it.
    events = g.apply(1, {"type": "draw"})
    assert "reshuffled" in types(events) and events[-1]["count"] == 1
    g.apply(1, {"type": "pass"})
    _dead_pass(g, 2)
    _dead_pass(g, 0)
    assert not g.round_over
    events = _dead_pass(g, 1)
    assert "blocked" in types(events) and g.round_over


def test_the_count_survives_a_round_trip() -> None:
    deck = _rest("classic", "5r")
    g = new("classic", [deck[:50], deck[50:]], "5r", target_score=0)
    _dead_pass(g, 1)
    stored = g.to_dict()
    assert stored["dead_passes"] == 1
    again = Game.from_dict(stored)
    events = _dead_pass(again, 0)
    assert "blocked" in types(events)


def test_a_blocked_round_of_many_rounds_goes_on_to_the_next() -> None:
    deck = _rest("classic", "5r")
    g = new("classic", [deck[:50], deck[50:]], "5r", target_score=10_000)
    _dead_pass(g, 1)
    events = _dead_pass(g, 0)
    assert types(events)[2:] == ["blocked", "round_over"]
    assert g.round_over and not g.over
    assert g.legal_actions(1) == [{"type": "next_round"}]
    g.apply(1, {"type": "next_round"})
    assert g.dead_passes == 0 and g.view(None)["draw_pile_size"] > 0


def test_teams_compare_the_sides_hands() -> None:
    # Seats 0 and 2 are partners, 1 and 3 partners. Seat 1 alone holds the fewest points,
    # but its partner holds the rest of the deck: the team of 0 and 2 wins.
    hands = [["1b", "2b"], ["0j"], ["3b"]]
    rest = _rest("classic", "5r", *hands)
    g = new("classic", [*hands, rest], "5r", teams=True, target_score=10_000)
    for seat in (1, 2, 3, 0):
        events = _dead_pass(g, seat)
    assert "blocked" in types(events)
    assert g.round_winner == [0, 2]
    over = next(e for e in events if e["type"] == "round_over")
    assert over["team_scores"] == [sum(POINTS["classic"][c] for c in ["0j", *rest]), 0]


def test_lowest_wins_counts_every_hand_including_the_winners() -> None:
    hands = [["1b", "2b"], ["9j"]]
    rest = _rest("classic", "5r", *hands)
    g = new("classic", [*hands, rest], "5r", scoring="lowest_wins", target_score=10_000)
    for seat in (1, 2, 0):
        events = _dead_pass(g, seat)
    over = next(e for e in events if e["type"] == "round_over")
    assert over["winner"] == 0
    assert over["scores"][:2] == [3, 9]


def test_elimination_skips_the_seats_already_out() -> None:
    g = new("classic", players=3, target_score=30, scoring="elimination")
    g.out[2] = True  # as after an earlier round of Uno Challenge
    g.n_active = 2
    deck = _rest("classic", "5r")
    g.hands = [deck[:50], deck[50:], []]
    g.pile, g.discard, g.turn, g.drawn, g.awaiting = [], ["5r"], 1, None, None
    g.colour = "r"
    _dead_pass(g, 1)
    events = _dead_pass(g, 0)
    assert "blocked" in types(events)
