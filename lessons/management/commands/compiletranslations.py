"""Compile every .po file of the project to .mo with polib (no GNU gettext needed).

It reads LOCALE_PATHS (locale/) and the locale/ folder of each project app (games/locale/, ...),
never the catalogs of installed packages, which ship their own .mo files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from lessons.catalogs import compile_catalog


def _project_locale_dirs() -> list[Path]:
    base = Path(settings.BASE_DIR).resolve()
    dirs = [Path(path) for path in settings.LOCALE_PATHS]
    for app_config in apps.get_app_configs():
        app_locale = Path(app_config.path).resolve() / "locale"
        # The virtualenv may live inside the project: its packages are not project apps.
        relative = app_locale.relative_to(base) if app_locale.is_relative_to(base) else None
        if (
            relative is None
            or relative.parts[0].startswith(".")
            or "site-packages" in relative.parts
        ):
            continue
        if app_locale.is_dir():
            dirs.append(app_locale)
    return dirs


class Command(BaseCommand):
    help = "Compile every locale/*/LC_MESSAGES/*.po file to .mo with polib."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--locale-dir",
            type=Path,
            default=None,
            help="Directory to search (default: LOCALE_PATHS and each project app's locale/).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        roots = [options["locale_dir"]] if options["locale_dir"] else _project_locale_dirs()
        po_files = sorted(po for root in roots for po in Path(root).rglob("*.po"))
        if not po_files:
            raise CommandError(f"No .po file found under {', '.join(map(str, roots))}.")
        for po_path in po_files:
            try:
                mo_path, translated, untranslated = compile_catalog(po_path)
            except (OSError, ValueError) as error:
                raise CommandError(f"{po_path}: {error}") from error
            self.stdout.write(f"{mo_path} ({translated} translated, {untranslated} untranslated)")
