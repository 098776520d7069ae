"""Catch a client up from the stored log: the events after the state it has, then the state.

The one repair path of the table's live updates (docs/protocol.md, "Catching up"): a
reconnecting page, a page that sees a gap in the state numbers, a socket that skipped states
and the layer watch after an outage all ask "since state N". The answer comes from the
database, which holds every applied action in order with the state it led to
(TableEvent.state_id), never from what a process remembers: it is the same in any process,
after a restart, and for any transport. The socket (games.consumers) sends these frames; a
future HTTP stream would send the same list.

Each event is shown as the asking seat may see it (games.announce.visible_event: another
seat's drawn cards never reach it), in the asker's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games.engine import Game
from games.errors import TableError
from games.models import Table, TableEvent
from games.players import table_info
from games.protocol import event_frames, state_frame
from games.refusals import table_game

# At most this many states back are replayed (a hostile or very old "since" reads no more
# rows than this); the `state` that ends the catch-up is whole however far back it starts.
MAX_STATES = 1000
# The events of this many stored actions are sent when a socket opens without "since".
HISTORY_ACTIONS = 8
BAD_SINCE = _("'since' must be the number of a state this table has had (a whole number).")
TABLE_GONE = _("This table no longer exists.")


@dataclass(frozen=True)
class CatchUp:
    """What a client is sent to catch up: event frames in order, then the state frame.

    `table` and `game` are the stored ones the state frame shows (the caller may plan the
    server's next step from them).
    """

    frames: list[dict[str, Any]]
    state_id: int
    table: Table
    game: Game


def read_since(value: Any) -> int:
    """Return a client's "since" as a state number; raise TableError `bad_since` otherwise.

    A state number is a whole number from 0 (bool, float, text and null are refused: JSON's
    1.0 is not a state). The caller checks the upper bound against the table.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TableError("bad_since", BAD_SINCE)
    return int(value)


def since_query(query_string: bytes) -> int | None:
    """Return the `since` of a socket's query string (`?since=12`), None when absent.

    Raise TableError `bad_since` when it is there but not a state number.
    """
    for part in query_string.decode("latin-1").split("&"):
        name, _sep, value = part.partition("=")
        if name == "since":
            return since_value(value)
    return None


def since_value(value: str) -> int:
    """Return the state number written in `value` (`?since=`, `Last-Event-ID`).

    Raise TableError `bad_since` when it is not a whole number of at most 10 digits.
    """
    if not value.isascii() or not value.isdigit() or len(value) > 10:
        raise TableError("bad_since", BAD_SINCE)
    return int(value)


def frames_since(*, table_id: int, seat: int | None, since: int, lang: str) -> CatchUp:
    """Return the frames that bring a client showing state `since` up to the stored state.

    Every stored action after `since` (at most MAX_STATES states back) as `event` frames in
    order, each with the `state_id` it led to, as `seat` may see it; then the `state` frame.
    Raise TableError `bad_since` (with the table's `state_id`) when `since` is a state the
    table has not reached, `table_not_found` when it is gone.
    """
    table = Table.objects.filter(pk=table_id).prefetch_related("seats").first()
    if table is None:
        raise TableError("table_not_found", TABLE_GONE)
    if since > table.state_id:
        raise TableError("bad_since", BAD_SINCE, {"state_id": table.state_id})
    info = table_info(table=table)
    frames = log_frames(
        table_id=table_id,
        seat=seat,
        info=info,
        lang=lang,
        after=max(since, table.state_id - MAX_STATES),
        upto=table.state_id,
    )
    game = table_game(table)  # with the cards refused this turn (games.refusals)
    # In the asker's language, like every state frame a page gets: without it `to_play` is
    # missing and the page's "You can play" goes blank (issue 30 §1.3).
    with translation.override(lang):
        frames.append(state_frame(game, seat, table.state_id, info, lang=lang))
    return CatchUp(frames, table.state_id, table, game)


def log_frames(
    *, table_id: int, seat: int | None, info: dict[str, Any], lang: str, after: int, upto: int
) -> list[dict[str, Any]]:
    """Return the `event` frames of the states after `after` up to `upto`, in order."""
    if upto <= after:
        return []
    rows = (
        TableEvent.objects.filter(table_id=table_id, state_id__gt=after, state_id__lte=upto)
        .order_by("seq")
        .values_list("state_id", "result")
    )
    frames = []
    with translation.override(lang):
        for state_id, events in rows:
            for frame in event_frames(events, seat, info, lang):
                frame["state_id"] = state_id
                frames.append(frame)
    return frames


def history_frames(
    *, table_id: int, seat: int | None, lang: str
) -> tuple[list[dict[str, Any]], Table]:
    """Return the events of the last few stored actions (marked `replay`) and the table.

    For a page opened afresh, to fill its empty log: each frame carries the action's `seq`.
    """
    table = Table.objects.prefetch_related("seats").get(pk=table_id)
    rows = list(
        TableEvent.objects.filter(table_id=table_id)
        .order_by("-seq")
        .values_list("seq", "result")[:HISTORY_ACTIONS]
    )
    rows.reverse()
    info = table_info(table=table)
    frames = []
    with translation.override(lang):
        for seq, events in rows:
            for frame in event_frames(events, seat, info, lang):
                frame.update(seq=seq, replay=True)
                frames.append(frame)
    return frames, table
