"""Copy the SQLite database consistently while the site runs: `manage.py backup_db PATH`.

SQLite's online backup API copies the committed state as one snapshot, even while daphne
writes (a plain `cp` of a database in WAL mode can miss committed pages still in the -wal file,
or catch a half-written one). The copy is written next to PATH first and renamed into place, so
PATH is never a half-written file. PostgreSQL has its own tool: pg_dump (docs/deploy.md).
"""

from __future__ import annotations

import os
import sqlite3
import time
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

# How long the copy may wait for a database that another connection keeps locked.
BUSY_SECONDS = 60.0


class Command(BaseCommand):
    help = "Copy the SQLite database to PATH as one consistent snapshot, while the site runs."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("path", help="The file to write the copy to.")
        parser.add_argument(
            "--force", action="store_true", help="Replace PATH if it already exists."
        )
        parser.add_argument(
            "--database", default=DEFAULT_DB_ALIAS, help="The database alias (default: default)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        if connection.vendor != "sqlite":
            raise CommandError(
                f"backup_db copies SQLite databases only; this one is {connection.vendor}. "
                "Use pg_dump for PostgreSQL (docs/deploy.md, 'Backups and restore')."
            )
        target = Path(options["path"]).expanduser()
        if target.is_dir():
            raise CommandError(f"{target} is a directory: give the path of the file to write.")
        if target.exists() and not options["force"]:
            raise CommandError(f"{target} already exists: choose another path, or add --force.")
        if not target.parent.is_dir():
            raise CommandError(f"The directory {target.parent} does not exist.")
        if target.resolve() == Path(str(connection.settings_dict["NAME"])).resolve():
            raise CommandError(f"{target} is the database itself.")

        partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
        try:
            self._copy(connection, partial)
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        self.stdout.write(f"Database copied to {target}.")

    def _copy(self, connection: Any, partial: Path) -> None:
        # A connection of its own: Django's may sit in a write transaction, and SQLite cannot
        # back up a database through a connection that is writing to it.
        source = sqlite3.connect(str(connection.settings_dict["NAME"]), timeout=BUSY_SECONDS)
        copy = sqlite3.connect(partial)
        deadline = time.monotonic() + BUSY_SECONDS

        def give_up_when_late(status: int, remaining: int, total: int) -> None:
            # sqlite3 retries a busy step forever; a backup from cron must end.
            if time.monotonic() > deadline:
                raise CommandError(
                    f"The database stayed busy for {BUSY_SECONDS:.0f} s; nothing was written."
                )

        try:
            # One step (pages=-1): the whole copy comes from a single read snapshot.
            source.backup(copy, progress=give_up_when_late)
            # The live database runs in WAL mode; the copy is one self-contained file.
            copy.execute("PRAGMA journal_mode=DELETE")
            result = copy.execute("PRAGMA quick_check").fetchone()
            if result is None or result[0] != "ok":
                raise CommandError("The copy failed SQLite's integrity check; nothing was written.")
        finally:
            copy.close()
            source.close()
