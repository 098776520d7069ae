"""The two links the network check tries: an echo socket and an echo event stream.

Both say hello with the check's timing, send a heartbeat every NETWORK_CHECK_HEARTBEAT
seconds, echo what the page sends, and end by themselves a little after
NETWORK_CHECK_SECONDS: nothing is kept open longer than a check needs.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games.errors import TableError
from games.realtime.consumer import CLOSE_TRY_AGAIN, RealtimeConsumer
from games.realtime.event_stream import EventStreamConsumer, event_bytes, host_allowed
from unoclass.network_check.capacity import OPEN_LINKS, stream_token

# A link outlives the check by this much: the page decides, the server only bounds.
GRACE_SECONDS = 15.0
CLOSE_NORMAL = 1000


def timing() -> dict[str, float]:
    """Return what the page needs to judge a link: the check's length and the beat."""
    return {
        "duration": settings.NETWORK_CHECK_SECONDS,
        "heartbeat": settings.NETWORK_CHECK_HEARTBEAT,
    }


def echo_number(content: Any) -> int | None:
    """Return the echo's number (0 to 999) from a frame or a POST, or None if it has none."""
    if not isinstance(content, dict) or content.get("type") != "echo":
        return None
    number = content.get("n")
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < 1000:
        return None
    return number


BAD_ECHO = _('Send {"type": "echo", "n": a number from 0 to 999}.')


class CheckSocket(RealtimeConsumer):
    """The WebSocket the check opens at /ws/network-check/: hello, beats, echoes, then close."""

    max_frame_bytes = 256
    rate_burst = 10
    rate_per_second = 5.0

    _beats: asyncio.Task[None] | None = None
    _counted = False

    async def connect(self) -> None:
        """Accept (unless the process holds too many checks), say hello, start the beats."""
        if not OPEN_LINKS.take():
            await self.refuse(CLOSE_TRY_AGAIN)
            return
        self._counted = True
        await self.accept()
        await self.send_frame({"type": "hello", **timing()})
        self._beats = asyncio.get_running_loop().create_task(self._beat())

    async def _beat(self) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + settings.NETWORK_CHECK_SECONDS + GRACE_SECONDS
        beat = 0
        while (left := end - loop.time()) > 0:
            await asyncio.sleep(min(settings.NETWORK_CHECK_HEARTBEAT, left))
            beat += 1
            await self.send_frame({"type": "beat", "n": beat})
        await self.close(code=CLOSE_NORMAL)

    async def receive_frame(self, content: dict[str, Any]) -> None:
        """Echo `{"type": "echo", "n": N}` back at once; anything else is an error frame."""
        number = echo_number(content)
        if number is None:
            await self.send_error(TableError("bad_echo", BAD_ECHO))
            return
        await self.send_frame({"type": "echo", "n": number})

    async def disconnect(self, code: int) -> None:
        """Stop the beats and free the link's place."""
        if self._beats is not None:
            self._beats.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beats
        if self._counted:
            self._counted = False
            OPEN_LINKS.release()


class CheckStream(EventStreamConsumer):
    """The fallback's stream at /network-check/stream/: hello (with the POST token), beats and
    the echoes that POST /network-check/echo/ sends to it."""

    _counted = False

    async def handle(self, body: bytes) -> None:
        """Start the stream for a GET to an allowed host, while the process has room."""
        if self.scope["method"] not in {"GET", "HEAD"}:
            await self.send_response(405, b"", headers=[(b"Allow", b"GET")])
            return
        if not host_allowed(self.scope):
            await self.refuse(400, "Bad Request")
            return
        if not OPEN_LINKS.take():
            await self.refuse(503, "Try again in a moment.")
            return
        self._counted = True
        self.heartbeat_seconds = settings.NETWORK_CHECK_HEARTBEAT
        self.lifetime_seconds = settings.NETWORK_CHECK_SECONDS + GRACE_SECONDS
        hello = {"token": stream_token(self.channel_name), **timing()}
        await self.start_stream(event_bytes(hello, event="hello"))

    async def heartbeat(self, beat: int) -> None:
        """Send a beat the page can count (an event, not a comment)."""
        await self.send_event({"n": beat}, event="beat")

    async def network_check_echo(self, message: dict[str, Any]) -> None:
        """Write an echo that a POST sent to this stream."""
        await self.send_event({"n": message["n"]}, event="echo")

    async def disconnect(self) -> None:
        """Stop the beats and free the link's place."""
        await super().disconnect()
        if self._counted:
            self._counted = False
            OPEN_LINKS.release()
