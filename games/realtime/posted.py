"""The POST adapter of a live link: one client frame per request, the replies in the answer.

The fallback's other half (docs/protocol.md, "Fallback: SSE and POST"): the page POSTs the
frame it would send on the socket, as the request's JSON body, and the same logic as the
socket's handles it (games.table_seat, lessons.sessions.consumers), with the same checks:
size, JSON, rate, sign-in, access. What the socket would send back to the sender alone (an
`error`, the mover's own new `state`, a `sync`'s or `since`'s frames, `reason_saved`) is the
answer's body, `{"frames": [...]}`, so a client without an open stream still gets its
error frame; what every seat hears (the committed move) goes through the channel layer to
every socket and stream of the table, the sender's own stream too (which drops it by state
number if the answer brought it first).

Refusals: HTTP 401 (not signed in, the socket's 4401) and 403 (no access, 4403) with
`{"frames": [], "close": 4401}` (or 4403). The CSRF token and the Origin are checked by
Django's CSRF middleware before the view runs (its own 403, without `close`).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

from games import jsontext
from games.errors import TableError
from games.realtime.addresses import address_group
from games.realtime.frames import TokenBucket
from games.realtime.link import (
    CLOSE_NO_ACCESS,
    CLOSE_SIGNED_OUT,
    DATABASE_UNAVAILABLE,
    RATE_LIMITED,
    RealtimeLink,
    logger,
)
from games.realtime.signin import socket_user

# One token bucket per (sign-in, link path) in this process, the socket's own limits: the
# POSTs of one page share it as the frames of one socket do. A visitor without a session (the
# network check's echoes) counts by address, an IPv6 one by its /64: one per process let one
# visitor's flood refuse everyone's check. The oldest are forgotten beyond.
MAX_BUCKETS = 10_000
_buckets: OrderedDict[tuple[str, str], TokenBucket] = OrderedDict()
STATUS = {CLOSE_SIGNED_OUT: 401, CLOSE_NO_ACCESS: 403}


def request_scope(request: HttpRequest, user: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    """Build the scope a socket of this request would have: user, session, cookies, headers."""
    headers = [
        (name.lower().encode("latin-1"), value.encode("latin-1", "replace"))
        for name, value in request.headers.items()
    ]
    return {
        "type": "http",
        "path": request.path,
        "user": user,
        "session": request.session,
        "cookies": dict(request.COOKIES),
        "headers": headers,
        "query_string": request.META.get("QUERY_STRING", "").encode("latin-1", "replace"),
        "url_route": {"args": (), "kwargs": kwargs},
    }


def _client(request: HttpRequest) -> str:
    """Return the client's address group (REMOTE_ADDR is the client's: unoclass.proxy)."""
    return address_group(str(request.META.get("REMOTE_ADDR") or ""))


def bucket_for(request: HttpRequest, burst: int, per_second: float) -> TokenBucket:
    """Return the token bucket of this sign-in (or address) and path (new and full at first)."""
    session_key = request.session.session_key
    who = f"session:{session_key}" if session_key else f"address:{_client(request)}"
    key = (who, request.path)
    found = _buckets.get(key)
    if found is None:
        found = _buckets[key] = TokenBucket(burst, per_second)
        while len(_buckets) > MAX_BUCKETS:
            _buckets.popitem(last=False)
    else:
        _buckets.move_to_end(key)
    return found


class PostedLink(RealtimeLink):
    """A live link that lasts one POST: frames sent are collected for the answer."""

    channel_name = ""  # no channel of its own: nothing is skipped when it publishes
    closed: int | None = None

    def __init__(self, scope: dict[str, Any], bucket: TokenBucket) -> None:
        from channels.layers import get_channel_layer

        self.scope = scope
        self.channel_layer = get_channel_layer()
        self.frames: list[dict[str, Any]] = []
        self.start_link()
        self.bucket = bucket
        # Django's auth middleware has just checked the session (and its password hash).
        self.signin_checked_at = time.monotonic()

    async def open_link(self) -> None:
        """Nothing to open: the answer is the request's response."""

    async def refuse(self, code: int) -> None:
        """Answer with the refusal's status (401, 403)."""
        await self.end(code)

    async def end(self, code: int) -> None:
        """Answer with the close code; frames sent after it are dropped."""
        if self.closed is None:
            self.closed = code

    async def send_frame(self, frame: dict[str, Any]) -> None:
        """Collect a frame for the answer."""
        if self.closed is None:
            self.frames.append(frame)

    async def find_access(self) -> int | None:
        """Check the user and their access as a connecting socket does; None, or a close code."""
        raise NotImplementedError

    async def answer(self, body: bytes) -> HttpResponse:
        """Handle the POSTed frame as the socket handles a text frame; build the answer."""
        try:
            # The rate first: a flood costs no query (Django has read the session already).
            if socket_user(self.scope) is None:
                await self.refuse(CLOSE_SIGNED_OUT)
            elif not self.bucket.take():
                await self.send_error(TableError("rate_limited", RATE_LIMITED))
            elif (code := await self.find_access()) is not None:
                await self.refuse(code)
            else:
                try:
                    text: str | None = body.decode("utf-8")
                except UnicodeDecodeError:
                    text = None  # not text: refused as the socket refuses a binary frame
                await self.read_and_route(text, None)
        except (OperationalError, InterfaceError) as exc:
            logger.warning("database unavailable on a POSTed frame: %s", exc)
            await self.send_error(TableError("unavailable", DATABASE_UNAVAILABLE))
        return self.response()

    def response(self) -> HttpResponse:
        """Build the answer: the collected frames, with the close code and status if it ended."""
        answer: dict[str, Any] = {"frames": self.frames}
        if self.closed is not None:
            answer["close"] = self.closed
        response = HttpResponse(
            jsontext.dumps(answer),
            content_type="application/json",
            status=STATUS.get(self.closed or 0, 200),
        )
        response["Cache-Control"] = "no-store"
        return response
