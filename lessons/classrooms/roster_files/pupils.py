"""What a school export gives the import: a pupil's names and class, nothing else."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

SCHOOL_MAX_PUPILS = 5000
SCHOOL_TOO_MANY = _("The file lists more than %(limit)d pupils: is this one school's export?")


@dataclass(frozen=True)
class SchoolPupil:
    """A pupil of a school export: first name, last name (as written) and class label."""

    first: str
    last: str
    classe: str


@dataclass(frozen=True)
class SchoolRead:
    """The pupils a school export lists (those still at school) and how many had left."""

    kind: str
    pupils: list[SchoolPupil]
    left: int
