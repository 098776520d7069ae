"""Pick the next move of a test player from the engine's legal actions (what to press).

The browser tests press the page's own buttons; this module only decides which one, using the
server's knowledge of the game, as a careful player would.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Game
from games.engine.cards import DEN, KIND


@dataclass(frozen=True)
class Move:
    """What a player does next: an action button, or a card and the answer to its question."""

    kind: str  # "card", "draw", "pass", "uno", "accept", "challenge", "next_round", "catch"
    card: str | None = None
    # The option the page's question must be answered with ("" = no denominator), if asked.
    answer: str | None = None


def page_asks_rule(game: Game, card: str) -> bool:
    """Tell whether the play page asks which fraction rule is used (same denominators)."""
    reference = game.view(None).get("reference")
    return (
        KIND[card] == "frac" and reference is not None and DEN[card] == int(reference.split("/")[1])
    )


def page_asks(game: Game, move: Move) -> bool:
    """Tell whether the page asks a question for this move (rule, or optional denominator)."""
    if move.kind != "card" or move.card is None:
        return False
    return page_asks_rule(game, move.card) or KIND[move.card] in ("+2", "wild", "+4")


def next_move(game: Game, seat: int) -> Move:
    """Choose a legal move: say UNO first, then play a card, else draw, pass or accept."""
    legal = game.legal_actions(seat)
    types = {a["type"] for a in legal}
    hand = game.view(seat)["hand"]
    if "uno" in types and len(hand) == 2:
        return Move("uno")
    plays = [a for a in legal if a["type"] == "play" and set(a) == {"type", "card"}]
    # Fractions first: they exercise the rule question; specials also ask a denominator.
    plays.sort(key=lambda a: KIND[a["card"]] != "frac")
    if plays:
        card = plays[0]["card"]
        if KIND[card] == "frac":
            if not page_asks_rule(game, card):
                return Move("card", card)
            rule = game._judge_fraction(card, None)
            return Move("card", card, "denominator" if rule in ("denominator", "both") else "equal")
        if KIND[card] in ("+2", "wild", "+4"):
            return Move("card", card, "")
        return Move("card", card)
    for kind in ("accept", "draw", "pass", "next_round"):
        if kind in types:
            return Move(kind)
    raise AssertionError(f"no move for seat {seat}: {legal}")
