"""A table's status from outside its game: pause and resume, finish for good, and tell its
pages that its activity (a class session) has ended.
"""

from __future__ import annotations

from django.db import transaction

from games import host, store
from games.broadcast import broadcast_table_notice
from games.engine import Game
from games.models import Table
from games.services.awaiting import _arm_timer
from games.services.commit import _broadcast_after_commit
from games.services.table_lock import _lock


def table_set_paused(*, table_id: int, paused: bool) -> None:
    """Pause or resume a table; callers check access."""
    with transaction.atomic():
        locked = _lock(table_id)
        table = locked.table
        if table.status == Table.Status.FINISHED:
            return
        table.status = Table.Status.PAUSED if paused else Table.Status.PLAYING
        _arm_timer(table, Game.from_dict(table.state), locked.seats)
        table.save(update_fields=["status", "deadline"])
        _broadcast_after_commit(locked)


def table_finish(*, table_id: int) -> None:
    """Stop a table's game for good (a class session ended, or no player is left at it)."""
    with transaction.atomic():
        _finish(_lock(table_id))


def table_announce_end(*, table_id: int) -> None:
    """Tell every page of a table, after commit, that its activity (a class session) ended.

    Its game may be over already: the pages still showing that game's end hear it too, and
    stop offering a next game.
    """
    state_id = Table.objects.filter(pk=table_id).values_list("state_id", flat=True).first()
    if state_id is not None:
        broadcast_table_notice(table_id, int(state_id), ACTIVITY_ENDED)


# The notice a table's pages get when its activity ends (docs/protocol.md, `notice`).
ACTIVITY_ENDED = "activity_ended"


def _finish(locked: store.LockedTable) -> None:
    """Mark a locked table finished, with no timer; broadcast after commit."""
    table = locked.table
    if table.status == Table.Status.FINISHED:
        return
    table.status = Table.Status.FINISHED
    table.deadline = None
    table.save(update_fields=["status", "deadline"])
    host.registered().table_over(table.pk)
    _broadcast_after_commit(locked)
