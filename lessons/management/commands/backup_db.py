"""Copy the SQLite database consistently while the site runs: `manage.py backup_db PATH`.

The copy is lessons.management.sqlite_copy's (one snapshot through SQLite's backup API,
checked, renamed into place). PostgreSQL has its own tool: pg_dump (docs/deploy.md).
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

from lessons.management.sqlite_copy import CopyFailed, copy_database

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

        try:
            copy_database(
                Path(str(connection.settings_dict["NAME"])), target, busy_seconds=BUSY_SECONDS
            )
        except CopyFailed as failure:
            raise CommandError(str(failure)) from None
        self.stdout.write(f"Database copied to {target}.")
