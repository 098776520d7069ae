"""Who the game waits on (the view's ``acting``) and what the turn timer plays for that seat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import RULESETS, Game, IllegalAction

from .helpers import new

FQ = "family_quick"


def acting(g: Game) -> Any:
    """Return the acting seat as every view tells it (they must agree), checked against the game."""
    seen = {g.view(seat)["acting"] for seat in [None, *range(g.n)]}
    assert len(seen) == 1, seen
    (value,) = seen
    assert value == g.acting_seat()
    return value


def test_the_turn_owner_acts() -> None:
    g = new(hands=[["1v", "2v"], ["3r", "4r"], ["2j", "3j"]], start="5r")
    assert acting(g) == 1
    assert g.timeout_action(1) == {"type": "draw"}  # not one of its playable cards
    g.apply(1, {"type": "play", "card": "3r"})
    assert acting(g) == 2


def test_after_a_draw_that_fits_the_timer_passes() -> None:
    g = new(hands=[["1v", "2v"], ["3j", "4j"], ["2j", "3j"]], start="5r", pile=["9r"])
    g.apply(1, {"type": "draw"})
    assert g.view(1)["drawn"] == "9r" and acting(g) == 1
    assert g.timeout_action(1) == {"type": "pass"}
    g.apply(1, g.timeout_action(1))
    assert acting(g) == 2


def test_an_awaited_challenge_makes_its_victim_act() -> None:
    g = new(hands=[["1v"], ["+04", "3b", "9j"], ["2j", "4j"]], start="5r")
    g.apply(1, {"type": "play", "card": "+04", "colour": "b"})
    assert g.view(None)["turn"] is None
    assert acting(g) == 2
    # The timer takes the cards: it never challenges for the student.
    assert g.timeout_action(2) == {"type": "accept"}
    g.apply(2, g.timeout_action(2))
    assert acting(g) == 0


def test_a_stack_to_answer_makes_its_victim_act() -> None:
    g = new(hands=[["1v", "2v"], ["+02r", "3r"], ["+02j", "4j"]], start="5r", stacking=True)
    g.apply(1, {"type": "play", "card": "+02r"})
    assert acting(g) == 2
    assert g.timeout_action(2) == {"type": "accept"}  # not the stacking +2 it holds


def test_a_penalty_under_jump_in_makes_its_victim_act() -> None:
    g = new(hands=[["1v", "2v"], ["+02r", "3r"], ["7j", "4j"]], start="5r", jump_in=True)
    g.apply(1, {"type": "play", "card": "+02r"})
    assert g.view(None)["awaiting"]["kind"] == "penalty"
    assert acting(g) == 2
    assert g.timeout_action(2) == {"type": "accept"}


def test_a_plus4_open_to_quickos_makes_its_victim_act() -> None:
    g = new(FQ, [["quickos", "2v"], ["+04", "3r", "4r"], ["4j", "5j"]], start="5r")
    g.apply(1, {"type": "play", "card": "+04", "colour": "v"})
    assert g.view(None)["awaiting"] == {"seat": 2, "kind": "quickos"}
    assert acting(g) == 2  # seat 0 may send it back, but the game waits on the victim
    assert g.timeout_action(2) == {"type": "accept"}
    with pytest.raises(IllegalAction) as info:
        g.timeout_action(0)
    assert info.value.code == "not_your_turn"


def test_a_uno_window_waits_on_nobody_but_the_turn_owner() -> None:
    g = new(hands=[["1v", "2v"], ["3r", "4r"], ["2j", "3j", "6j"]], start="5r")
    g.apply(1, {"type": "play", "card": "3r"})  # one card left, UNO not said
    v = g.view(None)
    assert v["awaiting"] == {"seat": 1, "kind": "uno"} and v["turn"] == 2
    assert acting(g) == 2
    # Seat 1 may call UNO and seat 0 may catch, yet no timer runs for them.
    for seat in (0, 1):
        with pytest.raises(IllegalAction):
            g.timeout_action(seat)
    assert g.timeout_action(2) == {"type": "draw"}


def test_nobody_acts_while_a_round_is_over_nor_after_the_game() -> None:
    g = new(hands=[["1v", "2v"], ["3r"], ["2j", "3j"]], start="5r")
    g.apply(1, {"type": "play", "card": "3r"})
    assert g.view(None)["round_over"] and not g.view(None)["game_over"]
    assert acting(g) is None
    for seat in range(3):
        with pytest.raises(IllegalAction):
            g.timeout_action(seat)
    over = new(hands=[["1v", "2v"], ["3r"], ["2j", "3j"]], start="5r", target_score=1)
    over.apply(1, {"type": "play", "card": "3r"})
    assert over.view(None)["game_over"]
    assert acting(over) is None


@pytest.mark.parametrize("seat", [-1, 3, "0", None, True])
def test_timeout_action_of_a_bad_seat_is_refused(seat: Any) -> None:
    g = new(hands=[["1v", "2v"], ["3r", "4r"], ["2j", "3j"]], start="5r")
    with pytest.raises(IllegalAction) as info:
        g.timeout_action(seat)
    assert info.value.code == "bad_seat"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_in_random_games_the_acting_seat_may_always_let_the_timer_play(ruleset: str) -> None:
    options: dict[str, Any] = {"stacking": True, "jump_in": True} if ruleset == "classic" else {}
    for seed in range(4):
        g = Game.new(ruleset, 3, seed=seed, options=options)
        rng = random.Random(seed)
        for _ in range(400):
            if g.over:
                break
            seat = acting(g)
            if seat is None:
                assert g.round_over
                g.apply(0, {"type": "next_round"})
                continue
            action = g.timeout_action(seat)
            assert action in g.legal_actions(seat)
            # Half the time the timer plays; otherwise any legal move by any seat.
            if rng.random() < 0.5:
                g.apply(seat, action)
            else:
                movers = [s for s in range(g.n) if g.legal_actions(s)]
                mover = rng.choice(movers)
                g.apply(mover, rng.choice(g.legal_actions(mover)))
