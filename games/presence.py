"""Whether a seated player is there: the signs of life their pages give, kept in Seat.last_seen.

A player is present while one of their seats has had a sign within PRESENT_FOR: a table link
of theirs connected, or received a frame (an action, a refused card, a reason's answer, a
`sync`, a heartbeat `ping`: every frame counts). A closed link gives no more signs; PRESENT_FOR
after the last one the player is absent, and the robot rules of games.services apply. Any of
the player's seats counts: a child still reading the last game's end screen is present for
the next game's table too.

An open link (a socket or a stream) also gives a sign of itself every PRESENT_FOR / 3, frames
or not: a page that is open is there. Writes are throttled (WRITE_EVERY per seat and process):
a page that sends a frame a second costs one UPDATE every ten seconds, never one per frame.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Max

from games import store
from games.models import Seat

# How long a sign keeps a player present. Three times the spell between an open link's own
# signs (30 s), so one late or lost write never makes a child who is there absent; beyond a
# page's quiet spells too (a child thinking over their turn sends nothing). Short enough that a
# closed page, or a phone gone offline (its socket dropped), lets the robot rules apply within
# a minute and a half.
PRESENT_FOR = timedelta(seconds=90)
# At most one write of a seat's last_seen in this long (per process): the throttle above.
WRITE_EVERY = timedelta(seconds=10)
# An open link (socket or stream) gives a sign of itself this many times per PRESENT_FOR,
# whether its page sends frames or not: a page that is open is there (games.table_seat).
REFRESHES_PER_PRESENCE = 3
# The throttle remembers this many seats at most (the oldest are forgotten).
MAX_REMEMBERED = 20_000

_written: dict[tuple[int, int], datetime] = {}


def present_for() -> timedelta:
    """Return how long a sign keeps a player present (setting GAMES_PRESENT_FOR, seconds).

    The setting exists for the browser tests, which cannot wait 90 s of real time.
    """
    seconds = getattr(settings, "GAMES_PRESENT_FOR", None)
    return timedelta(seconds=float(seconds)) if seconds else PRESENT_FOR


def write_every() -> timedelta:
    """Return the write throttle: WRITE_EVERY, or less when PRESENT_FOR is set shorter."""
    return min(WRITE_EVERY, present_for() / (REFRESHES_PER_PRESENCE + 1))


def refresh_seconds() -> float:
    """Return how often an open link gives a sign of itself (seconds)."""
    return present_for().total_seconds() / REFRESHES_PER_PRESENCE


def mark_seen(*, table_id: int, seat_index: int, now: datetime) -> bool:
    """Record a sign of the player of a seat; tell whether they come (or come back) with it.

    True: the seat had no sign yet (the player's first at this table) or none within
    PRESENT_FOR (they were absent): the caller lets the table know (games.services.seat_came).
    Nothing is written within WRITE_EVERY of the last write, nor for a seat with no player.
    """
    key = (table_id, seat_index)
    if not write_due(table_id=table_id, seat_index=seat_index, now=now):
        return False
    written = _written.get(key)
    # A sign this process wrote within PRESENT_FOR says the player is there: a sign only ever
    # moves forward, so the row holds it or a later one, and its read is spared (one statement
    # a sign instead of two: signs were most of an idle table link's cost, docs/performance.md).
    stayed = written is not None and timedelta(0) <= now - written < present_for()
    before = None
    if not stayed:
        row = Seat.objects.filter(table_id=table_id, index=seat_index, user__isnull=False)
        before = row.values_list("last_seen", flat=True).first()
    if not store.sign(table_id, seat_index, now):
        return False
    _written[key] = now
    if len(_written) > MAX_REMEMBERED:
        del _written[next(iter(_written))]
    return not stayed and (before is None or now - before >= present_for())


def write_due(*, table_id: int, seat_index: int, now: datetime) -> bool:
    """Tell whether a sign of this seat would be written now (no query: the throttle only)."""
    written = _written.get((table_id, seat_index))
    return written is None or not timedelta(0) <= now - written < write_every()


def is_present(seat: Seat, now: datetime) -> bool:
    """Tell whether the seat's player has given a sign within PRESENT_FOR (on any seat)."""
    last = last_sign(seat, now)
    return last is not None and now - last < present_for()


def last_sign(seat: Seat, now: datetime) -> datetime | None:
    """Return the player's latest sign on any of their seats (None: none, or no player).

    One query, only when this seat's own sign is not recent enough to answer.
    """
    if seat.user_id is None:
        return None
    own = seat.last_seen
    if own is not None and now - own < present_for():
        return own
    found: datetime | None = store.latest_sign(seat.user_id)
    return found if found is not None and (own is None or found > own) else own


def last_signs(user_ids: list[int]) -> dict[int, datetime]:
    """Return each player's latest sign on any seat (players without one are left out)."""
    rows = (
        Seat.objects.filter(user_id__in=user_ids, last_seen__isnull=False)
        .values("user_id")
        .annotate(latest=Max("last_seen"))
    )
    return {row["user_id"]: row["latest"] for row in rows}


def forget() -> None:
    """Forget the write throttle (tests)."""
    _written.clear()
