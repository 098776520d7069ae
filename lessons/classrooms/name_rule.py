"""The one rule for a pupil's name in a class: how it is cleaned, when it is refused, and when
two names are the same name. Every path that puts a name into a class (roster paste, CSV
import, rename, move into a class, a new year's class) goes through it.

Two names are the same when they read the same to a child picking their name in the list:
case folded ("Élodie" = "élodie", on SQLite too, where `iexact` folds ASCII only), Unicode
compatibility forms folded (NFKC: fullwidth "Ｌｕｃａｓ" = "Lucas"), and look-alike letters of
other scripts folded to their Latin prototype with Unicode's confusables table (UTS #39:
"Lucаs" with a Cyrillic а = "Lucas"). Accents still tell names apart ("Léa" is not "Lea"),
and only one-letter look-alikes count: "rn" and "m" are different letters a teacher types.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data

from lessons.models import DISPLAY_NAME_MAX_LENGTH, Classroom, Student

TOO_LONG = "too_long"
UNPRINTABLE = "unprintable"
# Direction marks the confusables data wraps around right-to-left look-alikes.
_MARKS = "\u200e\u200f"


def name_clean(raw: str) -> str:
    """Return the name as stored: runs of white space made one space, ends trimmed."""
    return " ".join(raw.split())


def name_fault(name: str) -> str | None:
    """Return why a cleaned name cannot be a pupil's name (TOO_LONG, UNPRINTABLE), or None."""
    if len(name) > DISPLAY_NAME_MAX_LENGTH:
        return TOO_LONG
    if not name.isprintable():
        return UNPRINTABLE
    return None


@lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """Return the letter `char` is drawn like (itself when it is a prototype or unlisted)."""
    entries = confusables_data.get(char)
    if not entries or len(entries) != 1:
        return char  # a prototype lists all its look-alikes; a look-alike lists its prototype
    target = str(entries[0]["c"]).strip(_MARKS)
    if len(target) != 1:
        return char
    back = confusables_data.get(target) or []
    if len(back) == 1 and back[0]["c"].strip(_MARKS) == char:
        return min(char, target)  # a pair listing each other: one prototype for both
    return target


def _is_latin(char: str) -> bool:
    return char.isascii() or unicodedata.name(char, "").startswith("LATIN")


def name_identity(name: str) -> str:
    """Return what two names must share to be the same name in a class (see the module)."""
    text = unicodedata.normalize("NFKC", name_clean(name))
    # Other scripts' look-alikes first, in their own case: a Cyrillic "Н" is drawn like "H",
    # its lower case "н" like no Latin letter. Latin letters wait for the case fold ("I" is
    # listed as drawn like "l", but "IRIS" is "iris").
    text = "".join(char if _is_latin(char) else _prototype(char) for char in text)
    folded = unicodedata.normalize("NFKC", text).casefold()
    drawn = "".join(_prototype(char) for char in folded)
    return unicodedata.normalize("NFKC", drawn).casefold()


def names_repeated(names: Iterable[str]) -> list[str]:
    """Return each name that repeats an earlier one of the list (once per identity)."""
    seen: set[str] = set()
    reported: set[str] = set()
    repeats: list[str] = []
    for name in names:
        key = name_identity(name)
        if key in seen and key not in reported:
            reported.add(key)
            repeats.append(name)
        seen.add(key)
    return repeats


def names_taken(
    classroom: Classroom, names: Iterable[str], *, other_than: Student | None = None
) -> list[str]:
    """Return the names that are already a pupil's name in the class (removed pupils too).

    Call it inside the transaction that adds or renames, with the classroom row locked, so two
    requests cannot both find a name free.
    """
    pupils = classroom.students.all()
    if other_than is not None:
        pupils = pupils.exclude(pk=other_than.pk)
    taken = {name_identity(name) for name in pupils.values_list("display_name", flat=True)}
    return [name for name in names if name_identity(name) in taken]


def classroom_lock(classroom: Classroom) -> Classroom:
    """Lock the classroom row until the transaction ends and return it as it is now.

    Two requests adding or renaming pupils of one class take turns here, so both cannot find
    one name free (nor one class unarchived while it is being archived).
    """
    return Classroom.objects.select_for_update().get(pk=classroom.pk)
