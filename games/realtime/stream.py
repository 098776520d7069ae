"""The Server-Sent Events adapter of a live link: the server's frames as an event stream.

For school networks where a WebSocket cannot open (a filtering proxy that does not forward
`Upgrade`): the page reads the same JSON frames from `text/event-stream` and POSTs its own
(games.realtime.posted). Built on Channels' AsyncHttpConsumer, so that a stream is a
consumer like a socket: it joins the same channel-layer groups and the same handlers answer
the same layer messages (docs/protocol.md, "Fallback: SSE and POST").

- Every frame is one `message` event whose `data` is the frame's JSON (one line). A `state`
  frame carries `id: <state_id>`: a browser that reconnects by itself sends it back as
  `Last-Event-ID`, and the stream resumes from the stored log as after `?since=N`. Only a
  state sets the id: its events always come before it, so "since the last id" loses none.
- The socket's close codes come as a final `close` event, `data: {"code": 4401}`, then the
  response ends: an EventSource cannot read an HTTP status, as a socket cannot read a refused
  handshake's. A refusal is the same: 200, the `close` event, nothing else.
- A comment line every HEARTBEAT_SECONDS keeps proxies from closing an idle stream; an idle
  stream holds no database connection (every query goes through in_thread).
- A sign-in holds at most PER_SIGNIN streams in a process, a user at one link PER_PLACE: a
  newer one ends the oldest with 4409 (games.realtime.stream_caps).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from channels.exceptions import StopConsumer
from channels.generic.http import AsyncHttpConsumer

from games import jsontext
from games.realtime import delivery_ledger
from games.realtime.link import CLOSE_TRY_AGAIN, RealtimeLink
from games.realtime.origins import origin_allowed
from games.realtime.signin import socket_user
from games.realtime.stream_caps import CLOSE_REPLACED, PER_PLACE, PER_SIGNIN, STREAM_CAPS

if TYPE_CHECKING:
    from asgiref.typing import HTTPDisconnectEvent, HTTPRequestEvent

# Proxies close an idle response after 30–60 s (nginx's proxy_read_timeout is 60 s): a comment
# line every 15 s keeps the stream alive through them.
HEARTBEAT_SECONDS = 15.0
# How long a browser waits before it reopens a stream that broke (the `retry` field).
RETRY_MILLISECONDS = 2000
HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache, no-store"),
    # nginx: pass each event on at once, never buffer the stream (docs/deploy.md).
    (b"x-accel-buffering", b"no"),
    (b"x-content-type-options", b"nosniff"),
]


def header(scope: dict[str, Any], name: bytes) -> str | None:
    """Return a request header's value (the first one), or None."""
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def sse_event(frame: dict[str, Any]) -> bytes:
    """Write one frame as an SSE `message` event; a `state` frame carries its id."""
    lines = f"data: {jsontext.dumps(frame)}\n\n"
    if frame.get("type") == "state" and isinstance(frame.get("state_id"), int):
        lines = f"id: {frame['state_id']}\n{lines}"
    return lines.encode()


class StreamConsumer(RealtimeLink, AsyncHttpConsumer):
    """A live link carried by an event stream (server to client only)."""

    opened = False  # the response has started
    ended = False  # the response is over: nothing more is sent
    finished = False  # the groups are left
    heartbeat: asyncio.Task[None] | None = None

    async def http_request(self, message: HTTPRequestEvent) -> None:
        """Open the stream on a GET and keep the consumer running (unlike `handle`).

        AsyncHttpConsumer ends the consumer when `handle` returns; a stream must stay, still
        dispatching the layer's messages, until the client goes (`http.disconnect`) or the
        stream ends itself (`end`).
        """
        if message.get("more_body"):
            return  # a GET has no body worth reading
        if self.scope["method"] != "GET":
            await self.send_response(405, b"", headers=[(b"allow", b"GET")])
            raise StopConsumer
        # A browser sends no Origin with a same-origin GET (an EventSource on its own site).
        if not origin_allowed(self.scope, missing_ok=True):
            await self.send_response(403, b"")
            raise StopConsumer
        self.start_link()
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.connect()

    async def http_disconnect(self, message: HTTPDisconnectEvent) -> None:
        """The client went: leave the groups and stop."""
        await self._finish()
        raise StopConsumer

    async def connect(self) -> None:
        """Open the link or refuse it (the table's and the overview's logic)."""
        raise NotImplementedError

    async def leave(self) -> None:
        """Leave what the logic joined (its groups, the layer watch)."""

    async def database_unavailable(self, message: dict[str, Any]) -> None:
        """A stream that cannot open ends with 1013 (the page tries again); else an error."""
        if message["type"] == "http.request":
            await self.end(CLOSE_TRY_AGAIN)
        elif message["type"] != "http.disconnect":
            await super().database_unavailable(message)

    async def open_link(self) -> None:
        """Start the event stream's response and its heartbeat; count it against its caps.

        A stream past a cap (games.realtime.stream_caps) ends the oldest one it counts
        against with 4409: one sign-in cannot hold a process's file descriptors.
        """
        if self.opened:
            return
        await self._start_response()
        for older in STREAM_CAPS.add(self, self.cap_keys()):
            # An older stream whose client went meanwhile must not stop this one opening.
            with contextlib.suppress(Exception):
                await older.end(CLOSE_REPLACED)

    def cap_keys(self) -> dict[tuple[str, ...], int]:
        """Return the keys this stream counts under, with their caps (anonymous: none).

        A sign-in is its session; a place is this user at this address (a seat at one table,
        a teacher's overview of one session: a user has one seat at a table).
        """
        user = socket_user(self.scope)
        if user is None:
            return {}
        keys: dict[tuple[str, ...], int] = {
            ("place", str(self.scope.get("path", "")), str(user.pk)): PER_PLACE
        }
        session_key = getattr(self.scope.get("session"), "session_key", None)
        if session_key:
            keys[("signin", str(session_key))] = PER_SIGNIN
        return keys

    async def _start_response(self) -> None:
        if self.opened:
            return
        self.opened = True
        await self.send_headers(status=200, headers=HEADERS)
        await self.send_body(f"retry: {RETRY_MILLISECONDS}\n\n".encode(), more_body=True)
        self.heartbeat = asyncio.get_running_loop().create_task(self._beat())

    async def refuse(self, code: int) -> None:
        """Open, then end at once with the reason's code; nothing is sent before it."""
        await self.end(code)

    async def end(self, code: int) -> None:
        """Send the final `close` event with `code`, end the response and leave the groups.

        The consumer itself stops on the `http.disconnect` the server sends once the
        response is over (daphne does at once).
        """
        if self.ended:
            return
        await self._start_response()  # a refusal is not counted: it ends at once
        self.ended = True
        close = f"event: close\ndata: {jsontext.dumps({'code': code})}\n\n"
        await self.send_body(close.encode(), more_body=False)
        await self._finish()

    async def send_frame(self, frame: dict[str, Any]) -> None:
        """Send one frame as an event (dropped once the stream has ended)."""
        if self.ended:
            return
        await self._start_response()
        await self.send_body(sse_event(frame), more_body=True)

    async def _beat(self) -> None:
        while not self.ended:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            # A stream never acts, so its heartbeat asks whether its session still signs in
            # (every SIGNIN_CHECK_SECONDS): a sign-out whose message was lost still ends it.
            if not self.ended and self.groups and not await self.check_signed_in():
                return
            if not self.ended:
                try:
                    await self.send_body(b": ping\n\n", more_body=True)
                except Exception:  # the client went meanwhile: its disconnect ends the stream
                    return

    async def _finish(self) -> None:
        self.ended = True
        if self.finished:
            return
        self.finished = True
        STREAM_CAPS.discard(self)
        if self.heartbeat is not None and self.heartbeat is not asyncio.current_task():
            self.heartbeat.cancel()
        await self.leave()
        for group in getattr(self, "groups", []):
            with delivery_ledger.quiet_layer_errors():
                await self.channel_layer.group_discard(group, self.channel_name)
