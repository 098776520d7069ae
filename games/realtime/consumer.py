"""The base of the app's sockets: refusals a browser can read, checked frames, one language.

A refusal accepts the socket, then closes it at once with the reason's code: a browser sees
the code of a closed socket but only `1006` for a refused handshake, and a page that cannot
tell "signed out" from "connection lost" retries for ever.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import jsontext
from games.errors import TableError
from games.realtime.asyncdb import in_thread
from games.realtime.frames import TokenBucket, read_frame
from games.realtime.language import language_of
from games.realtime.signin import socket_user, still_signed_in
from games.realtime.signout import user_group

if TYPE_CHECKING:
    from asgiref.typing import WebSocketConnectEvent

# Close codes (4000–4999 are the application's own), as the pages read them.
CLOSE_SIGNED_OUT = 4401
CLOSE_NO_ACCESS = 4403
CLOSE_TRY_AGAIN = 1013  # the database is away: the page reconnects as after any other close
DATABASE_UNAVAILABLE = _("The server cannot reach its database: try again in a moment.")
logger = logging.getLogger(__name__)
# How long a socket trusts its last "still signed in" answer (two queries) before asking again.
# A sign-out closes the socket at once through the user's group; this check catches what that
# message cannot (a lost message, an expired session, a password changed in the admin).
# 30 s: a player acts every few seconds, and a check per action was a large share of a move's
# cost (docs/performance.md).
SIGNIN_CHECK_SECONDS = 30.0


class RealtimeConsumer(AsyncWebsocketConsumer):
    """A socket with the app's refusals, frame checks and language; subclasses route frames.

    Subclasses implement `connect` (calling `refuse` to say no) and `receive_frame`; every
    query goes through `games.realtime.asyncdb.in_thread`.
    """

    # Limits of one socket's frames: longer ones, or faster ones, get an error frame.
    max_frame_bytes = 4096
    rate_burst = 20
    rate_per_second = 20.0

    lang: str
    bucket: TokenBucket
    signin_checked_at: float = float("-inf")

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
            # The database restarts: one line in the log, the socket stays (or the page retries).
            logger.warning("database unavailable on a socket (%s): %s", message["type"], exc)
            await self.database_unavailable(message)

    async def database_unavailable(self, message: dict[str, Any]) -> None:
        """Answer a message the database could not serve: an error frame, or a retry later.

        A socket still connecting closes with 1013 (try again later): the page reconnects.
        """
        if message["type"] == "websocket.connect":
            await self.close(code=CLOSE_TRY_AGAIN)
        elif message["type"] != "websocket.disconnect":
            await self.send_error(TableError("unavailable", DATABASE_UNAVAILABLE))

    async def websocket_connect(self, message: WebSocketConnectEvent) -> None:
        """Set the socket's language and frame budget, then let `connect` decide."""
        self.lang = language_of(self.scope)
        self.bucket = TokenBucket(self.rate_burst, self.rate_per_second)
        user = socket_user(self.scope)
        if user is not None:
            # The handshake's session has just signed this user in (AuthMiddleware).
            self.signin_checked_at = time.monotonic()
        # Channels joins `groups` before `connect` and leaves them on disconnect: a sign-out
        # reaches every socket of the user (see user_signed_out).
        self.groups = [user_group(user.pk)] if user is not None else []
        await super().websocket_connect(message)

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        """Close with 4401 when this socket's session signed out (or no longer signs in)."""
        key = getattr(self.scope.get("session"), "session_key", None)
        if message.get("session_key") in (None, key) or not await in_thread(still_signed_in)(
            self.scope
        ):
            await self.close(code=CLOSE_SIGNED_OUT)

    async def check_signed_in(self) -> bool:
        """Tell whether the socket's session still signs its user in; close with 4401 if not.

        The answer is kept SIGNIN_CHECK_SECONDS: a player's frames cost no extra query each.
        """
        if not self.signin_check_due():
            return True
        return await self.signin_checked(await in_thread(still_signed_in)(self.scope))

    def signin_check_due(self) -> bool:
        """Tell whether the last "still signed in" answer is older than SIGNIN_CHECK_SECONDS.

        A subclass may then ask `still_signed_in` in the same thread hop as its own queries
        (the table socket does, with each action) and report with `signin_checked`.
        """
        return time.monotonic() - self.signin_checked_at >= SIGNIN_CHECK_SECONDS

    async def signin_checked(self, signed_in: bool) -> bool:
        """Keep a fresh answer of `still_signed_in`; close with 4401 when it is no."""
        if not signed_in:
            await self.close(code=CLOSE_SIGNED_OUT)
            return False
        self.signin_checked_at = time.monotonic()
        return True

    async def refuse(self, code: int) -> None:
        """Accept, then close at once with the reason's code; nothing is sent before it."""
        await self.accept()
        await self.close(code=code)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Check the frame (rate, kind, size, JSON object), then hand it to `receive_frame`."""
        if not self.bucket.take():
            await self.send_error(TableError("rate_limited", _("Too many messages: slow down.")))
            return
        try:
            content = read_frame(text_data, bytes_data, max_bytes=self.max_frame_bytes)
        except TableError as exc:
            await self.send_error(exc)
            return
        await self.receive_frame(content)

    async def receive_frame(self, content: dict[str, Any]) -> None:
        """Act on a checked frame (a JSON object); subclasses route it by its `type`."""
        raise NotImplementedError

    async def send_frame(self, frame: dict[str, Any]) -> None:
        """Send one JSON frame."""
        await self.send(text_data=jsontext.dumps(frame))

    async def send_error(self, exc: TableError) -> None:
        """Send an `error` frame in the socket's language."""
        with translation.override(self.lang):
            await self.send_frame(self.error_frame(exc))

    def error_frame(self, exc: TableError) -> dict[str, Any]:
        """Build the `error` frame (called in the socket's language): code and message."""
        return {"type": "error", "code": exc.code, "message": exc.message_in(self.lang)}
