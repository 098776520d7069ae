"""A server-sent events response on Channels' AsyncHttpConsumer, for links without WebSockets.

One long `text/event-stream` response per client: channel-layer messages sent to the
consumer's channel write events to it, a heartbeat keeps proxies from closing an idle
response, and the stream ends by itself after `lifetime_seconds` (the browser's EventSource
then opens a new one). The headers ask every proxy on the way not to buffer or transform it
(`Cache-Control: no-transform`, nginx's `X-Accel-Buffering: no`).

Channels' `AsyncHttpConsumer.http_request` stops the consumer as soon as `handle` returns
(django/channels#1747), which leaves no way to receive channel-layer messages: this class
starts the stream in `handle` and keeps the consumer running until the client goes away
(`http.disconnect`) or the stream ends (`event_stream.end`, sent to itself).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from channels.exceptions import StopConsumer
from channels.generic.http import AsyncHttpConsumer
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from games import jsontext

if TYPE_CHECKING:
    from asgiref.typing import HTTPRequestEvent

STREAM_HEADERS = [
    (b"Content-Type", b"text/event-stream; charset=utf-8"),
    # no-transform: a compressing or rewriting proxy must pass each event as it comes.
    (b"Cache-Control", b"no-cache, no-store, no-transform"),
    # nginx buffers proxied responses unless told otherwise, per response.
    (b"X-Accel-Buffering", b"no"),
]


def event_bytes(data: Any, *, event: str | None = None, event_id: int | None = None) -> bytes:
    """Return one server-sent event: optional `event:` and `id:` lines, then the JSON data."""
    lines = []
    if event is not None:
        lines.append(f"event: {event}")
    if event_id is not None:
        lines.append(f"id: {event_id}")
    # Compact JSON holds no newline: one data line.
    lines.append("data: " + jsontext.dumps(data))
    return ("\n".join(lines) + "\n\n").encode("utf-8")


def host_allowed(scope: Mapping[str, Any]) -> bool:
    """Tell whether the request's Host header is one of ALLOWED_HOSTS, as Django's pages ask.

    A consumer outside Django's request handling gets no ALLOWED_HOSTS check of its own.
    """
    host = ""
    for name, value in scope.get("headers", []):
        if name == b"host":
            host = value.decode("latin-1")
    domain, _port = split_domain_port(host)
    allowed = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    return bool(domain) and validate_host(domain, allowed)


class EventStreamConsumer(AsyncHttpConsumer):
    """A long-lived event stream: subclasses decide in `handle` and write with `send_event`.

    `handle` calls `start_stream` (or `refuse`); channel-layer messages reach handlers named
    after their type, which call `send_event`. `heartbeat` runs every `heartbeat_seconds`.
    """

    heartbeat_seconds: float = 15.0
    lifetime_seconds: float = 30 * 60.0

    _ticker: asyncio.Task[None] | None = None
    _streaming = False

    async def http_request(self, message: HTTPRequestEvent) -> None:
        """Gather the body, then `handle` it; the consumer goes on while the stream is open."""
        if "body" in message:
            self.body.append(message["body"])
        if message.get("more_body"):
            return
        await self.handle(b"".join(self.body))
        if not self._streaming:
            await self.disconnect()
            raise StopConsumer()

    async def refuse(self, status: int, text: str) -> None:
        """Answer with a short plain-text refusal instead of a stream."""
        await self.send_response(
            status,
            text.encode("utf-8"),
            headers=[(b"Content-Type", b"text/plain; charset=utf-8")],
        )

    async def start_stream(self, first: bytes = b"") -> None:
        """Send the stream's headers and `first` bytes now; start the heartbeat."""
        self._streaming = True
        await self.send_headers(status=200, headers=STREAM_HEADERS)
        await self.send_body(first or b": open\n\n", more_body=True)
        self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def send_event(
        self, data: Any, *, event: str | None = None, event_id: int | None = None
    ) -> None:
        """Write one event to the open stream."""
        await self.send_body(event_bytes(data, event=event, event_id=event_id), more_body=True)

    async def heartbeat(self, beat: int) -> None:
        """Keep the response alive: a comment, which EventSource ignores."""
        await self.send_body(b": beat\n\n", more_body=True)

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + self.lifetime_seconds
        beat = 0
        while (left := end - loop.time()) > 0:
            await asyncio.sleep(min(self.heartbeat_seconds, left))
            if loop.time() < end:
                beat += 1
                await self.heartbeat(beat)
        # The end goes through the consumer's own queue: only its handler may stop it.
        await self.channel_layer.send(self.channel_name, {"type": "event_stream.end"})

    async def event_stream_end(self, message: dict[str, Any]) -> None:
        """Close the response; the client's EventSource reconnects if it still wants events."""
        await self.send_body(b"", more_body=False)
        await self.disconnect()
        raise StopConsumer()

    async def disconnect(self) -> None:
        """Stop the heartbeat."""
        if self._ticker is not None and self._ticker is not asyncio.current_task():
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        self._ticker = None
