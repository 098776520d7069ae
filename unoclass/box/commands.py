"""What each `unoclass` command does (unoclass/box/cli.py parses; this runs)."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path

from unoclass.box import addresses
from unoclass.box.data_folder import folder_ready
from unoclass.box.serving_lock import FolderBusy, serving_lock

Say = Callable[[str], str]
Setup = Callable[[Path | None], None]
APPLICATION = "unoclass.asgi:application"


def _error(text: str) -> None:
    print(f"unoclass: {text}", file=sys.stderr, flush=True)


def listening_sockets(where: addresses.Served) -> list[socket.socket]:
    """Bind and listen on each address of `where` (port 0: a free port, the same for all)."""
    bound: list[socket.socket] = []
    port = where.port
    try:
        for host in where.listen:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            bound.append(sock)
            # A quick restart finds the port free although the last run's sockets linger.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
            sock.listen(512)
            port = sock.getsockname()[1]
    except OSError:
        for sock in bound:
            sock.close()
        raise
    return bound


def teacher_url(where: addresses.Served) -> str:
    """Return the address the teacher opens on this computer."""
    local = {addresses.ALL_INTERFACES, addresses.LOOPBACK}
    host = addresses.LOOPBACK if local & set(where.listen) else where.listen[0]
    return f"http://{host}:{where.port}/"


def _served_or_error(options: argparse.Namespace, say: Say) -> addresses.Served | int:
    if options.bind and not options.lan:
        _error(say("--bind goes with --lan: without it, unoclass serves this computer only."))
        return 2
    try:
        return addresses.served(lan=options.lan, bind=options.bind, port=options.port)
    except ValueError as error:
        _error(say("%(address)s is not an IPv4 address.") % {"address": error})
        return 2
    except LookupError:
        _error(
            say(
                "No network address found: is this computer connected to the Wi-Fi? "
                "Without --lan, unoclass serves this computer only."
            )
        )
        return 1


def _first_teacher(say: Say, base_url: str) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    from unoclass.box.first_teacher import setup_link, teacher_exists

    if teacher_exists():
        return
    if sys.stdin.isatty():
        try:
            username = input(
                say("No teacher yet. The first teacher's username (Enter: a set-up link instead): ")
            ).strip()
            if username:
                call_command("create_school_admin", username)
                return
        except CommandError as error:  # a password too weak, a pupil's username...
            _error(str(error))
        except EOFError:  # the terminal closed its input: the set-up link instead
            print()
    print(say("No teacher yet. The first teacher signs up once with this set-up link:"))
    print(f"    {setup_link(base_url)}", flush=True)


def serve(options: argparse.Namespace, folder: Path, say: Say, setup: Setup) -> int:
    """Serve the class with daphne: loopback, or the network with --lan."""
    where = _served_or_error(options, say)
    if isinstance(where, int):
        return where
    try:
        lock = serving_lock(folder)
    except FolderBusy:
        _error(
            say("Another unoclass serve already uses the data folder %(folder)s.")
            % {"folder": folder}
        )
        return 1
    with lock:
        try:
            sockets = listening_sockets(where)
        except OSError as error:
            _error(
                say("Cannot listen on port %(port)d: %(reason)s. Choose another with --port.")
                % {"port": where.port, "reason": error.strerror or error}
            )
            return 1
        where = dataclasses.replace(where, port=sockets[0].getsockname()[1])
        os.environ["ALLOWED_HOSTS"] = ",".join(where.allowed_hosts())
        os.environ["CSRF_TRUSTED_ORIGINS"] = ",".join(where.trusted_origins())
        if options.lan:
            os.environ["UNOCLASS_PUPIL_URL"] = where.pupil_url()
        setup(folder)
        from django.core.management import call_command

        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        print(say("Data folder: %(folder)s") % {"folder": folder})
        _first_teacher(say, teacher_url(where))
        _announce(options.lan, where, say)
        return _daphne(sockets)


def _announce(lan: bool, where: addresses.Served, say: Say) -> None:
    from unoclass.box.qr import qr_terminal

    print(say("Teachers open %(url)s on this computer.") % {"url": teacher_url(where)})
    if lan:
        print(say("Pupils on the same Wi-Fi can now reach unoclass here (or scan the code):"))
        print(f"    {where.pupil_url()}")
        # A terminal without block characters: the address is above, the code on the pages.
        with contextlib.suppress(UnicodeEncodeError):
            print(qr_terminal(where.pupil_url()))
    else:
        print(say("Only this computer reaches it: add --lan to let pupils join over the Wi-Fi."))
    print(say("Ctrl+C stops the server."), flush=True)


def _daphne(sockets: list[socket.socket]) -> int:
    from daphne.cli import CommandLineInterface

    endpoints: list[str] = []
    for sock in sockets:
        # Twisted adopts the descriptor and closes it itself.
        endpoints += ["-e", f"fd:fileno={sock.detach()}"]
    CommandLineInterface().run(["-v", "0", *endpoints, APPLICATION])
    return 0


def backup(options: argparse.Namespace, folder: Path, say: Say, setup: Setup) -> int:
    """Copy the database into the backups folder; remove the copies past the days kept."""
    setup(folder)
    from unoclass.box.backups import backup_now

    path = backup_now(folder, keep_days=options.keep_days)
    print(
        say("Backup written: %(path)s (backups are kept %(days)d days).")
        % {"path": path, "days": options.keep_days}
    )
    return 0


def restore(options: argparse.Namespace, folder: Path, say: Say, setup: Setup) -> int:
    """Put a backup in place of the database, while no unoclass serve runs."""
    setup(folder)
    from django.db import connections

    from unoclass.box.backups import NotABackup
    from unoclass.box.backups import restore as restore_backup

    try:
        lock = serving_lock(folder)
    except FolderBusy:
        _error(
            say("Stop unoclass serve first (Ctrl+C in its window): it is using %(folder)s.")
            % {"folder": folder}
        )
        return 1
    with lock:
        connections.close_all()
        try:
            saved = restore_backup(folder, options.file.expanduser().resolve())
        except NotABackup:
            _error(say("%(path)s is not a unoclass backup.") % {"path": options.file})
            return 1
    print(say("Restored from %(path)s.") % {"path": options.file})
    if saved is not None:
        print(say("The database before it was saved as %(path)s.") % {"path": saved})
    return 0


def demo(options: argparse.Namespace, folder: Path, say: Say, setup: Setup) -> int:
    """Add the demo class (safe to run again) and print its logins."""
    setup(folder)
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    call_command("demo_data")
    return 0


def check(options: argparse.Namespace, folder: Path, say: Say, setup: Setup) -> int:
    """Say what Django's deployment checks find, in plain words; 1 when one is serious."""
    setup(folder)
    from unoclass.box.plain_checks import plain_report

    lines, serious = plain_report(say, folder)
    for line in lines:
        print(line)
    return 1 if serious else 0


HANDLERS = {"serve": serve, "backup": backup, "restore": restore, "demo": demo, "check": check}


def run(options: argparse.Namespace, *, say: Say, setup: Setup) -> int:
    """Run the parsed command in its data folder."""
    folder = folder_ready(options.data)
    os.environ["UNOCLASS_DATA"] = str(folder)
    return HANDLERS[options.command](options, folder, say, setup)
