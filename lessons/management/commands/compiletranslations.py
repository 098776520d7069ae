"""Compile every .po file under locale/ to .mo with polib (no GNU gettext needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    help = "Compile every locale/*/LC_MESSAGES/*.po file to .mo with polib."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--locale-dir",
            type=Path,
            default=None,
            help="Directory to search (default: every directory in LOCALE_PATHS).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        roots = [options["locale_dir"]] if options["locale_dir"] else settings.LOCALE_PATHS
        po_files = sorted(po for root in roots for po in Path(root).rglob("*.po"))
        if not po_files:
            raise CommandError(f"No .po file found under {', '.join(map(str, roots))}.")
        for po_path in po_files:
            try:
                catalog = polib.pofile(str(po_path))
            except (OSError, ValueError) as error:
                raise CommandError(f"{po_path}: {error}") from error
            mo_path = po_path.with_suffix(".mo")
            catalog.save_as_mofile(str(mo_path))
            self.stdout.write(
                f"{mo_path} ({len(catalog.translated_entries())} translated, "
                f"{len(catalog.untranslated_entries())} untranslated)"
            )
