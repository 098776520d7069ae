"""The fraction cards refused to a table's turn seat this turn (issue 30 §1.8).

A refused fraction play changes no state (without a wrong-attempt penalty), so the engine's
record of it (`Game.refused`, see docs/engine.md "Refused cards") cannot live in the stored
state, which replays from the stored actions alone. It is kept in `Table.refused` with the
state number it belongs to: valid while the table is at that state, forgotten by the next
applied action. Every reader of a seat's state (the play page, the catch-up, the move that
judges a repeat) builds the game through `table_game`, so the repeat is refused and the
page shows the card as tried, whichever process answers.
"""

from __future__ import annotations

from typing import Any

from games.engine import Game
from games.models import Table


def table_game(table: Table) -> Game:
    """Return the table's stored game with the refusals kept for its current state."""
    game = Game.from_dict(table.state)
    kept = table.refused
    if isinstance(kept, dict) and kept.get("state_id") == table.state_id:
        seat = kept.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool):
            game.keep_refused(seat, kept.get("cards"))
    return game


def refusal_record(table: Table, game: Game, seat: int) -> dict[str, Any]:
    """Return what `Table.refused` keeps after a refusal to `seat` noted in `game`."""
    return {"state_id": table.state_id, "seat": seat, "cards": game.refused_cards(seat)}
