"""When a class's pupils' data expire: the school's retention period and the school year's end.

A class's data expire `months` months after it was archived; a class never archived expires
`months` months after the end of the school year it was created in (settings.SCHOOL_YEAR_END,
"MM-DD"), whichever of the two comes first. The period is the school's (SchoolPolicy), or
settings.PUPIL_DATA_RETENTION_MONTHS while the school admin has not set one.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, datetime, time

from django.conf import settings
from django.utils import timezone

from lessons.models import Classroom, SchoolPolicy


@dataclass(frozen=True)
class Policy:
    """The school's data choices as the purge applies them."""

    months: int
    keep_pseudonymised: bool


def school_policy() -> Policy:
    """Return the school's retention period and whether plays are kept pseudonymised."""
    row = SchoolPolicy.objects.order_by("pk").first()
    if row is None:
        return Policy(months=settings.PUPIL_DATA_RETENTION_MONTHS, keep_pseudonymised=False)
    return Policy(months=row.retention_months, keep_pseudonymised=row.keep_pseudonymised)


def school_policy_row() -> SchoolPolicy:
    """Return the one SchoolPolicy row, made from the settings on first use."""
    row = SchoolPolicy.objects.order_by("pk").first()
    if row is None:
        row = SchoolPolicy.objects.create(retention_months=settings.PUPIL_DATA_RETENTION_MONTHS)
    return row


def months_later(moment: datetime, months: int) -> datetime:
    """Return the same day `months` months later (the month's last day if it is shorter)."""
    index = moment.month - 1 + months
    year, month = moment.year + index // 12, index % 12 + 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def school_year_end_after(moment: datetime) -> datetime:
    """Return the end of the school year `moment` falls in (midnight after SCHOOL_YEAR_END)."""
    month, day = (int(part) for part in str(settings.SCHOOL_YEAR_END).split("-"))
    local = timezone.localtime(moment)
    end = date(local.year, month, day)
    if end < local.date():
        end = date(local.year + 1, month, day)
    # The whole last day belongs to the school year.
    return timezone.make_aware(datetime.combine(end, time.max).replace(microsecond=0))


def classroom_expires_at(classroom: Classroom, *, months: int) -> datetime:
    """Return when the class's pupils' data expire."""
    year_end = months_later(school_year_end_after(classroom.created_at), months)
    if classroom.archived_at is None:
        return year_end
    return min(months_later(classroom.archived_at, months), year_end)
