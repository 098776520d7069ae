"""The `unoclass` command's words: French first, English second, from the app's own catalogue.

The command speaks before any settings load (its own errors, argparse's), so it reads
locale/*/LC_MESSAGES/django.mo with Python's gettext: the same catalogue as the pages. The
language is the terminal's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) when it is English, else French.
"""

from __future__ import annotations

import gettext
import os

from unoclass.share import SHARE_DIR

DOMAIN = "django"
LANGUAGES = ("fr", "en")


def gettext_noop(message: str) -> str:
    """Mark `message` for the catalogue without translating it (makemessages finds it)."""
    return message


# argparse's own messages (it looks them up with gettext.gettext): in the catalogue too, so a
# wrong argument is said in the teacher's language.
ARGPARSE_WORDS = (
    gettext_noop("usage: "),
    gettext_noop("%(prog)s: error: %(message)s\n"),
    gettext_noop("argument %(argument_name)s: %(message)s"),
    gettext_noop("the following arguments are required: %s"),
    gettext_noop("unrecognized arguments: %s"),
    gettext_noop("invalid choice: %(value)r (choose from %(choices)s)"),
    gettext_noop("expected one argument"),
    gettext_noop("positional arguments"),
    gettext_noop("options"),
    gettext_noop("show this help message and exit"),
)


def terminal_language(environ: dict[str, str] | None = None) -> str:
    """Return "en" when the terminal's first language is English, else "fr"."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            first = value.split(":")[0].split("_")[0].split(".")[0].lower()
            return first if first in LANGUAGES else "fr"
    return "fr"


def install(language: str) -> gettext.NullTranslations:
    """Make `language` the command's (argparse included); return its translations."""
    locale_dir = str(SHARE_DIR / "locale")
    gettext.bindtextdomain(DOMAIN, locale_dir)
    gettext.textdomain(DOMAIN)
    # gettext.gettext (argparse's) reads the environment's languages: the command's instead.
    os.environ["LANGUAGE"] = language
    return gettext.translation(DOMAIN, locale_dir, languages=[language], fallback=True)
