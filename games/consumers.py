"""The table's transports: a socket, an event stream and a POSTed frame, around one TableSeat.

Each is a thin adapter (docs/architecture.md): the seat's logic is games.table_seat's, the
transport's is games.realtime's (consumer: WebSocket; stream: Server-Sent Events; posted: one
frame per POST). docs/protocol.md says when the page uses which.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from games.catch_up import since_value
from games.realtime.consumer import RealtimeConsumer
from games.realtime.posted import PostedLink, bucket_for, request_scope
from games.realtime.stream import StreamConsumer, header
from games.table_seat import TableSeat

__all__ = [
    "TableConsumer",
    "TablePost",
    "TableStreamConsumer",
    "post_table_frame",
]


class TableConsumer(TableSeat, RealtimeConsumer):
    """One player's (or a watching teacher's) socket on one table."""

    async def disconnect(self, code: int) -> None:
        """Leave the table's group; the seat stays the player's."""
        await self.leave()


class TableStreamConsumer(TableSeat, StreamConsumer):
    """One player's (or a watching teacher's) event stream on one table."""

    def since_asked(self) -> int | None:
        """Resume from `Last-Event-ID` (a browser reopening the stream), else `?since=N`.

        The browser's header names the last state it received on this stream: newer than
        the `since` in the address it first opened.
        """
        last = header(self.scope, b"last-event-id")
        if last is not None and last.strip():
            return since_value(last.strip())
        return super().since_asked()


class TablePost(TableSeat, PostedLink):
    """One client frame POSTed to a table: the seat's logic, the answer as the reply."""


async def post_table_frame(request: HttpRequest, table_id: int) -> HttpResponse:
    """Handle one POSTed table frame (the view's work: games.views.table_frames)."""
    user = await request.auser()
    scope = request_scope(request, user, {"table_id": table_id})
    link = TablePost(scope, bucket_for(request, TablePost.rate_burst, TablePost.rate_per_second))
    return await link.answer(request.body)
