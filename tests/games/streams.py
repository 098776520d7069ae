"""Helpers for the fallback link's tests: an event stream and POSTed frames, through the app.

Both go through `unoclass.asgi.application` (the real routing: Channels for the stream, Django
for the POST, with its CSRF and session middleware), signed in by a session cookie.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import ApplicationCommunicator, HttpCommunicator

from games.realtime import publishing
from tests.games.helpers import session_cookie
from unoclass.asgi import application

CSRF = "abcdefghijklmnopqrstuvwxyz012345"  # a 32-character CSRF secret (cookie and header)


@dataclass
class Event:
    """One server-sent event: its name (`message`, `close`), its id and its parsed data."""

    name: str
    id: str | None
    data: Any


@dataclass
class Stream:
    """A table's (or the overview's) event stream, read one event at a time."""

    comm: ApplicationCommunicator
    status: int = 0
    headers: dict[bytes, bytes] = field(default_factory=dict)
    buffer: str = ""
    ended: bool = False
    comments: int = 0
    gone: bool = False

    async def open(self, timeout: float = 3) -> int:
        """Send the GET and read the response's start; return the status."""
        await self.comm.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await self.comm.receive_output(timeout)
        assert start["type"] == "http.response.start"
        self.status = start["status"]
        self.headers = dict(start.get("headers", []))
        return self.status

    async def event(self, timeout: float = 3) -> Event:
        """Return the next event (comments and the `retry` line are skipped)."""
        while True:
            while "\n\n" not in self.buffer:
                if self.ended:
                    raise EOFError("the stream has ended")
                message = await self.comm.receive_output(timeout)
                assert message["type"] == "http.response.body"
                self.buffer += message["body"].decode()
                self.ended = not message.get("more_body", False)
            block, self.buffer = self.buffer.split("\n\n", 1)
            name, event_id, data = "message", None, []
            for line in block.split("\n"):
                key, _sep, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if key == "":
                    self.comments += 1
                elif key == "event":
                    name = value
                elif key == "id":
                    event_id = value
                elif key == "data":
                    data.append(value)
            if data:
                event = Event(name, event_id, json.loads("\n".join(data)))
                if event.name == "close" and self.ended:
                    await self.disconnect()  # as daphne does once a response is over
                return event

    async def frame(self, kind: str, timeout: float = 3) -> dict[str, Any]:
        """Read frames until one of the given type arrives; return it (a close: AssertionError)."""
        while True:
            event = await self.event(timeout)
            assert event.name == "message", f"the stream closed: {event.data}"
            if event.data["type"] == kind:
                return event.data  # type: ignore[no-any-return]

    async def frames_until(self, kind: str, timeout: float = 3) -> list[Event]:
        """Read events up to and with the first frame of the given type."""
        found: list[Event] = []
        while True:
            event = await self.event(timeout)
            found.append(event)
            if event.name != "message" or event.data["type"] == kind:
                return found

    async def close_code(self, timeout: float = 3) -> int:
        """Read until the final `close` event; return its code."""
        while True:
            event = await self.event(timeout)
            if event.name == "close":
                assert self.ended, "a close event ends the response"
                return int(event.data["code"])

    async def nothing(self, timeout: float = 0.3) -> bool:
        """Tell whether nothing but comments arrives within `timeout`."""
        return await self.comm.receive_nothing(timeout)

    async def disconnect(self) -> None:
        """Go away as a browser does, and let the consumer stop."""
        if self.gone:
            return
        self.gone = True
        await self.comm.send_input({"type": "http.disconnect"})
        await self.comm.wait(timeout=3)


async def cookie_for(user: Any) -> bytes | None:
    """Return a signed-in Cookie header for `user` (None: anonymous)."""
    if user is None:
        return None
    return await database_sync_to_async(session_cookie)(user)


def _headers(
    cookie: bytes | None, extra: list[tuple[bytes, bytes]] | None, host: bytes = b"testserver"
) -> list[Any]:
    headers = [(b"host", host)]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    return headers + (extra or [])


async def stream(
    path: str,
    cookie: bytes | None,
    headers: list[tuple[bytes, bytes]] | None = None,
    *,
    host: bytes = b"testserver",
    timeout: float = 3,
) -> Stream:
    """Open an event stream at `path` with the Cookie header (None: anonymous)."""
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": path.split("?")[0],
        "raw_path": path.split("?")[0].encode(),
        "query_string": path.partition("?")[2].encode(),
        "root_path": "",
        "scheme": "http",
        "headers": _headers(cookie, headers, host),
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    found = Stream(ApplicationCommunicator(application, scope))
    await found.open(timeout)
    return found


@dataclass
class Answer:
    """A POSTed frame's answer: the HTTP status and the JSON body."""

    status: int
    body: dict[str, Any]

    @property
    def frames(self) -> list[dict[str, Any]]:
        """Return the frames of the answer."""
        return list(self.body.get("frames", []))


async def post_frame(
    path: str,
    cookie: bytes | None,
    frame: Any,
    *,
    raw: bytes | None = None,
    csrf: bool = True,
    origin: bytes = b"http://testserver",
    host: bytes = b"testserver",
    extra: list[tuple[bytes, bytes]] | None = None,
) -> Answer:
    """POST one frame (JSON, or `raw` bytes) at `path` as the page does; return the answer."""
    body = raw if raw is not None else json.dumps(frame).encode()
    cookies = (cookie + b"; " if cookie else b"") + b"csrftoken=" + CSRF.encode()
    sent = [(b"content-type", b"application/json"), (b"origin", origin), *(extra or [])]
    if csrf:
        sent.append((b"x-csrftoken", CSRF.encode()))
    headers = [(b"host", host), (b"cookie", cookies), *sent]
    comm = HttpCommunicator(application, "POST", path, body=body, headers=headers)
    response = await comm.get_response(timeout=5)
    await comm.wait(timeout=5)  # Django's handler has ended (its disconnect listener too)
    await publishing.publishes_done()  # the move's broadcast, started in the background
    try:
        parsed = json.loads(response["body"])
    except ValueError:
        parsed = {"text": response["body"].decode(errors="replace")}
    return Answer(response["status"], parsed if isinstance(parsed, dict) else {"value": parsed})


def fallback_paths(socket_path: str) -> tuple[str, str]:
    """Return the stream's and the frames' paths of a socket path (`/ws/table/7/`...)."""
    if socket_path == "/ws/network-check/":  # the network check's links (unoclass)
        return "/network-check/stream/", "/network-check/echo/"
    rest = socket_path.removeprefix("/ws/")
    kind, _slash, ident = rest.strip("/").partition("/")
    prefix = {"table": "/tables/", "session": "/sessions/"}[kind]
    return f"{prefix}{ident}/stream/", f"{prefix}{ident}/frames/"


async def first_answer(
    transport: str, socket_path: str, cookie: bytes | None
) -> int | dict[str, Any]:
    """Open the link the transport names as the page would; return a close code or its first frame.

    `socket`: the socket's close code, or its first frame; `stream`: the close event's code,
    or its first frame; `post`: a `sync` POSTed (401/403 read as 4401/4403), or its first frame.
    """
    from channels.testing import WebsocketCommunicator

    stream_path, frames_path = fallback_paths(socket_path)
    if transport == "socket":
        headers = [(b"origin", b"http://testserver"), *_headers(cookie, None)]
        comm = WebsocketCommunicator(application, socket_path, headers=headers)
        connected, code = await comm.connect()
        if not connected:
            assert isinstance(code, int), code
            return code
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return int(output["code"])
        await comm.disconnect()
        return json.loads(output["text"])  # type: ignore[no-any-return]
    if transport == "stream":
        found = await stream(stream_path, cookie)
        event = await found.event(timeout=5)
        if event.name == "close":
            return int(event.data["code"])
        await found.disconnect()
        return event.data  # type: ignore[no-any-return]
    answer = await post_frame(frames_path, cookie, {"type": "sync"})
    if answer.status in (401, 403):
        assert answer.body.get("close") == {401: 4401, 403: 4403}[answer.status]
        return int(answer.body["close"])
    assert answer.status == 200, answer.body
    return answer.frames[0]


TRANSPORTS = ["socket", "stream", "post"]


class SocketReader:
    """A table socket read like a stream: `frame(kind)` and `disconnect()`."""

    def __init__(self, comm: Any) -> None:
        self.comm = comm

    async def frame(self, kind: str, timeout: float = 3) -> dict[str, Any]:
        """Read frames until one of the given type arrives; return it."""
        from tests.games.helpers import receive_until

        return await receive_until(self.comm, kind, timeout)

    async def disconnect(self) -> None:
        """Close the socket."""
        await self.comm.disconnect()


async def table_reader(transport: str, table_id: int, user: Any) -> SocketReader | Stream:
    """Open a seat's server-to-client link on a table: its socket or its event stream."""
    from tests.games.helpers import socket

    if transport == "socket":
        comm = await socket(table_id, user)
        connected, _code = await comm.connect()
        assert connected
        return SocketReader(comm)
    return await stream(f"/tables/{table_id}/stream/", await cookie_for(user))
