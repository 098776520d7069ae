"""The scripted player of tests/e2e/scale/client.py on the fallback link: SSE in, POST out.

`StreamSeatClient` has the socket client's interface (connect, reconnect, send, act, sync,
next_frame, close, log), so the same `Table` plays with it and the fault tests run on both
transports (`seat_client(link, …)`). What it does is what the play page's fallback does
(docs/protocol.md, "Fallback: SSE and POST"):

- the server's frames come from `GET /tables/<id>/stream/` (text/event-stream, read as it
  arrives with httpx); a `state` event's `id` is remembered and sent back as `Last-Event-ID`
  when the stream is opened again, as a browser's EventSource does;
- each client frame is one `POST /tables/<id>/frames/` (JSON body, the CSRF token as Django
  wants it); the frames of its answer (`{"frames": [...]}`) are received like the stream's,
  first, as a socket's direct replies are;
- a stream that ends (the server closed it, a `close` event, a process killed) or a POST that
  finds no server raises `StreamClosed`, a `websockets.ConnectionClosed`: every caller that
  handles a closed socket handles a closed stream the same way; a POST answered with a page
  instead of frames (a 503 while the database is away: the request's session is read from it
  before any view runs) raises `PostRefused`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import string
from typing import Any

import httpx
import websockets

from tests.e2e.scale.client import SeatClient
from tests.support.live import Daphne

LINKS = ["socket", "stream"]
# The stream's reads have no timeout (a quiet table sends only a heartbeat now and then);
# opening it and each POST have one.
OPEN_SECONDS = 5.0
POST_SECONDS = 15.0


class PostRefused(Exception):
    """A POST answered without frames (a page of its own: the 503 while the database is away,
    Django's CSRF 403): nothing was applied, the link stays."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"POST answered {status}")
        self.status = status
        self.text = text


class StreamClosed(websockets.ConnectionClosed):
    """The stream ended, or the server could not be reached: the link is closed."""

    def __init__(self, why: str) -> None:
        super().__init__(None, None)
        self.why = why

    def __str__(self) -> str:
        return f"stream closed: {self.why}"


def parse_events(lines: list[str]) -> tuple[dict[str, str], list[str]]:
    """Read one SSE event from its lines (up to the blank line): its fields, its data lines."""
    fields: dict[str, str] = {}
    data: list[str] = []
    for line in lines:
        if not line or line.startswith(":"):
            continue  # a comment: the heartbeat
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            data.append(value)
        else:
            fields[name] = value
    return fields, data


class StreamSeatClient(SeatClient):
    """One player's event stream and POSTs; reconnects with backoff, records every state."""

    def __init__(self, http_base: str, table: int, session: str, origin: str) -> None:
        super().__init__(http_base.replace("http", "ws", 1), table, session, origin)
        self.stream_url = f"{http_base}/tables/{table}/stream/"
        self.post_url = f"{http_base}/tables/{table}/frames/"
        self.url = self.stream_url
        token = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
        self.cookies = {"sessionid": session, "django_language": "en", "csrftoken": token}
        self.post_headers = {"X-CSRFToken": token, "Origin": origin, "Referer": f"{origin}/"}
        self.http: httpx.AsyncClient | None = None
        self.frames: asyncio.Queue[dict[str, Any] | StreamClosed] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None
        self.last_event_id: str | None = None
        self.close_code: int | None = None
        self.dropped = 0
        # The frames that came in a POST's answer (by id until read): a sync's or since's own
        # state is recorded even when the client has it; the stream's repeat of it is not.
        self.posted: set[int] = set()
        # True from a stream's (re)opening to its first state: that state is the opening's own
        # (the page shows it), never a repeat to drop, even when the client had it already.
        self.opening = False

    async def _open(self) -> None:
        """Open the stream and start reading it into the queue; raise if it does not open."""
        self.opening = True
        if self.http is None:
            self.http = httpx.AsyncClient(cookies=self.cookies, timeout=POST_SECONDS)
        headers = {"Accept": "text/event-stream", "Accept-Language": "en"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = self.last_event_id
        request = self.http.build_request(
            "GET", self.stream_url, headers=headers, timeout=httpx.Timeout(OPEN_SECONDS, read=None)
        )
        response = await self.http.send(request, stream=True)
        if response.status_code != 200:
            await response.aclose()
            raise OSError(f"stream answered {response.status_code}")
        self.frames = asyncio.Queue()
        self.reader = asyncio.ensure_future(self._read(response))

    async def _read(self, response: httpx.Response) -> None:
        why = "the server ended the stream"
        try:
            lines: list[str] = []
            async for line in response.aiter_lines():
                if line:
                    lines.append(line)
                    continue
                fields, data = parse_events(lines)
                lines = []
                if not data:
                    continue
                payload = json.loads("\n".join(data))
                if fields.get("event") == "close":
                    self.close_code = payload.get("code")
                    why = f"close {self.close_code}"
                    continue
                if "id" in fields:
                    self.last_event_id = fields["id"]
                await self.frames.put(payload)
        except (httpx.HTTPError, OSError) as error:
            why = f"{type(error).__name__}: {error}"
        finally:
            await response.aclose()
            await self.frames.put(StreamClosed(why))

    async def connect(self, deadline_seconds: float = 30.0) -> None:
        """Open the stream, retrying with exponential backoff until the deadline."""
        loop = asyncio.get_running_loop()
        wait, deadline = 0.05, loop.time() + deadline_seconds
        while True:
            try:
                await self._open()
                self.log.connections.append([])
                return
            except (OSError, httpx.HTTPError):
                if loop.time() + wait > deadline:
                    raise
                await asyncio.sleep(wait)
                wait = min(wait * 2, 1.0)

    async def reconnect(self) -> None:
        """Drop what is left of the stream and open it again (Last-Event-ID: the last state)."""
        await self._stop_reading()
        self.log.reconnects += 1
        await self.connect()

    async def send(self, frame: dict[str, Any]) -> None:
        """POST one frame; its answer's frames are received first, as a socket's replies."""
        if self.http is None:
            raise StreamClosed("not connected")
        try:
            response = await self.http.post(
                self.post_url, content=json.dumps(frame), headers=self.post_headers
            )
        except (httpx.HTTPError, OSError) as error:
            raise StreamClosed(f"POST failed: {type(error).__name__}") from error
        try:
            body = response.json()
        except ValueError:
            raise PostRefused(response.status_code, response.text) from None
        for answer in body.get("frames", []):
            self.posted.add(id(answer))
            await self.frames.put(answer)
        if "close" in body:
            self.close_code = int(body["close"])
            raise StreamClosed(f"close {self.close_code}")

    async def next_frame(self, timeout: float = 10) -> dict[str, Any]:
        """Receive one frame (from the stream or a POST's answer) and record it.

        A mover's new state comes twice, in the POST's answer and on its own stream: the
        second copy of a live state already shown is dropped (counted in `dropped`), as the
        page drops it (docs/protocol.md); so is a state the stream repeats without events.
        """
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            item = await asyncio.wait_for(self.frames.get(), max(0.0, end - loop.time()))
            if isinstance(item, StreamClosed):
                raise item
            posted = id(item) in self.posted
            self.posted.discard(id(item))
            # A live state shown already, or the stream's catch-up to the state the mover's POST
            # answered (the stream is its own link: the layer watch brings it up to the stored
            # state after an outage): the page drops both.
            # (An older state without events is still recorded: the log calls it "back".)
            live = item.get("events") is not None
            if item["type"] == "state" and (
                (live and item["state_id"] <= self.log.state_id)
                or (
                    not live
                    and not posted
                    and not self.opening
                    and item["state_id"] == self.log.state_id
                )
            ):
                self.dropped += 1
                continue
            if item["type"] == "state":
                self.opening = False
            break
        self.log.record(item)
        return item

    async def _stop_reading(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader
            self.reader = None

    async def close(self) -> None:
        """Close the stream and the HTTP client."""
        await self._stop_reading()
        if self.http is not None:
            await self.http.aclose()
            self.http = None


def seat_client(link: str, server: Daphne, table: int, session: str) -> SeatClient:
    """Return a seat's client on the given link ("socket" or "stream") to one daphne."""
    if link == "stream":
        return StreamSeatClient(server.http, table, session, server.http)
    return SeatClient(server.ws, table, session, server.http)
