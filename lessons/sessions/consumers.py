"""The teacher's live overview of a class session (its own Channels group), on any transport.

The logic is `OverviewLink`; the socket, the event stream and the POSTed frame are thin
adapters around it (games.realtime: docs/architecture.md). The link joins the session's
group (an attempt was stored, a student joined or moved, the session was paused or ended)
and the group of every table of the session (any move, by a student, a bot or a timer).
On each change it sends a fresh overview: the data and the HTML the page shows, never a
hand. Changes arriving close together are sent once.

The link only reads: seating the students whose wait is over and starting a new game where one
ended are server steps (games.driver, lessons.sessions.services.session_step). Each snapshot
plans the session's pending deal and each playing table's next step (bots, timers), as a
table's socket does on connecting: a restarted server picks them up again, and a table resumed
by the teacher moves on even if no player's socket reconnects.

Refusals are the toolkit's (games.realtime): accepted then closed with 4401 when signed out
(also later, when the teacher signed out elsewhere: each refresh checks the session) and 4403
when the session is not of one of the teacher's classes.
"""

from __future__ import annotations

import asyncio
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import driver
from games.broadcast import table_group
from games.errors import TableError
from games.models import Table
from games.realtime.asyncdb import in_thread
from games.realtime.consumer import RealtimeConsumer
from games.realtime.link import CLOSE_NO_ACCESS, CLOSE_SIGNED_OUT, RealtimeLink
from games.realtime.posted import PostedLink, bucket_for, request_scope
from games.realtime.signin import socket_user, still_signed_in
from games.realtime.stream import StreamConsumer
from games.services import next_step_for
from lessons.live.session_updates import session_group
from lessons.sessions.overview import session_overview
from lessons.sessions.present import overview_html
from lessons.sessions.selectors import session_for_teacher
from lessons.sessions.services import session_pending_step

# Changes closer together than this are sent as one overview.
COALESCE_SECONDS = 0.3
# While tables keep moving, one overview at most this often: the frame is the whole live part,
# and sent on every move it would cost a class's link more than all its tables' moves
# (docs/performance.md, "Slow links (issue 25)").
CHANGES_EVERY_SECONDS = 2.0


def refresh_delay(now: float, last: float | None) -> float:
    """Say how long to wait before an overview for a change at `now` (monotonic seconds).

    `last`: when the previous change-driven overview was built (None: none yet). A lone change
    waits COALESCE_SECONDS; a stream of changes gets one overview every CHANGES_EVERY_SECONDS.
    """
    if last is None:
        return COALESCE_SECONDS
    return max(COALESCE_SECONDS, last + CHANGES_EVERY_SECONDS - now)


def _snapshot(session_id: int, user: Any, lang: str) -> dict[str, Any] | None:
    """Build the overview frame, the tables to follow and the server steps pending (a read)."""
    session = session_for_teacher(teacher=user, session_id=session_id)
    if session is None:
        return None
    overview = session_overview(session=session)
    with translation.override(lang):
        html = overview_html(overview)
    steps: list[driver.Step] = []
    if (pending := session_pending_step(session=session)) is not None:
        steps.append(pending)
    tables = Table.objects.filter(lesson_table__session=session).prefetch_related("seats")
    for table in tables:
        step = next_step_for(table)
        if step is not None:
            steps.append(step)
    return {
        "frame": {"type": "overview", "data": overview.as_data(), "html": html},
        "tables": [t.table_id for t in overview.tables],
        "steps": steps,
    }


class OverviewLink(RealtimeLink):
    """A teacher's live link on the overview of one of their class sessions, any transport."""

    # The page sends one sync every 20 s; a snapshot costs queries and may take a lock.
    max_frame_bytes = 1024
    rate_burst = 5
    rate_per_second = 1.0

    session_id: int

    def _start(self) -> None:
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        self.tables: set[int] = set()
        self.pending = False
        self.last_change_refresh: float | None = None
        self.closing = False
        # One snapshot at a time: a sync and a coalesced refresh never cross on the wire.
        self.refreshing = asyncio.Lock()

    async def find_access(self) -> int | None:
        """Check the user is the session's teacher (a POSTed frame); None, or a close code."""
        user = socket_user(self.scope)
        if user is None:
            return CLOSE_SIGNED_OUT
        self._start()
        if await in_thread(session_for_teacher)(teacher=user, session_id=self.session_id) is None:
            return CLOSE_NO_ACCESS
        return None

    async def connect(self) -> None:
        """Accept the teacher of the session's class; refuse anyone else."""
        user = socket_user(self.scope)
        if user is None:
            await self.refuse(CLOSE_SIGNED_OUT)
            return
        self._start()
        snapshot = await in_thread(_snapshot)(self.session_id, user, self.lang)
        if snapshot is None:
            await self.refuse(CLOSE_NO_ACCESS)
            return
        await self.channel_layer.group_add(session_group(self.session_id), self.channel_name)
        await self.open_link()
        await self._send(snapshot)

    async def leave(self) -> None:
        """Leave the session's group and the tables' groups."""
        if not hasattr(self, "tables"):
            return
        self.closing = True
        await self.channel_layer.group_discard(session_group(self.session_id), self.channel_name)
        for table_id in self.tables:
            await self.channel_layer.group_discard(table_group(table_id), self.channel_name)

    async def receive_frame(self, content: dict[str, Any]) -> None:
        """Answer {"type": "sync"} with a fresh overview; any other type gets an error frame."""
        if content.get("type") == "sync":
            await self._refresh_now()
            return
        await self.send_error(TableError("unknown_type", _("Unknown message type.")))

    async def session_update(self, message: dict[str, Any]) -> None:
        """Something changed in the session: refresh soon."""
        self._refresh_soon()

    async def table_update(self, message: dict[str, Any]) -> None:
        """A table of the session moved: refresh soon (the message's state is not forwarded)."""
        self._refresh_soon()

    async def table_notice(self, message: dict[str, Any]) -> None:
        """A table's activity ended (the session's end tells every table): refresh soon.

        The notice itself is for the table's own pages; the overview shows the session's end.
        """
        self._refresh_soon()

    async def table_repair(self, message: dict[str, Any]) -> None:
        """The layer may have lost a table's moves (games.realtime.layer_watch): refresh soon."""
        self._refresh_soon()

    def _refresh_soon(self) -> None:
        if self.pending:
            return
        self.pending = True
        loop = asyncio.get_running_loop()
        delay = refresh_delay(loop.time(), self.last_change_refresh)
        loop.call_later(delay, lambda: loop.create_task(self._refresh_now(change=True)))

    async def _refresh_now(self, *, change: bool = False) -> None:
        async with self.refreshing:
            self.pending = False
            if change:
                self.last_change_refresh = asyncio.get_running_loop().time()
            if self.closing:
                return  # a refresh planned before the close
            if not await in_thread(still_signed_in)(self.scope):
                await self._close(CLOSE_SIGNED_OUT)
                return
            user = self.scope["user"]
            snapshot = await in_thread(_snapshot)(self.session_id, user, self.lang)
            if snapshot is None:
                await self._close(CLOSE_NO_ACCESS)
                return
            await self._send(snapshot)

    async def _close(self, code: int) -> None:
        self.closing = True
        await self.end(code)

    async def _send(self, snapshot: dict[str, Any]) -> None:
        # A POSTed frame has no channel: it follows no table (its stream or socket does).
        for table_id in set(snapshot["tables"]) - self.tables:
            if self.channel_name:
                await self.channel_layer.group_add(table_group(table_id), self.channel_name)
            self.tables.add(table_id)
        for step in snapshot["steps"]:
            driver.schedule(step)
        await self.send_frame(snapshot["frame"])


class SessionOverviewConsumer(OverviewLink, RealtimeConsumer):
    """A teacher's socket on the live overview of one of their class sessions."""

    async def disconnect(self, code: int) -> None:
        """Leave the session's group and the tables' groups."""
        await self.leave()


class SessionOverviewStreamConsumer(OverviewLink, StreamConsumer):
    """A teacher's event stream on the live overview (the fallback when no socket opens)."""


class OverviewPost(OverviewLink, PostedLink):
    """One overview frame POSTed (a `sync`): the overview's logic, the answer as the reply."""


async def post_overview_frame(request: HttpRequest, session_id: int) -> HttpResponse:
    """Handle one POSTed overview frame (the view's work: lessons.sessions.views)."""
    user = await request.auser()
    scope = request_scope(request, user, {"session_id": session_id})
    burst, rate = OverviewPost.rate_burst, OverviewPost.rate_per_second
    return await OverviewPost(scope, bucket_for(request, burst, rate)).answer(request.body)
