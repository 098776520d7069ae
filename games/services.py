"""Write operations on tables: the only path that changes a game.

Every change runs in one transaction: lock the table row, check the client's `state_id`,
apply the action with the engine, store the event and the new state, commit, and only then
broadcast (transaction.on_commit). Actions on one table are therefore applied one at a time,
also across several server processes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import host, listeners, presence, store
from games.broadcast import broadcast_table_notice, broadcast_table_update, update_message
from games.engine import Game, IllegalAction
from games.engine.bots import play_bot_step
from games.engine.fractions import is_fraction_card
from games.errors import TableError
from games.models import Seat, Table, TableEvent
from games.players import robot_name, table_info
from games.refusals import refusal_record, table_game

Actor = TableEvent.Actor

MAX_SEED = 2**62


def bot_delay() -> float:
    """Return the pause before a bot moves, so players can follow (setting GAMES_BOT_DELAY)."""
    return float(getattr(settings, "GAMES_BOT_DELAY", 1.2))


def round_pause() -> float:
    """Return the pause before an unattended next round starts (setting GAMES_ROUND_PAUSE)."""
    return float(getattr(settings, "GAMES_ROUND_PAUSE", 10.0))


# Refusals that are a judgement of a fraction play (logged as attempts), not a slip.
JUDGED_ERROR_CODES = frozenset({"not_equivalent", "wrong_denominator", "no_match"})

STALE_STATE = _("The game moved on before your action arrived. Here is the current state.")
NOT_SEATED = _("You do not have a seat at this table.")
TABLE_NOT_FOUND = _("This table does not exist.")
TABLE_PAUSED = _("The teacher has paused this table.")
TABLE_FINISHED = _("This game is over.")
BAD_ACTION = _("This action is not understood.")
NOT_ALLOWED = _("Only the teacher of this class can do that.")


@dataclass(frozen=True)
class SeatSpec:
    """Who sits on a seat when a table is created."""

    name: str
    user_id: int | None = None
    bot: str = ""
    bot_profile: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NextStep:
    """When the server must act on a table by itself (a bot's move or a timer)."""

    table_id: int
    state_id: int
    delay: float


@dataclass(frozen=True)
class Outcome:
    """What an applied action produced."""

    table_id: int
    state_id: int
    events: list[dict[str, Any]]
    next_step: NextStep | None
    # The `table.update` message this action committed (games.broadcast), or None: the mover's
    # link sends it to its own player (`table_act(..., publish=False)`).
    update: dict[str, Any] | None = None


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
            play_settings=_clean_settings(table_settings or {}),
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


def _clean_settings(raw: dict[str, Any]) -> dict[str, Any]:
    """Keep the known table settings; the accessible mode never runs a turn timer."""
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
    }


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


def table_step(*, table_id: int, state_id: int, now: datetime | None = None) -> Outcome | None:
    """Let the server act once on a table: a bot's move or an expired turn timer.

    Does nothing (returns None) when the table moved on since `state_id` was scheduled, so
    the same step scheduled twice, or in two processes, is applied at most once.
    """
    now = now or timezone.now()
    with transaction.atomic():
        try:
            locked = _lock(table_id)
        except TableError:
            return None
        table = locked.table
        if table.state_id != state_id or table.status != Table.Status.PLAYING:
            return None
        game = Game.from_dict(table.state)
        public = game.view(None)
        if public.get("winner") is not None:
            return None
        if public.get("round_over"):
            events = game.apply(0, {"type": "next_round"})
            return _commit(locked, game, [(0, {"type": "next_round"}, events, Actor.TIMER)], None)
        seat_index = due_seat(public)
        if seat_index is None:
            return None
        gathered = False  # the gathering ends in this step
        if _gathering(table):
            gathered = _step_gathering(locked, game, now)
            if not gathered:  # still awaiting someone: nothing moves, look again later
                step = next_step_for(table, game, locked.seats, now)
                return Outcome(table.pk, table.state_id, [], step)
        return _step_seat(locked, game, seat_index, now, gathered)


def _step_gathering(locked: store.LockedTable, game: Game, now: datetime) -> bool:
    """Give robots to who has left a gathering table; tell whether the gathering is over."""
    table = locked.table
    changed = _gather(locked, game, now)
    gathered = not _gathering(table)
    if changed or gathered:  # seats, settings or the deadline changed: every page hears
        _broadcast_after_commit(locked)
    return gathered


def _step_seat(
    locked: store.LockedTable, game: Game, seat_index: int, now: datetime, gathered: bool
) -> Outcome | None:
    """Act for the due seat: a robot's move, the turn timer's, or a later look at an awaited
    player (`gathered`: the table's gathering has just ended, its next step is planned)."""
    table = locked.table
    seat = next(s for s in locked.seats if s.index == seat_index)
    if not seat.is_automatic and _arrival_overdue(table, seat, seat_index, now):
        _give_to_robot(seat)  # the player never came: a robot plays until they do
    if seat.is_automatic:
        rng = random.Random(table.seed * 1_000_003 + table.state_id)
        step = play_bot_step(game, seat_index, seat.bot, rng, seat.bot_profile or None)
        if step is None:
            return None
        # A wrong attempt that cost a penalty changed the game: it is stored too.
        applied = [(seat_index, w.action, w.events, Actor.BOT) for w in step.wrong if w.events]
        applied.append((seat_index, step.action, step.events, Actor.BOT))
        return _commit(locked, game, applied, None)
    timer = int(table.play_settings.get("turn_timer", 0) or 0)
    if timer and table.deadline is not None and table.deadline <= now:
        action = game.timeout_action(seat_index)
        events = game.apply(seat_index, action)
        turns = _timer_turns_in_a_row(table, seat_index, action, events)
        if turns >= TIMER_TURNS_BEFORE_BOT and not presence.is_present(seat, now):
            _give_to_robot(seat)  # absent: a present child keeps the seat whatever the timer
        return _commit(locked, game, [(seat_index, action, events, Actor.TIMER)], None)
    at = _robot_time_now(table, seat, seat_index, now)
    if at is not None:
        # An awaited player who is present: looked at again when their signs may stop.
        return Outcome(table.pk, table.state_id, [], _look_again(table, at, now))
    if gathered:  # the game goes: its turn timer (if any) is planned from now
        return Outcome(table.pk, table.state_id, [], next_step_for(table, game, locked.seats, now))
    return None


# After this many turns in a row played by the turn timer, a robot plays the seat (with real
# plays, at bot pace) until its student acts again: a table of absent players then finishes.
TIMER_TURNS_BEFORE_BOT = 3


def _timer_turns_in_a_row(
    table: Table, seat_index: int, action: dict[str, Any], events: list[dict[str, Any]]
) -> int:
    """Count the seat's turns the timer played in a row, ending with ``action`` (0 if the
    turn goes on).

    Derived from the stored events (their actor), not kept in the game: who played a move is
    a fact of the table's log, not of the rules, and the engine has no clock. A turn the
    timer played ends with its `pass` or `accept`, or with a `draw` that passed at once; any
    move of the student or of a robot on the seat breaks the run. The `next_round` moves the
    server makes between rounds (stored on seat 0) are no one's turn and are skipped.
    """
    if not _ends_turn(action, events):
        return 0
    turns = 1
    rows = (
        TableEvent.objects.filter(table=table, seat=seat_index)
        .exclude(action__type="next_round")
        .order_by("-seq")
        .values_list("actor", "action", "result")
    )
    for actor, stored, result in rows[: 2 * TIMER_TURNS_BEFORE_BOT]:
        if actor != Actor.TIMER:
            break
        turns += _ends_turn(stored, result)
    return turns


def _ends_turn(action: dict[str, Any], events: list[dict[str, Any]]) -> bool:
    """Tell whether a timer move ended the seat's turn (a draw may leave a card to play)."""
    return action.get("type") != "draw" or any(e.get("type") == "passed" for e in events)


def _not_arrived(table: Table, seat_index: int) -> bool:
    """Tell whether a seat's player has never acted at this table (robots and timer included).

    Read from Table.last_moves; a table without it counts everyone as come.
    """
    last_moves = _last_moves(table)
    return last_moves is not None and seat_index not in last_moves


def _gathering(table: Table) -> bool:
    """Tell whether the table's game still waits for its players to come (setting "gather")."""
    return bool(table.play_settings.get("gather"))


def _not_come(table: Table, seat: Seat) -> bool:
    """Tell whether a player's seat has had no sign of its player at this table, nor a move."""
    return (
        seat.user_id is not None
        and not seat.is_automatic
        and seat.last_seen is None
        and _not_arrived(table, seat.index)
    )


def _awaited(table: Table, seat: Seat, acting: int | None) -> bool:
    """Tell whether a robot may take this seat of a player who has not come (or not played).

    While the table gathers: any seat whose player has not come. Then, on a table without a
    turn timer: the seat the game waits on, if its player has never acted there.
    """
    if seat.user_id is None or seat.is_automatic:
        return False
    if _gathering(table):
        return _not_come(table, seat)
    return (
        not table.play_settings.get("turn_timer")
        and acting == seat.index
        and _not_arrived(table, seat.index)
    )


def robot_time(
    table: Table, seat: Seat, last_sign: datetime | None, acting: int | None
) -> datetime | None:
    """Return when a robot takes an awaited seat if its player gives no sign (None: never).

    The arrival wait runs from the table's start while it gathers, else from the move that
    made the seat due (Table.updated_at; a stated deadline wins); and never ends before
    PRESENT_FOR after the player's last sign (`last_sign`, games.presence.last_sign): a child
    who is there never loses the seat. `acting`: the seat the game waits on.
    """
    wait = int(table.play_settings.get("arrival_wait", 0) or 0)
    if not wait or table.status != Table.Status.PLAYING or not _awaited(table, seat, acting):
        return None
    if table.deadline is not None and not _gathering(table):
        at = table.deadline
    else:
        since = table.created_at if _gathering(table) else table.updated_at
        at = since + timedelta(seconds=wait)
    if last_sign is not None:
        at = max(at, last_sign + presence.present_for())
    return at


def _robot_time_now(table: Table, seat: Seat, acting: int | None, now: datetime) -> datetime | None:
    """Return robot_time with the player's last sign, read only for an awaited seat."""
    if not table.play_settings.get("arrival_wait") or not _awaited(table, seat, acting):
        return None
    return robot_time(table, seat, presence.last_sign(seat, now), acting)


def _arrival_overdue(table: Table, seat: Seat, acting: int | None, now: datetime) -> bool:
    """Tell whether the arrival wait of a seat whose player never came has run out."""
    at = _robot_time_now(table, seat, acting, now)
    return at is not None and at <= now


def _gather(locked: store.LockedTable, game: Game, now: datetime) -> bool:
    """Hand to robots the seats of players who have not come in time and are absent; end the
    gathering once nobody is awaited. Tell whether a seat changed hands."""
    table = locked.table
    changed = False
    for seat in locked.seats:
        if _not_come(table, seat) and _arrival_overdue(table, seat, game.acting_seat(), now):
            _give_to_robot(seat)
            changed = True
    if not any(_not_come(table, seat) for seat in locked.seats):
        _end_gathering(table, game, locked.seats, now)
    return changed


def _end_gathering(table: Table, game: Game, seats: list[Seat], now: datetime) -> None:
    """Let the game go: bots and the turn timer move from now on."""
    table.play_settings = {**table.play_settings, "gather": False}
    _arm_timer(table, game, seats, now)
    table.save(update_fields=["play_settings", "deadline"])


def seat_came(*, table_id: int, seat_index: int, now: datetime | None = None) -> NextStep | None:
    """Let the table know that a seat's player came, or came back (games.presence.mark_seen).

    A gathering table whose last awaited player this is starts its game; a stated arrival
    wait ends. A seat a robot plays stays the robot's until the student acts (or taps "Take
    my seat back"): a page that opens says nothing of who sits before it (docs/engine.md).
    Return the server's next step on the table (the caller plans it), or None.
    """
    now = now or timezone.now()
    with transaction.atomic():
        try:
            locked = _lock(table_id)
        except TableError:
            return None
        table = locked.table
        seat = next((s for s in locked.seats if s.index == seat_index), None)
        if seat is None or seat.user_id is None or table.status == Table.Status.FINISHED:
            return None
        game = Game.from_dict(table.state)
        before = table.deadline
        gathered = _gathering(table) and not any(_not_come(table, s) for s in locked.seats)
        if gathered:
            _end_gathering(table, game, locked.seats, now)
        elif _gathering(table) or not table.play_settings.get("turn_timer"):
            # Only an arrival wait ends here: a running turn timer is not restarted.
            _arm_timer(table, game, locked.seats, now)
            table.save(update_fields=["deadline"])
        if gathered or table.deadline != before:
            _broadcast_after_commit(locked)
        return next_step_for(table, game, locked.seats, now)


def _give_to_robot(seat: Seat) -> None:
    """Let a robot play an absent student's seat until the student acts again."""
    seat.bot_takeover = True
    seat.bot = seat.bot or Seat.Bot.HEURISTIC
    seat.save(update_fields=["bot_takeover", "bot"])


def due_seat(public_view: dict[str, Any]) -> int | None:
    """Return the seat the game waits on, as the engine's view tells it (``acting``)."""
    acting = public_view.get("acting")
    return int(acting) if acting is not None else None


# The soonest the server looks again at a table that waits for a player's signs to stop.
MIN_LOOK_AGAIN = 1.0


def next_step_for(
    table: Table,
    game: Game | None = None,
    seats: list[Seat] | None = None,
    now: datetime | None = None,
) -> NextStep | None:
    """Tell when the server must act next on this table, if ever (`seats`: read if not given).

    A gathering table, or a seat awaited for its arrival, is looked at again when a robot
    may take an awaited seat (robot_time), however long its present player keeps it.
    """
    if table.status != Table.Status.PLAYING:
        return None
    now = now or timezone.now()
    game = game or Game.from_dict(table.state)
    public = game.view(None)
    if public.get("winner") is not None:
        return None
    seats = list(table.seats.all()) if seats is None else seats
    acting = game.acting_seat()
    if _gathering(table) and any(_not_come(table, s) for s in seats):
        return _gathering_step(table, seats, acting, now)
    if public.get("round_over"):
        return NextStep(table.pk, table.state_id, round_pause())
    seat_index = due_seat(public)
    if seat_index is None:
        return None
    seat = next((s for s in seats if s.index == seat_index), None)
    if seat is not None and seat.is_automatic:
        return NextStep(table.pk, table.state_id, bot_delay())
    if seat is not None and (at := _robot_time_now(table, seat, acting, now)):
        return _look_again(table, at, now)
    if table.deadline is not None and table.play_settings.get("turn_timer"):
        delay = max(0.0, (table.deadline - now).total_seconds())
        return NextStep(table.pk, table.state_id, delay)
    return None


def _gathering_step(
    table: Table, seats: list[Seat], acting: int | None, now: datetime
) -> NextStep | None:
    """Plan the look at a gathering table when a robot may take an awaited seat (or never)."""
    times = [
        at
        for s in seats
        if _not_come(table, s) and (at := _robot_time_now(table, s, acting, now)) is not None
    ]
    return _look_again(table, min(times), now) if times else None


def _look_again(table: Table, at: datetime, now: datetime) -> NextStep:
    delay = max(MIN_LOOK_AGAIN, (at - now).total_seconds())
    return NextStep(table.pk, table.state_id, delay)


Applied = tuple[int, dict[str, Any], list[dict[str, Any]], Actor]


def _commit(
    locked: store.LockedTable,
    game: Game,
    applied: list[Applied],
    user: Any,
    writes: list[store.Write] | None = None,
    *,
    publish: bool = True,
) -> Outcome:
    """Store the applied actions, the new state and the listener's `writes`; broadcast after
    commit (unless the caller publishes the outcome's update itself)."""
    table = locked.table
    first_seq = table.moves + 1
    kept_last_moves = _last_moves(table)
    table.state = game.to_dict()
    table.state_id += 1
    table.moves += len(applied)
    if game.view(None).get("winner") is not None:
        table.status = Table.Status.FINISHED
    rows = [
        TableEvent(
            table=table,
            seq=first_seq + offset,
            state_id=table.state_id,
            seat=seat_index,
            actor=actor,
            user_id=user.pk if actor == Actor.PLAYER and getattr(user, "pk", None) else None,
            action=action,
            result=events,
        )
        for offset, (seat_index, action, events, actor) in enumerate(applied)
    ]
    # Kept only while whole: an event stored by another path makes it unknown, never wrong.
    table.last_moves = (
        None
        if kept_last_moves is None
        else {
            **{str(k): v for k, v in kept_last_moves.items()},
            **{str(r.seat): r.seq for r in rows},
        }
    )
    _arm_timer(table, game, locked.seats, timezone.now())  # after last_moves: who has come
    store.store(table=table, fields=_MOVE_FIELDS, events=rows, writes=writes or [])
    all_events = [event for _seat, _action, events, _actor in applied for event in events]
    table_id, state_id, state = table.pk, table.state_id, table.state
    info = table_info(table=table, seats=locked.seats)
    update = _update(table_id, state_id, state, all_events, info, publish)
    step = next_step_for(table, game, locked.seats)
    return Outcome(table.pk, table.state_id, all_events, step, update)


def _update(
    table_id: int,
    state_id: int,
    state: dict[str, Any],
    events: list[dict[str, Any]],
    info: dict[str, Any],
    publish: bool,
) -> dict[str, Any]:
    """Build the table's update; queue it for after commit unless the caller publishes it."""
    if publish:
        return broadcast_table_update(table_id, state_id, state, events, info)
    return update_message(table_id, state_id, state, events, info)


def _arm_timer(table: Table, game: Game, seats: list[Seat], now: datetime | None = None) -> None:
    """Set the deadline the table's players see: the turn timer, or an absent player's wait.

    The engine's acting seat is the one timed (nobody between rounds or after the game).
    While the table gathers, no turn timer runs. Without a turn timer, only the wait of an
    awaited player who is absent is stated (robot_time): a present one sees no countdown.
    """
    now = now or timezone.now()
    timer = int(table.play_settings.get("turn_timer", 0) or 0)
    wait = int(table.play_settings.get("arrival_wait", 0) or 0)
    table.deadline = None
    if not (timer or wait) or table.status != Table.Status.PLAYING:
        return
    seat_index = game.acting_seat()
    if seat_index is None:
        return
    seat = next((s for s in seats if s.index == seat_index), None)
    if seat is None or seat.is_automatic:
        return
    if timer and not _gathering(table):
        table.deadline = now + timedelta(seconds=timer)
        return
    if not wait or not _awaited(table, seat, seat_index) or presence.is_present(seat, now):
        return
    since = table.created_at if _gathering(table) else now
    table.deadline = since + timedelta(seconds=wait)


_MOVE_FIELDS = ["state", "state_id", "moves", "status", "deadline", "updated_at", "last_moves"]


def _lock(table_id: int, seat_row: Any = None) -> store.LockedTable:
    """Lock the table row for this transaction, with its seats; raise TableError if none."""
    locked = store.lock(table_id, seat_row)
    if locked is None:
        raise TableError("table_not_found", TABLE_NOT_FOUND)
    return locked


def _last_moves(table: Table) -> dict[int, int] | None:
    """Return each seat's last stored action (None: not kept).

    Trusted only when its last action is the table's (`moves`): an event stored by another
    path than _commit makes it unknown, never wrong.
    """
    kept = table.last_moves
    if not isinstance(kept, dict):
        return None
    seqs = {int(seat): int(seq) for seat, seq in kept.items()}
    return seqs if max(seqs.values(), default=0) == table.moves else None


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


def _details(exc: IllegalAction) -> dict[str, Any]:
    """Return the engine's details of a refusal (a copy)."""
    details = getattr(exc, "details", None)
    return dict(details) if isinstance(details, dict) else {}


def _refusal(exc: IllegalAction) -> TableError:
    """Turn the engine's refusal into the web layer's, keeping its fr and en wording."""
    messages = getattr(exc, "messages", None)
    return TableError(
        exc.code,
        str(exc),
        _details(exc),
        dict(messages) if isinstance(messages, dict) else None,
    )


def seat_set_takeover(*, table_id: int, seat_index: int, by_bot: bool) -> Outcome | None:
    """Let a bot play for an absent student (or give the seat back); callers check access."""
    with transaction.atomic():
        locked = _lock(table_id)
        table = locked.table
        seat = next(
            (s for s in locked.seats if s.index == seat_index and s.user_id is not None), None
        )
        if seat is None:
            raise TableError("bad_seat", NOT_SEATED)
        seat.bot_takeover = by_bot
        if by_bot and not seat.bot:
            seat.bot = Seat.Bot.HEURISTIC
        seat.save(update_fields=["bot_takeover", "bot"])
        game = Game.from_dict(table.state)
        _arm_timer(table, game, locked.seats)
        table.save(update_fields=["deadline"])
        _broadcast_after_commit(locked)
        step = next_step_for(table, game, locked.seats)
        state_id = table.state_id
    return Outcome(table_id, state_id, [], step)


def table_set_paused(*, table_id: int, paused: bool) -> None:
    """Pause or resume a table; callers check access."""
    with transaction.atomic():
        locked = _lock(table_id)
        table = locked.table
        if table.status == Table.Status.FINISHED:
            return
        table.status = Table.Status.PAUSED if paused else Table.Status.PLAYING
        _arm_timer(table, Game.from_dict(table.state), locked.seats)
        table.save(update_fields=["status", "deadline"])
        _broadcast_after_commit(locked)


def _broadcast_after_commit(locked: store.LockedTable, *, publish: bool = True) -> dict[str, Any]:
    """Send the table's unchanged game with its new seats or status, after commit."""
    table = locked.table
    info = table_info(table=table, seats=locked.seats)
    return _update(table.pk, table.state_id, table.state, [], info, publish)


# Seat changes and the end of a game, for the class sessions (and any other caller).
NO_FREE_SEAT = _("This table has no robot seat a student could take.")
ALREADY_SEATED = _("This player already has a seat at this table.")
BAD_BOT = _("This kind of robot does not exist.")


def table_finish(*, table_id: int) -> None:
    """Stop a table's game for good (a class session ended, or no player is left at it)."""
    with transaction.atomic():
        _finish(_lock(table_id))


def table_announce_end(*, table_id: int) -> None:
    """Tell every page of a table, after commit, that its activity (a class session) ended.

    Its game may be over already: the pages still showing that game's end hear it too, and
    stop offering a next game.
    """
    state_id = Table.objects.filter(pk=table_id).values_list("state_id", flat=True).first()
    if state_id is not None:
        broadcast_table_notice(table_id, int(state_id), ACTIVITY_ENDED)


# The notice a table's pages get when its activity ends (docs/protocol.md, `notice`).
ACTIVITY_ENDED = "activity_ended"


def seat_give_to_bot(
    *,
    table_id: int,
    user_id: int,
    bot_kind: str = Seat.Bot.HEURISTIC,
    name: str | None = None,
) -> Outcome:
    """Hand a player's seat to a bot for good; finish the table when no player is left.

    The bot keeps the hand. `name` defaults to the first free "Robot n". A finished table
    keeps its seats as the record. Raises TableError (nothing changed): "bad_bot",
    "not_seated", "finished".
    """
    if bot_kind not in Seat.Bot.values:
        raise TableError("bad_bot", BAD_BOT)
    with transaction.atomic():
        locked = _lock(table_id)
        table, seats = locked.table, locked.seats
        if table.status == Table.Status.FINISHED:
            raise TableError("finished", TABLE_FINISHED)
        seat = next((s for s in seats if s.user_id == user_id), None)
        if seat is None:
            raise TableError("not_seated", NOT_SEATED)
        seat.user = None
        seat.bot = seat.bot or bot_kind
        seat.bot_takeover = False
        seat.name = name or _free_robot_name(seats, seat)
        seat.save(update_fields=["user", "bot", "bot_takeover", "name"])
        if all(s.user_id is None for s in seats):
            _finish(locked)
            return Outcome(table.pk, table.state_id, [], None)
        return _seat_changed(locked, seat.index)


def seat_give_to_user(
    *, table_id: int, user_id: int, name: str, seat_index: int | None = None
) -> Outcome:
    """Seat a player in a bot's seat (the lowest one when `seat_index` is None), with its hand.

    Raises TableError (nothing changed): "finished", "already_seated", "no_free_seat".
    """
    with transaction.atomic():
        locked = _lock(table_id)
        table, seats = locked.table, locked.seats
        if table.status == Table.Status.FINISHED:
            raise TableError("finished", TABLE_FINISHED)
        if any(s.user_id == user_id for s in seats):
            raise TableError("already_seated", ALREADY_SEATED)
        free = [s for s in seats if s.user_id is None and s.bot and seat_index in (None, s.index)]
        if not free:
            raise TableError("no_free_seat", NO_FREE_SEAT)
        seat = min(free, key=lambda s: s.index)
        seat.user_id = user_id
        seat.name = name
        seat.bot_takeover = False
        seat.save(update_fields=["user", "name", "bot_takeover"])
        return _seat_changed(locked, seat.index)


def _finish(locked: store.LockedTable) -> None:
    """Mark a locked table finished, with no timer; broadcast after commit."""
    table = locked.table
    if table.status == Table.Status.FINISHED:
        return
    table.status = Table.Status.FINISHED
    table.deadline = None
    table.save(update_fields=["status", "deadline"])
    _broadcast_after_commit(locked)


def _seat_changed(locked: store.LockedTable, seat_index: int, *, publish: bool = True) -> Outcome:
    """Re-arm the turn timer if the changed seat is the one due; broadcast after commit.

    A seat that is not due keeps the table's deadline: another player's time is not reset.
    """
    table = locked.table
    game = Game.from_dict(table.state)
    if game.acting_seat() == seat_index:
        _arm_timer(table, game, locked.seats)
        table.save(update_fields=["deadline"])
    update = _broadcast_after_commit(locked, publish=publish)
    step = next_step_for(table, game, locked.seats)
    return Outcome(table.pk, table.state_id, [], step, update)


def _free_robot_name(seats: list[Seat], seat: Seat) -> str:
    taken = {s.name for s in seats if s is not seat}
    number = 1
    while robot_name(number) in taken:
        number += 1
    return robot_name(number)


def table_replay(table: Table) -> Game:
    """Replay a table from its seed and stored actions (the audit of what was played)."""
    game = Game.new(
        table.ruleset,
        table.seats.count(),
        options=table.options or None,
        seed=table.seed,
        setup=table.setup,
    )
    for event in table.events.order_by("seq"):
        game.apply(event.seat, event.action)
    return game


def _replace_strings(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_replace_strings(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: _replace_strings(item, old, new) for key, item in value.items()}
    return value


def player_name_replace(*, user_id: int, old: str, new: str) -> None:
    """Rename a player in their seats, and the name in those tables' states and logs.

    For erasure and pseudonymisation of a pupil (lessons.school.erasure): the other players'
    games go on, and the old name is left nowhere.
    """
    with transaction.atomic():
        seats = list(Seat.objects.filter(user_id=user_id))
        table_ids = {seat.table_id for seat in seats}
        for table in Table.objects.select_for_update().filter(pk__in=table_ids).order_by("pk"):
            table.state = _replace_strings(table.state, old, new)
            table.save(update_fields=["state"])
        Seat.objects.filter(user_id=user_id).update(name=new)
        for event in TableEvent.objects.filter(table_id__in=table_ids):
            action = _replace_strings(event.action, old, new)
            result = _replace_strings(event.result, old, new)
            if action != event.action or result != event.result:
                event.action, event.result = action, result
                event.save(update_fields=["action", "result"])
