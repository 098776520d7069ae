"""A scripted player on the fallback link: the event stream for the server's frames, POSTs for
its own (docs/protocol.md, "Fallback: SSE and POST"), with SeatClient's interface and log.

It reads what a browser on the stream reads: the `message` events' frames, in order, and each
POST's answer (the mover's own state, an error, a catch-up). As the page does, it drops the
copy of its own move that comes back on the stream after the POST's answer brought it (and
the other way round); any other repeat is recorded, so a server that sends a state twice still
shows in `SeatLog.problems()`. A stream that breaks is opened again with `Last-Event-ID`, as a
browser does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import httpx
import websockets

from tests.e2e.scale.client import BACKOFF_FIRST, BACKOFF_MAX, RECONNECT_SECONDS, SeatLog

CSRF = "abcdefghijklmnopqrstuvwxyz012345"  # a 32-character CSRF secret (cookie and header)


class StreamClosed(websockets.ConnectionClosed):
    """The event stream ended or broke: a ConnectionClosed to Table.play, which reconnects."""

    def __init__(self, reason: object = "") -> None:
        super().__init__(None, None)
        self.reason = str(reason)


class StreamSeatClient:
    """One player's fallback link: reconnects with backoff, records every state it gets."""

    def __init__(self, http_base: str, table: int, session: str) -> None:
        self.url = f"{http_base}/tables/{table}/stream/"
        self.frames_url = f"{http_base}/tables/{table}/frames/"
        self.origin = http_base
        cookies = {"sessionid": session, "django_language": "en", "csrftoken": CSRF}
        self.http = httpx.AsyncClient(cookies=cookies, timeout=httpx.Timeout(10, read=None))
        self.queue: asyncio.Queue[tuple[str, dict[str, Any]] | Exception] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None
        self.last_event_id: str | None = None
        self.posted: set[int] = set()  # states a POST's answer brought (their echo is dropped)
        self.log = SeatLog()

    async def connect(self, deadline_seconds: float = RECONNECT_SECONDS) -> None:
        """Open the stream, retrying with exponential backoff until the deadline."""
        wait, deadline = BACKOFF_FIRST, time.monotonic() + deadline_seconds
        while True:
            opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.queue = asyncio.Queue()
            self.reader = asyncio.create_task(self._read(opened))
            try:
                await asyncio.wait_for(asyncio.shield(opened), 10)
                self.log.connections.append([])
                return
            except (OSError, httpx.HTTPError, StreamClosed, TimeoutError):
                await self._stop_reader()
                if time.monotonic() + wait > deadline:
                    raise
                await asyncio.sleep(wait)
                wait = min(wait * 2, BACKOFF_MAX)

    async def _read(self, opened: asyncio.Future[None]) -> None:
        headers = {"Accept": "text/event-stream"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = self.last_event_id
        try:
            async with self.http.stream("GET", self.url, headers=headers) as response:
                if response.status_code != 200:
                    raise StreamClosed(f"status {response.status_code}")
                opened.set_result(None)
                name, data, event_id = "message", [], None
                async for line in response.aiter_lines():
                    if line == "":
                        if data:
                            await self._event(name, event_id, "\n".join(data))
                        name, data, event_id = "message", [], None
                        continue
                    key, _sep, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if key == "event":
                        name = value
                    elif key == "data":
                        data.append(value)
                    elif key == "id":
                        event_id = value
            raise StreamClosed("the stream ended")
        except Exception as exc:  # any end of the stream: the next read reconnects
            if not opened.done():
                opened.set_exception(exc)
            else:
                self.queue.put_nowait(exc if isinstance(exc, StreamClosed) else StreamClosed(exc))

    async def _event(self, name: str, event_id: str | None, data: str) -> None:
        if name == "close":
            raise StreamClosed(f"closed with {json.loads(data)['code']}")
        if event_id is not None:
            self.last_event_id = event_id
        self.queue.put_nowait(("stream", json.loads(data)))

    async def _stop_reader(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader
            self.reader = None

    async def reconnect(self) -> None:
        """Close what is left of the stream and open it again (from the last id)."""
        await self._stop_reader()
        self.log.reconnects += 1
        await self.connect()

    async def send(self, frame: dict[str, Any]) -> None:
        """POST one frame; its answer's frames are read next (before later stream frames)."""
        headers = {"X-CSRFToken": CSRF, "Origin": self.origin, "Content-Type": "application/json"}
        try:
            response = await self.http.post(
                self.frames_url, content=json.dumps(frame), headers=headers
            )
        except httpx.HTTPError:
            return  # lost, as a frame on a broken socket: the table's silence asks for a sync
        for item in response.json().get("frames", []):
            self.queue.put_nowait(("post", item))

    async def sync(self) -> None:
        """Ask for the current state again; the state numbers start a new sequence."""
        await self.send({"type": "sync"})
        self.log.syncs += 1
        self.log.connections.append([])

    async def act(self, action: dict[str, Any]) -> None:
        """POST an action for the last state seen."""
        await self.send({"type": "action", "action": action, "state_id": self.log.state_id})

    async def next_frame(self, timeout: float = 10) -> dict[str, Any]:
        """Receive one frame (from the stream or a POST's answer) and record it."""
        item = await asyncio.wait_for(self.queue.get(), timeout)
        if isinstance(item, Exception):
            raise item
        source, frame = item
        self.log.frames += 1
        if frame["type"] == "state":
            state_id = frame["state_id"]
            if source == "post":
                self.posted.add(state_id)
            echo = (
                state_id <= self.log.state_id
                and state_id in self.posted
                and bool(frame.get("events"))  # a move's state, not a pause's or a sync's
            )
            if not echo:
                self.log.connections[-1].append(state_id)
            if state_id >= self.log.state_id:
                self.log.state_id, self.log.view = state_id, frame["view"]
        elif frame["type"] == "error":
            self.log.errors.append(frame)
        return frame

    async def next_state(self, timeout: float = 10) -> dict[str, Any]:
        """Receive frames until a `state` frame arrives; return it."""
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.next_frame(max(0.01, deadline - time.monotonic()))
            if frame["type"] == "state":
                return frame

    async def close(self) -> None:
        """Close the stream and the HTTP client."""
        await self._stop_reader()
        await self.http.aclose()
