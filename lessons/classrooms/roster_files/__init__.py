"""Read the school's own exports: ONDE's CSVExtraction.csv (écoles) and SIECLE's
ExportXML_ElevesSansAdresses.zip (collèges), each a whole school in one file.

`school_file_read` tells a school export from a plain class list (None: the ordinary CSV import
reads it) and returns its classes, each with its pupils' display names as the class list will
show them: the first name and the initial of the last name (more letters where two pupils of a
class would read the same), or the whole last name if the teacher asks. The INE, the date of
birth and every other column are read past and never returned, so nothing downstream can keep
them. The teacher then picks the classes to take; `school_names_pick` checks the names of
those (the one name rule) and hands them to the ordinary preview.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from lessons.classrooms.name_rule import TOO_LONG, UNPRINTABLE, name_fault, names_repeated
from lessons.classrooms.names import name_key
from lessons.classrooms.roster_files import onde, siecle
from lessons.classrooms.roster_files.naming import class_names
from lessons.classrooms.roster_files.pupils import SchoolPupil
from lessons.models import DISPLAY_NAME_MAX_LENGTH

# The upload is read up to this many bytes (a zip may hold a larger XML: siecle.py's limits).
SCHOOL_FILE_MAX_BYTES = 4 * 1024 * 1024

KIND_AUTO, KIND_CSV, KIND_ONDE, KIND_SIECLE = "auto", "csv", "onde", "siecle"

SCHOOL_NAME_TOO_LONG = _(
    "“%(name)s” (%(classe)s) is longer than %(limit)d characters: keep the initial of the "
    "last name instead of the whole name, or shorten it after the import."
)
SCHOOL_NAME_UNPRINTABLE = _(
    "A pupil's name in %(classe)s contains characters that cannot be shown."
)
SCHOOL_NAME_TWICE = _(
    "“%(name)s” is in more than one of the chosen classes: import them one at a time, or keep "
    "the whole last names."
)


@dataclass(frozen=True)
class SchoolClass:
    """One class of a school export: its label and its pupils' display names (file order)."""

    label: str
    names: list[str]


@dataclass(frozen=True)
class SchoolFile:
    """A school export read: which kind, its classes, and how many pupils had left."""

    kind: str
    classes: list[SchoolClass]
    left: int


def _group(pupils: list[SchoolPupil], *, whole_last_name: bool) -> list[SchoolClass]:
    labels: dict[str, list[SchoolPupil]] = {}
    for pupil in pupils:
        labels.setdefault(pupil.classe, []).append(pupil)
    return [
        SchoolClass(label=label, names=class_names(labels[label], whole_last_name=whole_last_name))
        for label in sorted(labels, key=_class_order)
    ]


# The levels of French schools, youngest first: the picker lists CP before CE1, 6e before 5e.
_LEVELS = ("tps", "ps", "ms", "gs", "cp", "ce1", "ce2", "cm1", "cm2", "6", "5", "4", "3")


def _class_order(label: str) -> tuple[int, tuple[str, str, str, str]]:
    """Return a class label's place in the picker: by level, then by name (name_key)."""
    folded = label.casefold().strip()
    # Longest level first: "ce1" is not "c", "tps" is not "ps".
    found = [level for level in _LEVELS if folded.startswith(level)]
    rank = _LEVELS.index(max(found, key=len)) if found else len(_LEVELS)
    return rank, name_key(label)


def school_file_read(*, data: bytes, kind: str, whole_last_name: bool) -> SchoolFile | None:
    """Return the classes of an ONDE or SIECLE export, None for another file, or refuse it.

    `kind` is what the teacher chose: KIND_AUTO tells the file by its content, KIND_ONDE and
    KIND_SIECLE refuse a file of another shape, KIND_CSV always answers None.
    """
    if kind == KIND_CSV:
        return None
    if kind == KIND_SIECLE or (kind == KIND_AUTO and siecle.looks_like_siecle(data)):
        read = siecle.siecle_read(data)
    elif kind == KIND_ONDE or (kind == KIND_AUTO and onde.looks_like_onde(data)):
        read = onde.onde_read(data)
    else:
        return None
    return SchoolFile(
        kind=read.kind,
        classes=_group(read.pupils, whole_last_name=whole_last_name),
        left=read.left,
    )


def school_names_pick(classes: list[SchoolClass]) -> list[str]:
    """Return the display names of the chosen classes, or raise every problem found."""
    errors: list[ValidationError] = []
    names: list[str] = []
    for school_class in classes:
        for name in school_class.names:
            fault = name_fault(name)
            params = {"name": name[:60], "classe": school_class.label or "—"}
            if fault == TOO_LONG:
                errors.append(
                    ValidationError(
                        SCHOOL_NAME_TOO_LONG,
                        code="too_long",
                        params={**params, "limit": DISPLAY_NAME_MAX_LENGTH},
                    )
                )
            elif fault == UNPRINTABLE:
                errors.append(
                    ValidationError(SCHOOL_NAME_UNPRINTABLE, code="unprintable", params=params)
                )
            names.append(name)
    # Within a class the names are told apart already: a repeat comes from two classes.
    errors += [
        ValidationError(SCHOOL_NAME_TWICE, code="duplicate", params={"name": name})
        for name in names_repeated(names)
    ]
    if errors:
        raise ValidationError(errors)
    return names
