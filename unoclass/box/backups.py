"""The box's backups: a consistent SQLite copy in the data folder's backups/, kept N days.

`unoclass backup` copies the live database with `manage.py backup_db` (one snapshot through
lessons.management.sqlite_copy, even while the class plays) to
`backups/unoclass-YYYY-MM-DD-HHMMSS.sqlite3`, then removes the copies older than the days kept,
by the date in their name (a copied file's mtime would lie). `unoclass restore FILE` puts a
copy back, through the same copy, while no `unoclass serve` runs, after saving the current
database beside the backups.
"""

from __future__ import annotations

import io
import os
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

from django.core.management import call_command
from django.utils import timezone

from lessons.management.sqlite_copy import CopyFailed, copy_database, is_healthy
from unoclass.box.data_folder import database_path

BACKUP_FOLDER = "backups"
PREFIX = "unoclass-"
STAMP = "%Y-%m-%d-%H%M%S"
SUFFIX = ".sqlite3"
# The tables a copy of unoclass's own database has: anything else is refused.
REQUIRED_TABLES = ("django_migrations", "lessons_user", "lessons_classroom")
# Nothing else writes a backup being restored: a busy one is not a backup.
RESTORE_BUSY_SECONDS = 10.0


class NotABackup(ValueError):
    """The file given to restore is not a readable copy of a unoclass database."""


def backup_folder(folder: Path) -> Path:
    """Return the data folder's backups folder, created if needed."""
    path = folder / BACKUP_FOLDER
    path.mkdir(exist_ok=True)
    return path


def backup_taken_at(path: Path) -> datetime | None:
    """Return when a backup was taken, from its name; None for another file."""
    name = path.name
    if not (name.startswith(PREFIX) and name.endswith(SUFFIX)):
        return None
    try:
        moment = datetime.strptime(name[len(PREFIX) : -len(SUFFIX)], STAMP)
    except ValueError:
        return None
    return timezone.make_aware(moment, timezone.get_default_timezone())


def backups(folder: Path) -> list[Path]:
    """Return the folder's backups, oldest first."""
    found = [(backup_taken_at(p), p) for p in backup_folder(folder).iterdir()]
    return [path for moment, path in sorted((m, p) for m, p in found if m is not None)]


def backup_now(folder: Path, *, keep_days: int, now: datetime | None = None) -> Path:
    """Copy the database into backups/ and remove the copies older than `keep_days` days."""
    moment = timezone.localtime(now or timezone.now())
    target = backup_folder(folder) / f"{PREFIX}{moment.strftime(STAMP)}{SUFFIX}"
    call_command("backup_db", str(target), force=True, stdout=io.StringIO())
    prune(folder, keep_days=keep_days, now=moment, keep=target)
    return target


def prune(folder: Path, *, keep_days: int, now: datetime, keep: Path) -> list[Path]:
    """Remove the backups taken more than `keep_days` days before `now`, never `keep` (the one
    just written, whatever the clock says); return the removed ones."""
    limit = now - timedelta(days=keep_days)
    removed = []
    for old in backups(folder):
        taken = backup_taken_at(old)
        if old != keep and taken is not None and taken < limit:
            old.unlink()
            removed.append(old)
    return removed


def _check_backup(path: Path) -> None:
    try:
        copy = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise NotABackup(str(error)) from None
    try:
        tables = {row[0] for row in copy.execute("SELECT name FROM sqlite_master")}
        healthy = is_healthy(copy)
    except sqlite3.DatabaseError as error:
        raise NotABackup(str(error)) from None
    finally:
        copy.close()
    if not healthy or not set(REQUIRED_TABLES) <= tables:
        raise NotABackup(str(path))


def restore(folder: Path, source: Path, *, now: datetime | None = None) -> Path | None:
    """Put the backup `source` in place of the database; return the saved current one.

    Call it with the folder's serving lock held: nothing may write meanwhile. The current
    database (if any) is first saved as a backup; the copy is written beside the database and
    renamed into place, with the old write-ahead log removed, so a failure leaves it as it was.
    """
    if not source.is_file():
        raise NotABackup(str(source))
    _check_backup(source)
    database = database_path(folder)
    saved = None
    if database.exists():
        moment = timezone.localtime(now or timezone.now())
        saved = backup_folder(folder) / f"{PREFIX}{moment.strftime(STAMP)}-before-restore.sqlite3"
        call_command("backup_db", str(saved), force=True, stdout=io.StringIO())
    # The copy is written and checked beside the database first: a failure leaves it as it was.
    staged = database.with_name(f".{database.name}.restore-{os.getpid()}")
    try:
        copy_database(source, staged, busy_seconds=RESTORE_BUSY_SECONDS, read_only=True)
    except CopyFailed as failure:
        raise NotABackup(str(failure)) from None
    for leftover in (Path(f"{database}-wal"), Path(f"{database}-shm")):
        leftover.unlink(missing_ok=True)
    os.replace(staged, database)
    return saved
