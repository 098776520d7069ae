"""A player's action on a table (table_act): the only path by which a player changes a game.

It runs in one transaction: lock the table row, check the client's `state_id`, apply the
action with the engine, store the event and the new state, commit, and only then broadcast
(transaction.on_commit). Actions on one table are therefore applied one at a time, also
across several server processes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import host, listeners, store
from games.engine import Game, IllegalAction
from games.engine.fractions import is_fraction_card
from games.errors import TableError
from games.models import Seat, Table
from games.players import pictures_on
from games.refusals import refusal_record, table_game
from games.services.commit import Actor, _commit
from games.services.outcomes import NOT_SEATED, TABLE_FINISHED, Outcome, _details, _refusal
from games.services.seats import _seat_changed
from games.services.table_lock import _last_moves, _lock

# Refusals that are a judgement of a fraction play (logged as attempts), not a slip.
JUDGED_ERROR_CODES = frozenset({"not_equivalent", "wrong_denominator", "no_match"})

STALE_STATE = _("The game moved on before your action arrived. Here is the current state.")
TABLE_PAUSED = _("The teacher has paused this table.")
BAD_ACTION = _("This action is not understood.")
NOT_ALLOWED = _("Only the teacher of this class can do that.")


def table_act(
    *, table_id: int, user: Any, action: Any, state_id: Any, publish: bool = True
) -> Outcome:
    """Apply a player's action; raise TableError (nothing changed) when it is refused.

    The flow: lock the table, let the engine apply the action, ask the table host (games.host)
    what to write (lessons: the attempt log), store it all, broadcast after commit. A wrong
    fraction play the engine refuses is still a judged play: its rows are committed (nothing of
    the table changes), then the refusal is raised.

    `publish=False`: the caller (the mover's link) sends the outcome's `update` to its player,
    then through the outbox to the other seats (games.outbox.send_soon).
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise TableError("bad_action", BAD_ACTION)
    if not isinstance(state_id, int) or isinstance(state_id, bool):
        raise TableError("bad_state_id", BAD_ACTION)
    with transaction.atomic():
        table_host = host.registered()
        locked = _lock(table_id, table_host.seat_row)
        table, seat = locked.table, _seat_of(locked, user)
        if table.status == Table.Status.PAUSED:
            raise TableError("paused", TABLE_PAUSED)
        if table.status == Table.Status.FINISHED:
            raise TableError("finished", TABLE_FINISHED)
        if seat.bot_takeover:
            # The student is back: the seat is theirs again. A robot moves every bot_delay(),
            # so their first action often arrives late: it still gives the seat back (and
            # plays nothing); the broadcast sends them the current state to play on.
            seat.bot_takeover = False
            seat.save(update_fields=["bot_takeover"])
            if state_id != table.state_id:
                return _seat_changed(locked, seat.index, publish=publish)
        if state_id != table.state_id:
            raise TableError("stale_state", STALE_STATE, {"state_id": table.state_id})
        move = _Move.start(locked, seat, user, action)
        try:
            events = move.game.apply(seat.index, action)
        except IllegalAction as exc:
            # A card refused this turn, tried again without a new claim, is `already_refused`:
            # not a judgement, so nothing is stored (issue 30 §1.8).
            if not (move.judged and exc.code in JUDGED_ERROR_CODES):
                raise _refusal(exc) from exc
            writes = table_host.judged_play(move.judged_play(refused=exc))
            if move.game.note_refusal(seat.index, exc):
                # Kept beside the state (which replays from the stored actions alone).
                table.refused = refusal_record(table, move.game, seat.index)
                store.store(table=table, fields=["refused"], writes=writes)
            else:
                store.store(writes=writes)
            refused = _refusal(exc)
        else:
            writes = table_host.judged_play(move.judged_play(events=events)) if move.judged else []
            writes += table_host.player_action(move.player_action(events))
            applied = [(seat.index, action, events, Actor.PLAYER)]
            return _commit(locked, move.game, applied, user, writes, publish=publish)
    raise refused  # after the commit: the judged play's rows are kept


@dataclass(frozen=True)
class _Move:
    """What a player's move tells the listener, before and after the engine applies it."""

    locked: store.LockedTable
    seat: Seat
    user_id: int | None
    action: dict[str, Any]
    game: Game
    judged: bool
    view_before: dict[str, Any]
    response_ms: int

    @classmethod
    def start(
        cls, locked: store.LockedTable, seat: Seat, user: Any, action: dict[str, Any]
    ) -> _Move:
        """Read what the listener is told from the locked table, before the engine acts."""
        table = locked.table
        game = table_game(table)  # with the cards refused this turn
        fractions = table.ruleset == "fractions"
        return cls(
            locked=locked,
            seat=seat,
            user_id=getattr(user, "pk", None),
            action=action,
            game=game,
            judged=fractions and _is_fraction_play(action),
            view_before=game.view(seat.index) if fractions else {},
            response_ms=int((timezone.now() - table.updated_at).total_seconds() * 1000),
        )

    def judged_play(
        self, *, events: list[dict[str, Any]] | None = None, refused: IllegalAction | None = None
    ) -> listeners.JudgedPlay:
        """Describe the judged play: refused by the engine, or applied with `events`."""
        wrong = refused is None and _has_wrong_attempt(events or [])
        error_code = refused.code if refused is not None else ("wrong_attempt" if wrong else None)
        return listeners.JudgedPlay(
            table_id=self.locked.table.pk,
            seat=self.seat.index,
            seat_id=self.seat.pk,
            user_id=self.user_id,
            action=self.action,
            view_before=self.view_before,
            accepted=refused is None and not wrong,
            error_code=error_code,
            details=_details(refused) if refused is not None else {},
            events=events or [],
            response_ms=self.response_ms,
            moves=self.locked.table.moves,
            seat_row=self.locked.seat_rows.get(self.seat.index),
            last_moves=_last_moves(self.locked.table),
            pictures=pictures_on(self.locked.table),
        )

    def player_action(self, events: list[dict[str, Any]]) -> listeners.PlayerAction:
        """Describe the applied action."""
        return listeners.PlayerAction(
            table_id=self.locked.table.pk,
            ruleset=self.locked.table.ruleset,
            seat=self.seat.index,
            seat_id=self.seat.pk,
            user_id=self.user_id,
            action=self.action,
            view_before=self.view_before,
            events=events,
            response_ms=self.response_ms,
            moves=self.locked.table.moves,
            seat_row=self.locked.seat_rows.get(self.seat.index),
            last_moves=_last_moves(self.locked.table),
        )


def _seat_of(locked: store.LockedTable, user: Any) -> Seat:
    if not getattr(user, "is_authenticated", False):
        raise TableError("not_seated", NOT_SEATED)
    seat = next((s for s in locked.seats if s.user_id == user.pk), None)
    if seat is None:
        raise TableError("not_seated", NOT_SEATED)
    return seat


def _is_fraction_play(action: dict[str, Any]) -> bool:
    return action.get("type") == "play" and is_fraction_card(action.get("card"))


def _has_wrong_attempt(events: list[dict[str, Any]]) -> bool:
    return any(event.get("type") == "wrong_attempt" for event in events)
