"""What every live link of the app shares, whatever carries it (a socket, or a stream + POST).

A link belongs to a signed-in user, speaks one language, checks each client frame (rate, size,
JSON) before a handler sees it, closes when its session signs out, and says why it closes with
the socket's close codes (4401 signed out, 4403 no access). The transports are thin adapters
(games.realtime.consumer: the WebSocket; games.realtime.stream: Server-Sent Events;
games.realtime.posted: a frame POSTed over HTTP): they implement `open_link`, `end`, `refuse`
and `send_frame`, and the table's and the overview's logic is written once against them.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from channels.consumer import get_handler_name
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games.errors import TableError
from games.realtime.asyncdb import in_thread
from games.realtime.frames import TokenBucket, read_frame
from games.realtime.language import language_of
from games.realtime.signin import socket_user, still_signed_in
from games.realtime.signout import user_group

# Close codes (4000–4999 are the application's own), as the pages read them; the stream and
# the POST say the same (docs/protocol.md, "Fallback: SSE and POST").
CLOSE_SIGNED_OUT = 4401
CLOSE_NO_ACCESS = 4403
CLOSE_TRY_AGAIN = 1013  # the database is away: the page reconnects as after any other close
DATABASE_UNAVAILABLE = _("The server cannot reach its database: try again in a moment.")
RATE_LIMITED = _("Too many messages: slow down.")
logger = logging.getLogger(__name__)
# How long a link trusts its last "still signed in" answer (two queries) before asking again.
# A sign-out closes the link at once through the user's group; this check catches what that
# message cannot (a lost message, an expired session, a password changed in the admin).
# 30 s: a player acts every few seconds, and a check per action was a large share of a move's
# cost (docs/performance.md).
SIGNIN_CHECK_SECONDS = 30.0


class RealtimeLink:
    """The transport-neutral part of a live link: language, frame checks, sign-in, refusals.

    Subclasses (the logic: games.table_seat, lessons.sessions.consumers) implement `connect`
    (calling `refuse` to say no) and `receive_frame`; the transport adapters implement
    `open_link`, `end`, `refuse`, `send_frame` and give `scope`, `channel_layer` and
    `channel_name`. Every query goes through `games.realtime.asyncdb.in_thread`.
    """

    # Limits of one link's frames: longer ones, or faster ones, get an error frame.
    max_frame_bytes = 4096
    rate_burst = 20
    rate_per_second = 20.0

    scope: Any  # the ASGI scope (Channels types it its own way)
    channel_layer: Any
    channel_name: str
    groups: list[str]
    lang: str
    bucket: TokenBucket
    signin_checked_at: float = float("-inf")

    def start_link(self) -> None:
        """Set the link's language, frame budget and the user's group from its scope."""
        self.lang = language_of(self.scope)
        self.bucket = TokenBucket(self.rate_burst, self.rate_per_second)
        user = socket_user(self.scope)
        if user is not None:
            # The request's session has just signed this user in (AuthMiddleware).
            self.signin_checked_at = time.monotonic()
        # A sign-out reaches every link of the user (see user_signed_out).
        self.groups = [user_group(user.pk)] if user is not None else []

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Call the handler named after the message type.

        Unlike Channels' own dispatch, no hop to the database thread comes first to close old
        connections: every query goes through in_thread, which closes them around itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except (OperationalError, InterfaceError) as exc:
            # The database restarts: one line in the log, the link stays (or the page retries).
            logger.warning("database unavailable on a link (%s): %s", message["type"], exc)
            await self.database_unavailable(message)

    async def database_unavailable(self, message: dict[str, Any]) -> None:
        """Answer a message the database could not serve: an error frame (adapters: more)."""
        await self.send_error(TableError("unavailable", DATABASE_UNAVAILABLE))

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        """End with 4401 when this link's session signed out (or no longer signs in)."""
        key = getattr(self.scope.get("session"), "session_key", None)
        ends_all = not message.get("check") and message.get("session_key") in (None, key)
        if ends_all or not await in_thread(still_signed_in)(self.scope):
            await self.end(CLOSE_SIGNED_OUT)

    async def check_signed_in(self) -> bool:
        """Tell whether the link's session still signs its user in; end with 4401 if not.

        The answer is kept SIGNIN_CHECK_SECONDS: a player's frames cost no extra query each.
        """
        if not self.signin_check_due():
            return True
        return await self.signin_checked(await in_thread(still_signed_in)(self.scope))

    def signin_check_due(self) -> bool:
        """Tell whether the last "still signed in" answer is older than SIGNIN_CHECK_SECONDS.

        A subclass may then ask `still_signed_in` in the same thread hop as its own queries
        (the table link does, with each action) and report with `signin_checked`.
        """
        return time.monotonic() - self.signin_checked_at >= SIGNIN_CHECK_SECONDS

    async def signin_checked(self, signed_in: bool) -> bool:
        """Keep a fresh answer of `still_signed_in`; end with 4401 when it is no."""
        if not signed_in:
            await self.end(CLOSE_SIGNED_OUT)
            return False
        self.signin_checked_at = time.monotonic()
        return True

    async def take_frame(self, text_data: str | None, bytes_data: bytes | None = None) -> None:
        """Check a client frame (rate, kind, size, JSON object), then hand it to `receive_frame`."""
        if not self.bucket.take():
            await self.send_error(TableError("rate_limited", RATE_LIMITED))
            return
        await self.read_and_route(text_data, bytes_data)

    async def read_and_route(self, text_data: str | None, bytes_data: bytes | None) -> None:
        """Check a frame's kind, size and JSON (the rate is checked), then `receive_frame`."""
        try:
            content = read_frame(text_data, bytes_data, max_bytes=self.max_frame_bytes)
        except TableError as exc:
            await self.send_error(exc)
            return
        await self.receive_frame(content)

    async def receive_frame(self, content: dict[str, Any]) -> None:
        """Act on a checked frame (a JSON object); subclasses route it by its `type`."""
        raise NotImplementedError

    async def send_error(self, exc: TableError) -> None:
        """Send an `error` frame in the link's language."""
        with translation.override(self.lang):
            await self.send_frame(self.error_frame(exc))

    def error_frame(self, exc: TableError) -> dict[str, Any]:
        """Build the `error` frame (called in the link's language): code and message."""
        return {"type": "error", "code": exc.code, "message": exc.message_in(self.lang)}

    # The transport's part.

    async def open_link(self) -> None:
        """Open the link (accept the socket, start the stream's response)."""
        raise NotImplementedError

    async def refuse(self, code: int) -> None:
        """Say no with a close code (4401, 4403) before anything else is sent."""
        raise NotImplementedError

    async def end(self, code: int) -> None:
        """Close the link with a close code; nothing is sent after it."""
        raise NotImplementedError

    async def send_frame(self, frame: dict[str, Any]) -> None:
        """Send one JSON frame to the client."""
        raise NotImplementedError
