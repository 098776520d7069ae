"""A refused card is not judged again in the same turn without a new claim (issue 30 §1.8).

One script retried one card 1,471 times, every try judged and logged. The engine keeps the
turn's refused cards with the rules they ruled out and refuses a repeat unjudged.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Game, IllegalAction
from games.engine.cards import KIND
from tests.engine.helpers import new, refusal
from tests.engine.strategies import Config, configs

# Seat 1 plays first on 1/3: 2/6 is equal to it, 1/2, 5/6 and 1/6 fit by no rule.
HANDS = [["1/2b", "5/6v", "2/3j"], ["2/6r", "1/2r", "5/6b", "1/6j"]]


def test_a_refused_card_is_refused_again_unjudged() -> None:
    g = new("fractions", HANDS, start="1/3v")
    play = {"type": "play", "card": "1/2r", "claim": "equal"}
    first = refusal(g, 1, play)
    assert first.code == "not_equivalent"
    assert g.refused_cards(1) == {}  # apply changed nothing
    assert g.note_refusal(1, first) is True
    assert g.refused_cards(1) == {"1/2r": ["equal"]}
    assert g.refused_cards(0) == {} and g.refused_cards(None) == {}
    before = g.to_dict()
    again = refusal(g, 1, play)
    assert again.code == "already_refused"
    assert again.details == {"card": "1/2r", "claim": "equal", "rules": ["equal"]}
    assert "1/2 rouge" in again.messages["fr"] and "red 1/2" in again.messages["en"]
    assert g.to_dict() == before


def test_a_new_claim_is_judged_and_no_claim_asks_for_both_rules() -> None:
    g = new("fractions", HANDS, start="1/3v")
    g.note_refusal(1, refusal(g, 1, {"type": "play", "card": "1/2r", "claim": "denominator"}))
    # "equal" was not tried: judged (and refused) again, not "already refused".
    equal = refusal(g, 1, {"type": "play", "card": "1/2r", "claim": "equal"})
    assert equal.code == "not_equivalent"
    g.note_refusal(1, equal)
    assert g.refused_cards(1) == {"1/2r": ["denominator", "equal"]}
    assert refusal(g, 1, {"type": "play", "card": "1/2r"}).code == "already_refused"
    # Another card is judged as ever.
    assert refusal(g, 1, {"type": "play", "card": "5/6b"}).code == "no_match"


def test_a_card_refused_under_one_rule_is_accepted_under_the_other() -> None:
    g = new("fractions", HANDS, start="1/3v")
    g.note_refusal(1, refusal(g, 1, {"type": "play", "card": "2/6r", "claim": "denominator"}))
    events = g.apply(1, {"type": "play", "card": "2/6r"})  # either rule: equal holds
    assert events[0]["rule"] == "equal"
    assert g.refused_cards(1) == {} and "refused" not in g.to_dict()


def test_any_applied_action_forgets_the_refused_cards() -> None:
    g = new("fractions", HANDS, start="1/3v")
    g.note_refusal(1, refusal(g, 1, {"type": "play", "card": "1/2r"}))
    assert g.to_dict()["refused"] == {"1/2r": ["denominator", "equal"]}
    assert Game.from_dict(g.to_dict()).refused_cards(1) == {"1/2r": ["denominator", "equal"]}
    g.apply(1, {"type": "draw"})
    assert g.refused_cards(1) == {}


def test_slips_and_other_seats_are_not_kept() -> None:
    g = new("fractions", HANDS, start="1/3v")
    slip = refusal(g, 0, {"type": "play", "card": "1/2b"})
    assert slip.code == "not_your_turn"
    assert g.note_refusal(0, slip) is False
    assert g.note_refusal(1, IllegalAction("card_not_in_hand", {"card": "1/2r"})) is False
    assert g.refused_cards(1) == {}


def test_with_a_penalty_the_repeat_costs_nothing_and_is_not_judged() -> None:
    g = new("fractions", HANDS, start="1/3v", wrong_attempt_penalty=1)
    play = {"type": "play", "card": "1/2r", "claim": "equal"}
    events = g.apply(1, play)
    assert events[0]["type"] == "wrong_attempt"
    assert g.refused_cards(1) == {"1/2r": ["equal"]}
    hand = len(g.hands[1])
    assert refusal(g, 1, play).code == "already_refused"
    assert len(g.hands[1]) == hand  # no second penalty draw
    # A second wrong attempt of another card keeps the first.
    assert g.apply(1, {"type": "play", "card": "5/6b"})[0]["type"] == "wrong_attempt"
    assert set(g.refused_cards(1)) == {"1/2r", "5/6b"}
    stored = Game.from_dict(g.to_dict())
    assert stored.refused_cards(1) == g.refused_cards(1)


def _judged_refusal(game: Game, seat: int, action: dict[str, Any]) -> IllegalAction | None:
    try:
        game.apply(seat, action)
    except IllegalAction as exc:
        return exc if exc.code in ("not_equivalent", "wrong_denominator", "no_match") else None
    return None


@settings(max_examples=40, deadline=None)
@given(
    config=configs(("fractions",)),
    steps=st.integers(0, 60),
    claim=st.sampled_from([None, "equal", "denominator"]),
)
def test_no_card_is_judged_twice_under_the_same_claim_in_a_turn(
    config: Config, steps: int, claim: str | None
) -> None:
    """Anywhere in a game: a refused try, kept, is refused again unjudged and changes nothing."""
    options = {**config.options, "wrong_attempt_penalty": 0}
    game = Game.new("fractions", config.players, options=options, seed=config.seed)
    rng = random.Random(config.seed)
    for _ in range(steps):
        moves = [(s, a) for s in range(game.n) for a in game.legal_actions(s)]
        if not moves or game.view(None)["game_over"]:
            return
        game.apply(*rng.choice(moves))
    turn = game.view(None)["turn"]
    if turn is None:
        return
    for card in dict.fromkeys(c for c in game.hands[turn] if KIND[c] == "frac"):
        action: dict[str, Any] = {"type": "play", "card": card}
        if claim is not None:
            action["claim"] = claim
        refused = _judged_refusal(game, turn, action)
        if refused is None:
            continue
        game.note_refusal(turn, refused)
        before = game.to_dict()
        with pytest.raises(IllegalAction) as again:
            game.apply(turn, action)
        assert again.value.code == "already_refused"
        assert game.to_dict() == before
