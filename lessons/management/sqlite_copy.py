"""Copy a SQLite database as one consistent snapshot: the one copy behind every backup.

`manage.py backup_db` (the server's cron or timer) and the box's `unoclass backup` and
`unoclass restore` all copy through `copy_database`. SQLite's online backup API copies the
committed state as one snapshot, even while daphne writes (a plain `cp` of a database in WAL
mode can miss committed pages still in the -wal file, or catch a half-written one). The copy is
written next to the target first, checked, and renamed into place, so the target is never a
half-written file.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path


class CopyFailed(Exception):
    """The copy could not be made; nothing was written at the target."""


def is_healthy(database: sqlite3.Connection) -> bool:
    """Return whether SQLite's quick integrity check passes on an open database."""
    result = database.execute("PRAGMA quick_check").fetchone()
    return result is not None and result[0] == "ok"


def copy_database(
    source: Path, target: Path, *, busy_seconds: float, read_only: bool = False
) -> None:
    """Copy `source` to `target` as one snapshot, checked, then renamed into place.

    `read_only` opens the source without write access (a backup being restored).
    """
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        _copy(source, partial, busy_seconds=busy_seconds, read_only=read_only)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def _copy(source: Path, partial: Path, *, busy_seconds: float, read_only: bool) -> None:
    # A connection of its own: Django's may sit in a write transaction, and SQLite cannot
    # back up a database through a connection that is writing to it.
    address = f"file:{source}?mode=ro" if read_only else str(source)
    reader = sqlite3.connect(address, timeout=busy_seconds, uri=read_only)
    copy = sqlite3.connect(partial)
    deadline = time.monotonic() + busy_seconds

    def give_up_when_late(status: int, remaining: int, total: int) -> None:
        # sqlite3 retries a busy step forever; a backup from cron must end.
        if time.monotonic() > deadline:
            raise CopyFailed(
                f"The database stayed busy for {busy_seconds:.0f} s; nothing was written."
            )

    try:
        # One step (pages=-1): the whole copy comes from a single read snapshot.
        reader.backup(copy, progress=give_up_when_late)
        # The live database runs in WAL mode; the copy is one self-contained file.
        copy.execute("PRAGMA journal_mode=DELETE")
        if not is_healthy(copy):
            raise CopyFailed("The copy failed SQLite's integrity check; nothing was written.")
    finally:
        copy.close()
        reader.close()
