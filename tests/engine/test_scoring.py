"""Scoring: winner takes all to 500, lowest score wins, elimination, teams, rotating partners."""

from __future__ import annotations

from games.engine.cards import POINTS

from .helpers import new, play_out, rejects, types

# 4 Jokers + 4 +4 + 5 action cards: exactly 500 points.
FIVE_HUNDRED = ["couleur"] * 4 + ["+04"] * 4 + ["+02b", "+02j", "rev b", "rev j", "stop b"]


def test_card_points_classic() -> None:
    p = POINTS["classic"]
    assert (p["7r"], p["0b"], p["+02v"], p["rev j"], p["stop b"], p["couleur"], p["+04"]) == (
        7,
        0,
        20,
        20,
        20,
        50,
        50,
    )
    assert sum(p[c] for c in FIVE_HUNDRED) == 500


def test_round_below_target_goes_on() -> None:
    g = new(hands=[["9b"], ["3r"], ["2j"]], start="5r")
    g.apply(1, {"type": "play", "card": "3r"})
    v = g.view(None)
    assert v["scores"] == [0, 11, 0] and v["winner"] is None and not v["game_over"]
    g.apply(0, {"type": "next_round"})
    assert not g.view(None)["round_over"]


def test_first_to_500_wins_the_game() -> None:
    g = new(hands=[FIVE_HUNDRED, ["3r"], ["2j"]], start="5r")
    events = g.apply(1, {"type": "play", "card": "3r"})
    assert types(events) == ["played", "round_over", "game_over"]
    v = g.view(None)
    assert v["winner"] == 1 and v["game_over"] and v["scores"][1] == 502
    assert g.legal_actions(0) == []
    rejects(g, 0, {"type": "next_round"}, "game_over")


def test_target_score_option() -> None:
    g = new(hands=[["9b", "2b"], ["3r"], ["1j"]], start="5r", target_score=12)
    g.apply(1, {"type": "play", "card": "3r"})
    assert g.view(None)["winner"] == 1


def test_target_zero_plays_one_round() -> None:
    g = new(hands=[["9b"], ["3r"], ["1j"]], start="5r", target_score=0)
    g.apply(1, {"type": "play", "card": "3r"})
    assert g.view(None)["game_over"] and g.view(None)["winner"] == 1


def test_lowest_wins_everyone_adds_own_hand() -> None:
    g = new(hands=[["9b"], ["3r"], ["2j", "+02b"]], start="5r", scoring="lowest_wins")
    g.apply(1, {"type": "play", "card": "3r"})
    assert g.view(None)["scores"] == [9, 0, 22] and g.view(None)["winner"] is None


def test_lowest_wins_when_someone_reaches_target() -> None:
    g = new(hands=[FIVE_HUNDRED, ["3r"], ["2j"]], start="5r", scoring="lowest_wins")
    g.apply(1, {"type": "play", "card": "3r"})
    v = g.view(None)
    assert v["scores"] == [500, 0, 2] and v["winner"] == 1 and v["game_over"]


def test_elimination_round_winner_scores_nothing_reaching_target_eliminates() -> None:
    g = new(hands=[FIVE_HUNDRED, ["3r"], ["2j"]], start="5r", scoring="elimination")
    events = g.apply(1, {"type": "play", "card": "3r"})
    assert {"type": "eliminated", "seats": [0]} in events
    v = g.view(None)
    assert v["scores"] == [500, 0, 2] and v["eliminated"] == [0] and not v["game_over"]
    g.apply(0, {"type": "next_round"})
    v = g.view(None)
    assert v["hand_sizes"][0] == 0 and v["eliminated"] == [0]
    assert g.legal_actions(0) == []
    rejects(g, 0, {"type": "draw"}, "not_your_turn")
    play_out(g, seed=3)
    v = g.view(None)
    assert v["game_over"] and v["winner"] in (1, 2)
    loser = 3 - v["winner"]
    assert v["scores"][loser] >= 500 and sorted(v["eliminated"]) == [0, loser]


def test_elimination_last_one_standing_wins_at_once() -> None:
    g = new(
        hands=[FIVE_HUNDRED[:7], ["3r"], FIVE_HUNDRED[7:] + ["9b"] * 2],
        start="5r",
        scoring="elimination",
        target_score=100,
    )
    g.apply(1, {"type": "play", "card": "3r"})
    v = g.view(None)
    assert v["eliminated"] == [0, 2] and v["winner"] == 1


def test_teams_partners_opposite_team_scores_the_other_team() -> None:
    g = new(hands=[["9b"], ["3r"], ["8b"], ["7b"]], start="5r", teams=True)
    v = g.view(None)
    assert v["teams"] == [[0, 2], [1, 3]] and v["team_scores"] == [0, 0]
    events = g.apply(1, {"type": "play", "card": "3r"})
    assert events[1]["winner"] == [1, 3]
    v = g.view(None)
    assert v["round_winner"] == [1, 3] and v["team_scores"] == [0, 17]
    assert v["scores"] == [0, 17, 0, 17]


def test_teams_win_the_game_as_a_team() -> None:
    g = new(hands=[FIVE_HUNDRED, ["3r"], ["8b"], ["7b"]], start="5r", teams=True)
    g.apply(1, {"type": "play", "card": "3r"})
    assert g.view(None)["winner"] == [1, 3]


def test_teams_of_six() -> None:
    g = new(hands=[[f"{i}b"] for i in range(6)], start="5r", teams=True)
    assert g.view(None)["teams"] == [[0, 3], [1, 4], [2, 5]]


def test_teams_lowest_wins_each_team_adds_its_own_hands() -> None:
    g = new(hands=[["9b"], ["3r"], ["8b"], ["7b"]], start="5r", teams=True, scoring="lowest_wins")
    g.apply(1, {"type": "play", "card": "3r"})
    assert g.view(None)["team_scores"] == [17, 7]


def test_rotating_partners_three_rounds_highest_total_wins() -> None:
    g = new(hands=[["9b"], ["3r"], ["8b"], ["7b"]], start="5r", rotating_partners=True)
    assert g.view(None)["teams"] == [[0, 2], [1, 3]]
    g.apply(1, {"type": "play", "card": "3r"})
    assert g.view(None)["scores"] == [0, 17, 0, 17]
    assert not g.view(None)["game_over"]
    g.apply(0, {"type": "next_round"})
    assert g.view(None)["teams"] == [[0, 1], [2, 3]]
    play_out(g, seed=1, rounds=1)
    assert g.view(None)["round_over"] and not g.view(None)["game_over"]
    g.apply(0, {"type": "next_round"})
    assert g.view(None)["teams"] == [[0, 3], [1, 2]]
    play_out(g, seed=2)
    v = g.view(None)
    assert v["game_over"] and v["round"] == 3
    best = max(v["scores"])
    assert v["winner"] == [s for s in range(4) if v["scores"][s] == best]
