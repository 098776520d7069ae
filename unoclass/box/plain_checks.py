"""`unoclass check`: what Django's deployment checks (`check --deploy`) say, in plain words.

A teacher reading it needs to know whether something is wrong and what to do, not the name of
a setting. The plain-http warnings are expected on a classroom's Wi-Fi and said once, as a fact;
anything else Django finds is said as it is, and an error makes the command fail. Then the
box's own state: the data folder, the last backup, whether PDFs can be printed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from django.core import checks
from django.utils import timezone

from lessons.printing.printing import pdf_available
from unoclass.box.backups import backup_taken_at, backups

Say = Callable[[str], str]
# Warnings that say the site runs on plain http: a classroom Wi-Fi has no certificate.
PLAIN_HTTP = {"security.W004", "security.W008", "security.W012", "security.W016"}
# Days after which the last backup counts as old.
BACKUP_OLD_DAYS = 7


def _serious_words(say: Say) -> dict[str, str]:
    return {
        "security.W018": say(
            "Debug mode is on: an error page would show the program's insides to anyone."
        ),
        "security.W009": say(
            "The secret key is weak: delete the secret_key file in the data folder and start "
            "again (everyone will have to sign in again)."
        ),
        "security.W020": say("No address is allowed: the server would refuse every page."),
    }


def _backup_line(say: Say, folder: Path) -> str:
    found = backups(folder)
    if not found:
        return say("No backup yet: run unoclass backup (every evening, for instance).")
    taken = backup_taken_at(found[-1])
    assert taken is not None
    line = say("Last backup: %(when)s, in %(folder)s.") % {
        "when": taken.strftime("%Y-%m-%d %H:%M"),
        "folder": found[-1].parent,
    }
    if timezone.now() - taken >= timedelta(days=BACKUP_OLD_DAYS):
        line += " " + say("It is more than a week old: make a new one (unoclass backup).")
    return line


def plain_report(say: Say, folder: Path) -> tuple[list[str], bool]:
    """Return the report's lines about the box of data folder `folder`, and whether something
    serious was found."""
    found = checks.run_checks(include_deployment_checks=True)
    serious_words = _serious_words(say)
    lines: list[str] = []
    serious = False
    if any(message.id in PLAIN_HTTP for message in found):
        lines.append(
            say(
                "Fine for a classroom: the pages travel in plain http, as on any Wi-Fi without a "
                "certificate, so someone on this Wi-Fi could read them. On the Internet, serve "
                "unoclass behind https instead (the deploy guide)."
            )
        )
    for message in found:
        if message.id in PLAIN_HTTP or message.level < checks.WARNING:
            continue
        serious = serious or message.level >= checks.ERROR or message.id in serious_words
        lines.append(
            say("Problem: %(text)s") % {"text": serious_words.get(str(message.id), message.msg)}
        )
    lines.append(say("Data folder: %(folder)s") % {"folder": folder})
    lines.append(_backup_line(say, folder))
    lines.append(
        say("PDF reports: printed here.")
        if pdf_available()
        else say(
            "PDF reports: this computer lacks WeasyPrint's libraries; reports open as pages to "
            "print from the browser."
        )
    )
    if not serious:
        lines.append(say("Nothing serious found."))
    return lines, serious
