"""Whether a seated player is there: the signs of life their pages give, kept in Seat.last_seen.

A player is present while one of their seats has had a sign within PRESENT_FOR: a table link
of theirs connected, or received a frame (an action, a refused card, a reason's answer, a
`sync`, a heartbeat `ping`: every frame counts). A closed link gives no more signs; PRESENT_FOR
after the last one the player is absent, and the robot rules of games.services apply. Any of
the player's seats counts: a child still reading the last game's end screen is present for
the next game's table too.

Writes are throttled (WRITE_EVERY per seat and process): a page that sends a frame a second
costs one UPDATE every ten seconds, never one per frame.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Max

from games.models import Seat

# How long a sign keeps a player present. Longer than any quiet spell of a page that is
# open: a heartbeat `ping` comes every few seconds, and a page without it still sends a frame
# at least every 15 s while others play (its quiet `sync`); 90 s also covers a child thinking
# over their own turn without a tap. Short enough that a phone gone offline, or a page closed,
# lets a robot take a seat that was never played within two minutes.
PRESENT_FOR = timedelta(seconds=90)
# At most one write of a seat's last_seen in this long (per process): the throttle above.
WRITE_EVERY = timedelta(seconds=10)
# The throttle remembers this many seats at most (the oldest are forgotten).
MAX_REMEMBERED = 20_000

_written: dict[tuple[int, int], datetime] = {}


def mark_seen(*, table_id: int, seat_index: int, now: datetime) -> bool:
    """Record a sign of the player of a seat; tell whether they come (or come back) with it.

    True: the seat had no sign yet (the player's first at this table) or none within
    PRESENT_FOR (they were absent): the caller lets the table know (games.services.seat_came).
    Nothing is written within WRITE_EVERY of the last write, nor for a seat with no player.
    """
    key = (table_id, seat_index)
    if not write_due(table_id=table_id, seat_index=seat_index, now=now):
        return False
    row = Seat.objects.filter(table_id=table_id, index=seat_index, user__isnull=False)
    before = row.values_list("last_seen", flat=True).first()
    if not row.update(last_seen=now):
        return False
    _written[key] = now
    if len(_written) > MAX_REMEMBERED:
        del _written[next(iter(_written))]
    return before is None or now - before >= PRESENT_FOR


def write_due(*, table_id: int, seat_index: int, now: datetime) -> bool:
    """Tell whether a sign of this seat would be written now (no query: the throttle only)."""
    written = _written.get((table_id, seat_index))
    return written is None or not timedelta(0) <= now - written < WRITE_EVERY


def is_present(seat: Seat, now: datetime) -> bool:
    """Tell whether the seat's player has given a sign within PRESENT_FOR (on any seat)."""
    last = last_sign(seat, now)
    return last is not None and now - last < PRESENT_FOR


def last_sign(seat: Seat, now: datetime) -> datetime | None:
    """Return the player's latest sign on any of their seats (None: none, or no player).

    One query, only when this seat's own sign is not recent enough to answer.
    """
    if seat.user_id is None:
        return None
    own = seat.last_seen
    if own is not None and now - own < PRESENT_FOR:
        return own
    latest = Seat.objects.filter(user_id=seat.user_id).aggregate(latest=Max("last_seen"))
    found: datetime | None = latest["latest"]
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
