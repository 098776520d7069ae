"""The names a school export's pupils get in the class list: the first name and the initial of
the last name ("Zoé M."), or the whole last name ("Zoé MARTIN") when the teacher asks.

Where two pupils of a class would read the same (the one name rule, name_identity), their last
names get more letters until they differ ("Lucas Mar.", "Lucas Mor."); two pupils with the same
first and last names are numbered ("Lucas M.", "Lucas M. (2)"), for the teacher to rename.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lessons.classrooms.name_rule import name_clean, name_identity
from lessons.classrooms.roster_files.pupils import SchoolPupil


def _short(first: str, last: str, letters: int | None) -> str:
    """Return the first name and `letters` letters of the last name (None: all of it)."""
    if not last:
        return first
    if letters is None or letters >= len(last):
        return f"{first} {last}"
    prefix = last[:letters]
    # ONDE and SIECLE write last names in capitals: "Mar." reads better than "MAR.".
    if last.isupper():
        prefix = prefix[0] + prefix[1:].lower()
    return f"{first} {prefix.upper() if letters == 1 else prefix}."


def _letters_needed(group: Sequence[SchoolPupil]) -> int:
    """Return how many letters of the last names tell apart a group's different last names."""
    different = {name_identity(p.last) for p in group}
    longest = max(len(p.last) for p in group)
    for letters in range(1, longest + 1):
        shown = {name_identity(p.last[:letters]) for p in group}
        if len(shown) == len(different):
            return letters
    return longest


def class_names(pupils: Sequence[SchoolPupil], *, whole_last_name: bool) -> list[str]:
    """Return the display names of one class's pupils, in their order, all different."""
    pupils = [
        SchoolPupil(first=name_clean(p.first), last=name_clean(p.last), classe=p.classe)
        for p in pupils
    ]
    letters: int | None = None if whole_last_name else 1
    names = [_short(p.first, p.last, letters) for p in pupils]
    if not whole_last_name:
        groups: dict[str, list[int]] = {}
        for index, name in enumerate(names):
            groups.setdefault(name_identity(name), []).append(index)
        for indexes in groups.values():
            if len(indexes) > 1:
                needed = _letters_needed([pupils[i] for i in indexes])
                for i in indexes:
                    names[i] = _short(pupils[i].first, pupils[i].last, needed)
    # Same first and last names: number the second and later ones.
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        key = name_identity(name)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            names[index] = f"{name} ({seen[key]})"
    return names


_NUMBER = re.compile(r" \(\d+\)$")


def _stem(name: str) -> tuple[str, bool]:
    """Return a name without its number and final dot, folded, and whether it was shortened."""
    bare = _NUMBER.sub("", name_clean(name))
    return name_identity(bare.removesuffix(".")), bare.endswith(".")


def names_maybe_same(missing: Sequence[str], new: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Return each class name that may be one of the file's new names written longer or shorter.

    A pupil imported as "Lucas M." reads "Lucas Ma." once a second Lucas M. arrives, and a
    pupil typed as "Lucas" reads "Lucas M." from the school's file: the preview then lists the
    same child as missing and as new, and confirming would give them a second account. A name
    matches when one is the other's beginning, cut at a word or at an abbreviation's dot
    ("Lu" is not "Lucas M.").
    """
    found: list[tuple[str, list[str]]] = []
    stems = [(name, *_stem(name)) for name in new]
    for old in missing:
        old_stem, old_short = _stem(old)
        matches = [
            name
            for name, stem, short in stems
            if stem != old_stem
            and (_begins(stem, old_stem, old_short) or _begins(old_stem, stem, short))
        ]
        if matches:
            found.append((old, matches))
    return found


def _begins(longer: str, shorter: str, shortened: bool) -> bool:
    """Tell whether `shorter` is `longer`'s beginning, cut at a word or where it was shortened."""
    if not shorter or not longer.startswith(shorter):
        return False
    return shortened or longer[len(shorter) : len(shorter) + 1] == " "
