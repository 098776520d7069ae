"""Shared helpers for the scripted engine scenarios."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import Game, IllegalAction
from games.engine.cards import DECKS, deck_for


def new(
    ruleset: str = "classic",
    hands: list[list[str]] | None = None,
    start: str = "5r",
    *,
    players: int | None = None,
    dealer: int = 0,
    pile: list[str] | None = None,
    seed: int = 1,
    **options: Any,
) -> Game:
    """Start a scripted game: dealer 0 by default, so seat 1 plays first."""
    setup: dict[str, Any] = {"dealer": dealer, "start": start}
    if hands is not None:
        setup["hands"] = hands
    if pile is not None:
        setup["pile"] = pile
    n = players if players is not None else len(hands or [[], []])
    return Game.new(ruleset, n, options=options, seed=seed, setup=setup)


def types(events: list[dict[str, Any]]) -> list[str]:
    """Return the event types in order."""
    return [e["type"] for e in events]


def rejects(g: Game, seat: int, action: dict[str, Any], code: str) -> IllegalAction:
    """Assert that the action raises ``code`` and leaves the game exactly as it was."""
    before = json.dumps(g.to_dict(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        g.apply(seat, action)
    assert info.value.code == code, info.value
    assert json.dumps(g.to_dict(), sort_keys=True) == before
    assert info.value.messages["fr"] and info.value.messages["en"]
    return info.value


def refusal(g: Game, seat: int, action: dict[str, Any]) -> IllegalAction:
    """Apply an action that must be refused; return the refusal."""
    try:
        g.apply(seat, action)
    except IllegalAction as exc:
        return exc
    raise AssertionError("the play was accepted")


def card_count(g: Game) -> int:
    """Return every card held, piled or discarded."""
    return sum(len(h) for h in g.hands) + len(g.pile) + len(g.discard)


def assert_conserved(g: Game) -> None:
    """Assert that the cards make up exactly the deck in use (the ruleset's, at its level)."""
    held = sorted([c for h in g.hands for c in h] + g.pile + g.discard)
    assert held == sorted(deck_for(g.ruleset, g.opts))


def rest_of_deck(ruleset: str, *used: list[str] | str) -> list[str]:
    """Return the deck less the named cards (to give a seat "everything else")."""
    deck = list(DECKS[ruleset])
    for group in used:
        for card in [group] if isinstance(group, str) else group:
            deck.remove(card)
    return deck


def turn_or_awaited(g: Game) -> int:
    """Return the seat that must act next (turn player or awaited seat)."""
    v = g.view(None)
    if v["turn"] is not None:
        return int(v["turn"])
    return int(v["awaiting"]["seat"])


def play_out(g: Game, seed: int = 0, *, rounds: int | None = None, max_steps: int = 50_000) -> None:
    """Play on with a simple random bot (plays first) until the game (or ``rounds``) ends."""
    import random

    rng = random.Random(seed)
    start_round = g.round
    for _ in range(max_steps):
        v = g.view(None)
        if v["game_over"]:
            return
        if v["round_over"]:
            if rounds is not None and g.round - start_round + 1 >= rounds:
                return
            seat = next(s for s in range(g.n) if s not in v["eliminated"])
        else:
            seat = turn_or_awaited(g)
        acts = g.legal_actions(seat)
        plays = [a for a in acts if a["type"] == "play"]
        g.apply(seat, rng.choice(plays or acts))
    raise AssertionError("the game did not end")
