"""Erase the pupils' data of classes whose retention period is over (cron, daily)."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from lessons.ent.purge import ent_purge
from lessons.school.purge import purge_expired


class Command(BaseCommand):
    """List what would be erased (the default), or erase it with --apply; safe to rerun."""

    help = (
        "Erase (or pseudonymise, if the school keeps research data) the names, PINs and plays "
        "of pupils whose class's retention period is over, and the ENT's unlinked pupils and "
        "tickets past their time. Dry run unless --apply."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        """Add --apply."""
        parser.add_argument(
            "--apply", action="store_true", help="Erase for real (default: only list)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        """List the expired classes, and purge them with --apply."""
        apply = bool(options["apply"])
        expired = purge_expired(apply=apply)
        verb = "purged" if apply else "would purge"
        for item in expired:
            self.stdout.write(
                f"{verb} class {item.classroom_id} ({item.classroom_name}): "
                f"{item.students} pupils, {item.mode}, expired {item.expired_at:%Y-%m-%d}"
            )
        if not expired:
            self.stdout.write("Nothing has expired.")
        elif not apply:
            self.stdout.write("Dry run: nothing was changed. Run with --apply to erase.")
        if apply:
            seen, tickets = ent_purge()
            self.stdout.write(
                f"ENT: forgot {seen} unlinked pupils seen long ago and {tickets} old tickets."
            )
