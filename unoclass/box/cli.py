"""The `unoclass` command: unoclass on a teacher's laptop or a school box, from the wheel.

    unoclass serve [--lan] [--bind ADDRESS] [--port N]   serve the class (loopback, or the Wi-Fi)
    unoclass backup [--keep-days N]                       a consistent copy, kept N days
    unoclass restore FILE                                  put a copy back (server stopped)
    unoclass demo                                          the demo class and its logins
    unoclass check                                         the deployment checks in plain words
    unoclass COMMAND ...                                   any Django management command

`--data DIR` (before the command) picks the data folder; without it, the platform's usual
place (unoclass/box/data_folder.py). Settings: unoclass/settings_box.py.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from unoclass.box import cli_words
from unoclass.box.data_folder import default_folder

# Set by main(): the command's translations (unoclass/box/cli_words.py).
_: Callable[[str], str] = cli_words.gettext_noop
OWN_COMMANDS = ("serve", "backup", "restore", "demo", "check")
DEFAULT_PORT = 8000
DEFAULT_KEEP_DAYS = 14


def port_number(text: str) -> int:
    """Read a port (0: any free port); argparse says the translated error otherwise."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(
            _("%(value)s is not a port: give a number from 0 to 65535.") % {"value": text}
        )
    return int(text)


def day_count(text: str) -> int:
    """Read a number of days (at least 1)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(
            _("%(value)s is not a number of days: give a whole number, 1 or more.")
            % {"value": text}
        )
    return int(text)


def parser() -> argparse.ArgumentParser:
    """Return the command's argument parser (its words in the command's language)."""
    top = argparse.ArgumentParser(
        prog="unoclass",
        description=_("unoclass on this computer: serve a class, back it up, restore it."),
        epilog=_("Any other COMMAND is one of Django's management commands (unoclass help)."),
    )
    top.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help=_("the data folder (default: %(folder)s)") % {"folder": default_folder()},
    )
    commands = top.add_subparsers(dest="command", metavar="COMMAND", required=True)
    serve = commands.add_parser("serve", help=_("serve the class (first run: set-up)"))
    serve.add_argument(
        "--lan",
        action="store_true",
        help=_("listen on this computer's network addresses: pupils on the same Wi-Fi join"),
    )
    serve.add_argument(
        "--bind",
        action="append",
        default=[],
        metavar="ADDRESS",
        help=_("with --lan: listen on this IPv4 address only (may be repeated)"),
    )
    serve.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        help=_("the port (default: %(port)d; 0: any free port)") % {"port": DEFAULT_PORT},
    )
    backup = commands.add_parser("backup", help=_("copy the database into the backups folder"))
    backup.add_argument(
        "--keep-days",
        type=day_count,
        default=DEFAULT_KEEP_DAYS,
        help=_("remove backups older than this many days (default: %(days)d)")
        % {"days": DEFAULT_KEEP_DAYS},
    )
    restore = commands.add_parser("restore", help=_("put a backup back (stop serve first)"))
    restore.add_argument("file", type=Path, metavar="FILE", help=_("the backup to restore"))
    commands.add_parser("demo", help=_("add the demo class and print its logins"))
    commands.add_parser("check", help=_("say what the deployment checks find, in plain words"))
    return top


def _setup_django(data: Path | None, language: str) -> None:
    """Load the box's settings for this data folder (unoclass/settings_box.py)."""
    if data is not None:
        os.environ["UNOCLASS_DATA"] = str(data.expanduser().resolve())
    os.environ["DJANGO_SETTINGS_MODULE"] = "unoclass.settings_box"
    import django
    from django.utils import translation

    django.setup()
    translation.activate(language)


def _split_global(argv: list[str]) -> tuple[list[str], list[str]]:
    """Split `--data DIR` (before the command) from the rest."""
    head: list[str] = []
    rest = list(argv)
    while rest and rest[0].startswith("--data"):
        option = rest.pop(0)
        head.append(option)
        if option == "--data" and rest:
            head.append(rest.pop(0))
    return head, rest


def main(argv: list[str] | None = None) -> int:
    """Run the command; return its exit status."""
    global _
    language = cli_words.terminal_language()
    _ = cli_words.install(language).gettext
    args = list(sys.argv[1:] if argv is None else argv)
    head, rest = _split_global(args)
    if rest and not rest[0].startswith("-") and rest[0] not in OWN_COMMANDS:
        # One of Django's management commands, run under the box's settings.
        options = parser().parse_args([*head, "check"])
        _setup_django(options.data, language)
        from django.core.management import execute_from_command_line

        execute_from_command_line(["unoclass", *rest])
        return 0
    options = parser().parse_args(args)
    from unoclass.box import commands

    return commands.run(options, say=_, setup=lambda data: _setup_django(data, language))
