"""The network check's link, on the three transports the tables use (games.realtime).

One logic (`CheckLink`): hello with the check's timing, a beat every NETWORK_CHECK_HEARTBEAT
seconds, echoes of what the page sends, and an end by itself a little after
NETWORK_CHECK_SECONDS. Carried by a WebSocket (`CheckSocket`, /ws/network-check/), an event
stream (`CheckStream`, /network-check/stream/) and one POSTed frame (`CheckPost`,
/network-check/echo/): the very adapters of the tables' socket and fallback, so that what the
check finds is what a class will get.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from games.errors import TableError
from games.realtime.addresses import address_group
from games.realtime.consumer import RealtimeConsumer
from games.realtime.link import CLOSE_TRY_AGAIN, RealtimeLink
from games.realtime.posted import PostedLink, bucket_for, request_scope
from games.realtime.stream import StreamConsumer
from unoclass.network_check.capacity import OPEN_LINKS
from unoclass.proxy import client_address

# A link outlives the check by this much: the page decides, the server only bounds.
GRACE_SECONDS = 15.0
CLOSE_NORMAL = 1000
BAD_ECHO = _('Send {"type": "echo", "n": a number from 0 to 999}.')


def timing() -> dict[str, float]:
    """Return what the page needs to judge a link: the check's length and the beat."""
    return {
        "duration": settings.NETWORK_CHECK_SECONDS,
        "heartbeat": settings.NETWORK_CHECK_HEARTBEAT,
    }


def scope_address(scope: dict[str, Any]) -> str:
    """Return a link's client address group, read as a request's (unoclass.proxy): behind
    nginx the peer is the proxy, and the client is in its `X-Forwarded-For`."""
    client = scope.get("client") or ("", 0)
    forwarded = [
        bytes(value).decode("latin-1")
        for name, value in scope.get("headers", [])
        if bytes(name).lower() == b"x-forwarded-for"
    ]
    meta = {"REMOTE_ADDR": str(client[0] or ""), "HTTP_X_FORWARDED_FOR": ",".join(forwarded)}
    return address_group(client_address(dict(meta)))


def echo_number(content: Any) -> int | None:
    """Return the echo's number (0 to 999) from a frame, or None if it has none."""
    if not isinstance(content, dict) or content.get("type") != "echo":
        return None
    number = content.get("n")
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < 1000:
        return None
    return number


class CheckLink(RealtimeLink):
    """The check's logic: hello, beats, echoes, then the end; anyone may open it."""

    max_frame_bytes = 256
    # Anonymous POSTs count per address (an IPv6 /64) in each process (games.realtime.posted):
    # a school's checks share its address's bucket, room for a few at once.
    rate_burst = 30
    rate_per_second = 15.0

    _beats: asyncio.Task[None] | None = None
    _counted: str | None = None  # the address group whose place the link holds

    async def connect(self) -> None:
        """Open (unless the process, or this address, holds too many checks), say hello,
        start the beats."""
        address = scope_address(self.scope)
        if not OPEN_LINKS.take(address):
            await self.refuse(CLOSE_TRY_AGAIN)
            return
        self._counted = address
        await self.open_link()
        await self.send_frame({"type": "hello", **timing()})
        self._beats = asyncio.get_running_loop().create_task(self._check_beats())

    async def _check_beats(self) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + settings.NETWORK_CHECK_SECONDS + GRACE_SECONDS
        beat = 0
        while (left := end - loop.time()) > 0:
            await asyncio.sleep(min(settings.NETWORK_CHECK_HEARTBEAT, left))
            beat += 1
            await self.send_frame({"type": "beat", "n": beat})
        await self.end(CLOSE_NORMAL)

    async def receive_frame(self, content: dict[str, Any]) -> None:
        """Echo `{"type": "echo", "n": N}` back at once; anything else is an error frame."""
        number = echo_number(content)
        if number is None:
            await self.send_error(TableError("bad_echo", BAD_ECHO))
            return
        await self.send_frame({"type": "echo", "n": number})

    async def leave(self) -> None:
        """Stop the beats and free the link's place."""
        if self._beats is not None and self._beats is not asyncio.current_task():
            self._beats.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beats
        self._beats = None
        if self._counted is not None:
            OPEN_LINKS.release(self._counted)
            self._counted = None


class CheckSocket(CheckLink, RealtimeConsumer):
    """The check's WebSocket."""

    async def disconnect(self, code: int) -> None:
        """Stop the beats and free the link's place."""
        await self.leave()


class CheckStream(CheckLink, StreamConsumer):
    """The check's event stream (the fallback's server-to-page half)."""


class CheckPost(CheckLink, PostedLink):
    """One frame POSTed to the check (the fallback's page-to-server half): echoed in the answer."""

    async def find_access(self) -> int | None:
        """Anyone may check the network."""
        return None

    async def answer(self, body: bytes) -> HttpResponse:
        """Echo the POSTed frame in the answer, signed in or not (the tables' POST asks for a
        sign-in first); the rate and the frame's checks are the socket's."""
        try:
            text: str | None = body.decode("utf-8")
        except UnicodeDecodeError:
            text = None  # not text: refused as the socket refuses a binary frame
        await self.take_frame(text)
        return self.response()


async def post_check_frame(request: HttpRequest) -> HttpResponse:
    """Answer one POSTed check frame as the socket would (`{"frames": [...]}`)."""
    scope = request_scope(request, await request.auser(), {})
    link = CheckPost(scope, bucket_for(request, CheckPost.rate_burst, CheckPost.rate_per_second))
    return await link.answer(request.body)
