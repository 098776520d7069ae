"""One `unoclass serve` per data folder, and no restore under a running one (filelock)."""

from __future__ import annotations

from pathlib import Path

from filelock import FileLock, Timeout

LOCK_FILE = "serve.lock"


class FolderBusy(RuntimeError):
    """Another `unoclass serve` holds this data folder."""


def serving_lock(folder: Path) -> FileLock:
    """Return the data folder's lock, taken at once or FolderBusy (use it with `with`)."""
    lock = FileLock(str(folder / LOCK_FILE), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise FolderBusy(str(folder)) from None
    return lock
