"""Create a table: its rules, settings and seats, and deal its first round."""

from __future__ import annotations

import random
from typing import Any

from django.db import transaction

from games.engine import Game, IllegalAction
from games.models import Seat, Table
from games.players import PICTURES
from games.services.awaiting import _arm_timer
from games.services.outcomes import SeatSpec, _refusal

MAX_SEED = 2**62


def table_create(
    *,
    ruleset: str,
    seats: list[SeatSpec],
    kind: str = Table.Kind.PRACTICE,
    options: dict[str, Any] | None = None,
    table_settings: dict[str, Any] | None = None,
    created_by: Any = None,
    seed: int | None = None,
    setup: dict[str, Any] | None = None,
) -> Table:
    """Create a table and deal its first round; raise TableError on bad rules or options."""
    seed = random.SystemRandom().randrange(MAX_SEED) if seed is None else seed
    try:
        game = Game.new(ruleset, len(seats), options=options or None, seed=seed, setup=setup)
    except IllegalAction as exc:
        raise _refusal(exc) from exc
    with transaction.atomic():
        table = Table.objects.create(
            ruleset=ruleset,
            options=options or {},
            play_settings=_clean_settings(table_settings or {}, kind),
            kind=kind,
            seed=seed,
            setup=setup,
            state=game.to_dict(),
            created_by=created_by,
            last_moves={},
        )
        Seat.objects.bulk_create(
            Seat(
                table=table,
                index=index,
                user_id=spec.user_id,
                bot=spec.bot,
                bot_profile=spec.bot_profile,
                name=spec.name,
            )
            for index, spec in enumerate(seats)
        )
        _arm_timer(table, game, list(table.seats.all()))
        table.save(update_fields=["deadline"])
    return table


def _clean_settings(raw: dict[str, Any], kind: str = Table.Kind.PRACTICE) -> dict[str, Any]:
    """Keep the known table settings; the accessible mode never runs a turn timer.

    Pictures of fractions only at a practice table: a class session's cards are scored, and a
    child there would match shapes where the diagnosis reads symbols.
    """
    accessible = bool(raw.get("accessible", False))
    timer = 0 if accessible else max(0, min(int(raw.get("turn_timer", 0) or 0), 600))
    return {
        "turn_timer": timer,
        "accessible": accessible,
        "highlight_playable": bool(raw.get("highlight_playable", False)),
        # The teacher's "animations off" and "no sound" (the play page's motion.js, sound.js).
        "animations": bool(raw.get("animations", True)),
        "sound": bool(raw.get("sound", True)),
        # Percent of refused "equal" claims after which the student is asked why (lessons).
        "ask_reason": max(0, min(int(raw.get("ask_reason", 0) or 0), 100)),
        # Seconds a table without a turn timer waits for a player who has not come to it yet
        # (never acted there) before a robot plays their seat; 0 = wait for ever. Never while
        # the player is present (games.presence).
        "arrival_wait": max(0, min(int(raw.get("arrival_wait", 0) or 0), 600)),
        # The game waits for every player to come to the table (a class session's next game):
        # no robot nor timer moves before; cleared once nobody is awaited (see _gather).
        "gather": bool(raw.get("gather", False)),
        # Pictures of the fractions on the cards ("bar", "line"; "": none), practice only.
        "pictures": str(raw.get("pictures"))
        if kind == Table.Kind.PRACTICE and raw.get("pictures") in PICTURES
        else "",
    }
