"""Shared helpers for the scripted engine scenarios."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import Game, IllegalAction
from games.engine.cards import DECKS


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


def card_count(g: Game) -> int:
    """Return every card held, piled or discarded."""
    return sum(len(h) for h in g.hands) + len(g.pile) + len(g.discard)


def assert_conserved(g: Game) -> None:
    """Assert that the cards make up exactly the ruleset's deck."""
    held = sorted([c for h in g.hands for c in h] + g.pile + g.discard)
    assert held == sorted(DECKS[g.ruleset])
