"""The WebSocket adapter of a live link: refusals a browser can read, frames as text.

A refusal accepts the socket, then closes it at once with the reason's code: a browser sees
the code of a closed socket but only `1006` for a refused handshake, and a page that cannot
tell "signed out" from "connection lost" retries for ever. The logic lives in
games.realtime.link (and the table's and the overview's own classes built on it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from channels.db import aclose_old_connections
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer

from games import jsontext
from games.realtime import delivery_ledger
from games.realtime.link import (
    CLOSE_NO_ACCESS,
    CLOSE_SIGNED_OUT,
    CLOSE_TRY_AGAIN,
    DATABASE_UNAVAILABLE,
    SIGNIN_CHECK_SECONDS,
    RealtimeLink,
)

if TYPE_CHECKING:
    from asgiref.typing import WebSocketConnectEvent, WebSocketDisconnectEvent

__all__ = [
    "CLOSE_NO_ACCESS",
    "CLOSE_SIGNED_OUT",
    "CLOSE_TRY_AGAIN",
    "DATABASE_UNAVAILABLE",
    "SIGNIN_CHECK_SECONDS",
    "RealtimeConsumer",
]


class RealtimeConsumer(RealtimeLink, AsyncWebsocketConsumer):
    """A live link carried by a WebSocket: one JSON text frame a message each way."""

    async def database_unavailable(self, message: dict[str, Any]) -> None:
        """Answer a message the database could not serve: an error frame, or a retry later.

        A socket still connecting closes with 1013 (try again later): the page reconnects.
        """
        if message["type"] == "websocket.connect":
            await self.close(code=CLOSE_TRY_AGAIN)
        elif message["type"] != "websocket.disconnect":
            await super().database_unavailable(message)

    async def websocket_connect(self, message: WebSocketConnectEvent) -> None:
        """Set the socket's language and frame budget, then let `connect` decide."""
        # Channels joins `groups` (the user's) before `connect` and leaves them on disconnect.
        self.start_link()
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message: WebSocketDisconnectEvent) -> None:
        """Leave the groups, then `disconnect`, as Channels does; a layer fault is no error.

        The socket is gone either way: while Redis is away, Channels' own group_discard raised
        out of the consumer (a traceback for every page closed during the outage).
        """
        for group in getattr(self, "groups", []):
            with delivery_ledger.quiet_layer_errors():
                await self.channel_layer.group_discard(group, self.channel_name)
        await self.disconnect(message["code"])
        await aclose_old_connections()
        raise StopConsumer

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Check the frame, then hand it to `receive_frame`."""
        await self.take_frame(text_data, bytes_data)

    async def open_link(self) -> None:
        """Accept the socket."""
        await self.accept()

    async def refuse(self, code: int) -> None:
        """Accept, then close at once with the reason's code; nothing is sent before it."""
        await self.accept()
        await self.close(code=code)

    async def end(self, code: int) -> None:
        """Close the socket with `code`."""
        await self.close(code=code)

    async def send_frame(self, frame: dict[str, Any]) -> None:
        """Send one JSON frame."""
        await self.send(text_data=jsontext.dumps(frame))
