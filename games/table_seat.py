"""One seat's live link on one table, whatever carries it: parse a frame, call a service,
send what the seat may see.

The WebSocket, the event stream and the POSTed frame are thin adapters around this class
(games.consumers): the access check, the frames in, the frames out, the catch-up and the
channel-layer messages are written once, here (docs/architecture.md)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import InterfaceError, OperationalError
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games import driver, hooks, outbox, presence
from games.broadcast import table_group, update_body, update_game
from games.catch_up import (
    MAX_STATES,
    frames_since,
    history_frames,
    log_frames,
    read_since,
    since_query,
)
from games.engine import Game
from games.errors import TableError
from games.protocol import (
    MAX_FRAME_BYTES,
    RATE_BURST,
    RATE_PER_SECOND,
    error_frame,
    event_items,
    refusal_example,
    state_frame,
)
from games.realtime import delivery_ledger, layer_watch
from games.realtime.asyncdb import in_thread
from games.realtime.link import CLOSE_NO_ACCESS, CLOSE_SIGNED_OUT, RealtimeLink
from games.realtime.signin import socket_user, still_signed_in
from games.selectors import table_access
from games.services import (
    JUDGED_ERROR_CODES,
    NextStep,
    Outcome,
    next_step_for,
    seat_came,
    table_act,
)

logger = logging.getLogger(__name__)

BAD_PING = _("A ping carries nothing but its type.")


class TableSeat(RealtimeLink):
    """One player's (or a watching teacher's) live link on one table, any transport."""

    max_frame_bytes = MAX_FRAME_BYTES
    rate_burst = RATE_BURST
    rate_per_second = RATE_PER_SECOND

    table_id: int
    seat: int | None
    # The last state this link sent: every event up to it has been sent too, once, in order
    # (from the live updates or from the log), since the link opened or its `since`.
    last_state_id: int
    # The layer watch's catch-up runs beside the socket's own messages: one at a time.
    turn: asyncio.Lock
    # While the link is open, it tells games.presence that its player is there.
    keeping_seen: asyncio.Task[None] | None = None
    # The sign (seat, time) of the frame being routed, not written yet: an action writes it in
    # its own thread hop.
    pending_sign: tuple[int, datetime] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.turn = asyncio.Lock()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Handle one message at a time, the layer watch's catch-up included."""
        async with self.turn:
            await super().dispatch(message)

    async def find_access(self) -> int | None:
        """Find the user's seat (or watching place) at the table; None, or a refusal's code."""
        user = socket_user(self.scope)
        if user is None:
            return CLOSE_SIGNED_OUT
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        try:
            access = await in_thread(table_access)(table_id=self.table_id, user=user)
        except TableError:
            return CLOSE_NO_ACCESS
        self.seat = access.seat
        self.last_state_id = -1
        return None

    async def connect(self) -> None:
        """Accept a signed-in user who is seated at the table or may watch it.

        With `since` (`?since=N`, or a stream's `Last-Event-ID`) the link starts with the
        events after state N (a page that reconnects); without it, with the last few events
        marked `replay` (a page opened afresh). Then the current state.
        """
        refusal = await self.find_access()
        if refusal is not None:
            await self.refuse(refusal)
            return
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        await self.open_link()
        layer_watch.attach(self)
        # Before the first state and its planned step: a player who comes may start the game.
        await self.seen()
        self._keep_seen()
        try:
            since = self.since_asked()
            if since is not None:
                await self._send_catch_up(since)
                return
        except TableError as exc:
            await self.send_error(exc)  # then as a link opened without `since`
        await self._send_history()
        await self.send_current_state()

    def since_asked(self) -> int | None:
        """Return the state the client asks to resume from (`?since=N`), None when absent.

        Raise TableError `bad_since` when it is not a state number.
        """
        return since_query(self.scope.get("query_string", b""))

    async def leave(self) -> None:
        """Leave the table's group; the seat stays the player's (no more signs from here)."""
        if self.keeping_seen is not None:
            self.keeping_seen.cancel()
        layer_watch.detach(self)
        if hasattr(self, "table_id"):
            with delivery_ledger.quiet_layer_errors():
                await self.channel_layer.group_discard(
                    table_group(self.table_id), self.channel_name
                )

    async def read_and_route(self, text_data: str | None, bytes_data: bytes | None) -> None:
        """Take every frame of a seated player as a sign that they are there, then route it.

        Any frame: an action, a refused card, a reason's answer, a `sync`, a heartbeat
        `ping` (games.presence). The socket and the POSTed frame both come this way. The
        sign is written before the frame is handled; an action's in the action's own thread
        hop (one hop a move, not two).
        """
        self.pending_sign = self._sign_due()
        await super().read_and_route(text_data, bytes_data)
        await self._give_sign()  # a frame refused before its route is a sign too

    def _sign_due(self) -> tuple[int, datetime] | None:
        """Return the sign (seat, time) of this seat's player due now (throttled), or None."""
        seat = getattr(self, "seat", None)
        now = timezone.now()
        if seat is None or not presence.write_due(table_id=self.table_id, seat_index=seat, now=now):
            return None
        return seat, now

    async def seen(self) -> None:
        """Record a sign of this seat's player (throttled); plan what their coming changes."""
        self.pending_sign = self._sign_due()
        await self._give_sign()

    async def _give_sign(self) -> None:
        """Write the pending sign, if any, and plan what the player's coming changes."""
        sign, self.pending_sign = self.pending_sign, None
        if sign is None:
            return
        try:
            step = await in_thread(_mark_seen)(self.table_id, *sign)
        except (OperationalError, InterfaceError) as exc:  # a sign is not worth a lost frame
            logger.warning("presence not recorded on table %s: %s", self.table_id, exc)
            return
        driver.schedule(step)

    def _keep_seen(self) -> None:
        """Give a sign of the seat's player while this link is open (socket or stream)."""
        if self.seat is not None and self.keeping_seen is None:
            self.keeping_seen = asyncio.get_running_loop().create_task(self._signs())

    async def _signs(self) -> None:
        while True:
            await asyncio.sleep(presence.refresh_seconds())
            try:
                await self.seen()
            except Exception:  # a failing write must not end the link's signs
                logger.exception("presence refresh failed on table %s", self.table_id)

    async def receive_frame(self, content: dict[str, Any]) -> None:
        """Route a checked frame by its type; an unknown type gets an error frame."""
        kind = content.get("type")
        if kind != "action":
            await self._give_sign()
        # An action asks in its own thread hop (`_action`); signed out in another tab: the
        # link ends with 4401 and nothing is applied.
        if kind in ("sync", "since", "reason", "compare") and not await self.check_signed_in():
            return
        if kind == "action":
            await self._action(content)
        elif kind == "sync":
            await self._send_missing()
        elif kind == "since":
            await self._since(content)
        elif kind == "reason":
            await self._reason(content)
        elif kind == "compare":
            await self._compare(content)
        elif kind == "ping":
            await self._pong(content)
        else:
            await self.send_error(TableError("unknown_type", _("Unknown message type.")))

    async def _pong(self, content: dict[str, Any]) -> None:
        """Answer the page's heartbeat (docs/protocol.md): no query, nothing stored."""
        if len(content) > 1:
            await self.send_error(TableError("bad_ping", BAD_PING))
            return
        await self.send_frame({"type": "pong"})

    async def _send_missing(self) -> None:
        """Send what this link has not sent yet (events from the log), then the state."""
        if self.last_state_id < 0:
            await self.send_current_state()
        else:
            await self._send_catch_up(self.last_state_id)

    async def _since(self, content: dict[str, Any]) -> None:
        """Answer "since state N": the stored events after N, then the state (or `bad_since`)."""
        try:
            await self._send_catch_up(read_since(content.get("state_id")))
        except TableError as exc:
            await self.send_error(exc)

    async def _action(self, content: dict[str, Any]) -> None:
        if self.seat is None:
            if await self.check_signed_in():
                await self.send_error(TableError("not_seated", _("You are watching this table.")))
            return
        sign, self.pending_sign = self.pending_sign, None
        acted = await in_thread(_act_unpublished)(
            self.scope if self.signin_check_due() else None,
            sign,
            table_id=self.table_id,
            user=self.scope["user"],
            action=content.get("action"),
            state_id=content.get("state_id"),
        )
        driver.schedule(acted.sign_step)
        if acted.unavailable is not None:
            raise acted.unavailable  # after planning what the sign changed (dispatch answers)
        signed_in, outcome, exc = acted.signed_in, acted.outcome, acted.refused
        if exc is not None:
            await self._send_refusal(exc)
            if exc.code == "stale_state" or exc.code in JUDGED_ERROR_CODES:
                await self._send_missing()
            return
        if signed_in is not None and not await self.signin_checked(signed_in):
            return
        if outcome is not None:
            if outcome.update is not None:
                await self._deliver(outcome.update)
            driver.schedule(outcome.next_step)

    async def _send_refusal(self, exc: TableError) -> None:
        """Send a refused action; a refused fraction play may ask the student why (lessons)."""
        prompt = example = None
        if exc.code in JUDGED_ERROR_CODES:
            user = self.scope["user"]
            prompt = await in_thread(hooks.reason_prompt)(self.table_id, user, self.lang)
            if self.seat is not None:  # a worked example at a practice table only
                example = await in_thread(refusal_example)(
                    self.table_id, self.seat, dict(exc.details), self.lang
                )
            if example is not None:  # then one question to compare (lessons), never evidence
                compare = await in_thread(hooks.compare_prompt)(
                    self.table_id, user, example, self.lang
                )
                if compare is not None:
                    example["compare"] = compare
        with translation.override(self.lang):
            frame = self.error_frame(exc)
        if prompt is not None:
            frame["ask_reason"] = prompt
        if example is not None:
            frame["example"] = example
        await self.send_frame(frame)

    async def _reason(self, content: dict[str, Any]) -> None:
        """Store the answer to the reason prompt (docs/protocol.md): `reason_saved` or an error."""
        try:
            await in_thread(hooks.reason_answer)(
                self.table_id, self.scope["user"], content.get("code")
            )
        except TableError as exc:
            await self.send_error(exc)
            return
        await self.send_frame({"type": "reason_saved"})

    async def _compare(self, content: dict[str, Any]) -> None:
        """Log the compare answer (docs/protocol.md): `compare_saved` or an error."""
        try:
            await in_thread(hooks.compare_answer)(
                self.table_id, self.scope["user"], content.get("choice")
            )
        except TableError as exc:
            await self.send_error(exc)
            return
        await self.send_frame({"type": "compare_saved"})

    async def _deliver(self, update: dict[str, Any]) -> None:
        """Send the mover's own result on this link, then pass it on to the other seats.

        The mover never waits on the channel layer: when it fails, the other sockets catch up
        from the log once it is back (games.realtime.layer_watch); this link drops its own echo.
        """
        await self.table_update(update)
        outbox.send_soon(table_group(self.table_id), update, skip=self.channel_name or None)

    async def table_update(self, message: dict[str, Any]) -> None:
        """Forward a committed change: this seat's new view with the events that led to it.

        A state this link sent already is dropped (its own echo, a layer's retry, a state
        sent from the log first). When states were skipped (lost in the layer, or
        published out of order by two processes), their events come from the log first: the
        link never leaves a gap.
        """
        state_id = message["state_id"]
        body = update_body(message)
        events, info = body["events"], body["info"]
        if not events:
            # Seats, status or takeover changed (a teacher's or a session's move): this user's
            # seat may have changed too, and the server may now have a move of its own to make.
            await self._refresh_access()
            return
        if state_id <= self.last_state_id:
            return
        if 0 <= self.last_state_id < state_id - 1:
            await self._fill_gap(state_id - 1, info)
        with translation.override(self.lang):
            items = event_items(events, self.seat, info, self.lang)
        await self._send_state(update_game(message), state_id, info, items)

    async def table_repair(self, message: dict[str, Any]) -> None:
        """Catch up after an update of this table failed to publish (games.realtime.layer_watch)."""
        await self._refresh_access()

    async def _fill_gap(self, upto: int, info: dict[str, Any]) -> None:
        """Send the events of the states after the last one sent, up to `upto`, from the log.

        Without the database the state is sent all the same: the page sees the gap in the
        state numbers and asks "since" once the database answers.
        """
        try:
            frames = await in_thread(log_frames)(
                table_id=self.table_id,
                seat=self.seat,
                info=info,
                lang=self.lang,
                after=max(self.last_state_id, upto - MAX_STATES),
                upto=upto,
            )
        except (OperationalError, InterfaceError):
            return
        for frame in frames:
            await self.send_frame(frame)

    async def table_notice(self, message: dict[str, Any]) -> None:
        """Pass on a fact outside the game: the table's activity (class session) has ended."""
        await self.send_frame({"type": "notice", "notice": message["notice"]})

    async def _refresh_access(self) -> None:
        """Check the seat again, then catch up (or close when access is gone)."""
        try:
            access = await in_thread(table_access)(table_id=self.table_id, user=self.scope["user"])
        except TableError:
            await self.end(CLOSE_NO_ACCESS)
            return
        self.seat = access.seat
        await self._send_missing()

    async def _send_history(self) -> None:
        """Send the last few events (marked `replay`) so a reloaded page has its log back."""
        frames, _table = await in_thread(history_frames)(
            table_id=self.table_id, seat=self.seat, lang=self.lang
        )
        for frame in frames:
            await self.send_frame(frame)

    async def send_current_state(self) -> None:
        """Send the seat's view from the database and plan any server step that is due."""
        table, info = await in_thread(_load)(self.table_id)
        game = Game.from_dict(table.state)
        await self._send_state(game, table.state_id, info)
        driver.schedule(await in_thread(next_step_for)(table, game))

    async def _send_catch_up(self, since: int) -> None:
        """Send the stored events after state `since`, then the stored state (games.catch_up).

        Raise TableError `bad_since` when the table has not reached `since`.
        """
        found = await in_thread(frames_since)(
            table_id=self.table_id, seat=self.seat, since=since, lang=self.lang
        )
        *events, state = found.frames
        for frame in events:
            await self.send_frame(frame)
        if found.state_id >= self.last_state_id:  # never a state older than one sent
            self.last_state_id = found.state_id
            await self.send_frame(state)
        driver.schedule(await in_thread(next_step_for)(found.table, found.game))

    def watched_group(self) -> tuple[str, int]:
        """Return the table's group and the last state number sent (for the layer watch)."""
        return table_group(self.table_id), self.last_state_id

    async def catch_up(self) -> None:
        """Send the stored events and state if this link is behind them (the layer watch)."""
        async with self.turn:
            if self.last_state_id < 0:
                return  # still opening: its first state comes from the database anyway
            if await in_thread(_stored_state_id)(self.table_id) <= self.last_state_id:
                return
            await self._send_catch_up(self.last_state_id)

    async def _send_state(
        self,
        game: Game,
        state_id: int,
        info: dict[str, Any],
        events: list[dict[str, Any]] | None = None,
    ) -> None:
        self.last_state_id = max(self.last_state_id, state_id)
        await self.send_frame(state_frame(game, self.seat, state_id, info, events, self.lang))

    def error_frame(self, exc: TableError) -> dict[str, Any]:
        """Build the table's `error` frame: a wrong fraction play carries an explanation."""
        return error_frame(exc, self.lang)


@dataclass(frozen=True)
class _Acted:
    """What an action's thread hop did: its sign, the sign-in check, the outcome or refusal."""

    sign_step: NextStep | None  # what the player's coming changes (None: nothing, or no sign)
    signed_in: bool | None  # None: not asked
    outcome: Outcome | None = None
    refused: TableError | None = None
    unavailable: OperationalError | InterfaceError | None = None  # the database, after the sign


def _act_unpublished(
    check_scope: dict[str, Any] | None, sign: tuple[int, datetime] | None, **kwargs: Any
) -> _Acted:
    """Apply a player's action whose update the caller sends and publishes itself.

    In this one thread hop (one a move instead of three): first the frame's `sign` (seat,
    time: games.presence), then with `check_scope` whether the link's session still signs its
    user in (when it does not, nothing is applied), then the action.
    """
    step = None
    if sign is not None:
        try:
            step = _mark_seen(kwargs["table_id"], *sign)
        except (OperationalError, InterfaceError) as exc:  # a sign is not worth a lost frame
            logger.warning("presence not recorded on table %s: %s", kwargs["table_id"], exc)
    signed_in = None
    try:
        signed_in = None if check_scope is None else still_signed_in(check_scope)
        if signed_in is False:
            return _Acted(step, signed_in)
        return _Acted(step, signed_in, table_act(publish=False, **kwargs))
    except TableError as exc:
        return _Acted(step, signed_in, refused=exc)
    except (OperationalError, InterfaceError) as exc:
        return _Acted(step, signed_in, unavailable=exc)


def _mark_seen(table_id: int, seat: int, now: datetime) -> NextStep | None:
    """Record the sign; when the player comes (or comes back), let the table know."""
    if presence.mark_seen(table_id=table_id, seat_index=seat, now=now):
        return seat_came(table_id=table_id, seat_index=seat, now=now)
    return None


def _stored_state_id(table_id: int) -> int:
    from games.models import Table

    return int(Table.objects.values_list("state_id", flat=True).get(pk=table_id))


def _load(table_id: int) -> tuple[Any, dict[str, Any]]:
    from games.models import Table
    from games.players import table_info

    table = Table.objects.get(pk=table_id)
    return table, table_info(table=table)
