"""Lock a table row with its seats for a service's transaction, and read what it keeps of
its log (each seat's last move).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games import store
from games.errors import TableError
from games.models import Table

TABLE_NOT_FOUND = _("This table does not exist.")


def _lock(table_id: int, seat_row: Any = None) -> store.LockedTable:
    """Lock the table row for this transaction, with its seats; raise TableError if none."""
    locked = store.lock(table_id, seat_row)
    if locked is None:
        raise TableError("table_not_found", TABLE_NOT_FOUND)
    return locked


def _last_moves(table: Table) -> dict[int, int] | None:
    """Return each seat's last stored action (None: not kept).

    Trusted only when its last action is the table's (`moves`): an event stored by another
    path than _commit makes it unknown, never wrong.
    """
    kept = table.last_moves
    if not isinstance(kept, dict):
        return None
    seqs = {int(seat): int(seq) for seat, seq in kept.items()}
    return seqs if max(seqs.values(), default=0) == table.moves else None
