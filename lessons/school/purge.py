"""Erase (or pseudonymise) the pupils of classes whose retention period is over.

`purge_expired` is what `manage.py purge_expired` runs daily: it lists the expired classes
not yet purged and, with `apply=True`, erases each pupil through lessons.school.erasure,
archives the class (read-only: nobody adds pupils to a purged class) and sets its
`purged_at`, so a second run finds nothing to do.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from lessons.models import Classroom, SeatStudent, SessionMember
from lessons.school.erasure import student_erase, student_pseudonymise
from lessons.school.retention import Policy, classroom_expires_at, school_policy

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ExpiredClass:
    """A class whose pupils' data are due for erasure, and what happens to them."""

    classroom_id: int
    classroom_name: str
    expired_at: datetime
    students: int
    # "erase" or "pseudonymise"
    mode: str


def classes_expired(
    *, now: datetime | None = None, policy: Policy | None = None
) -> list[ExpiredClass]:
    """Return the classes whose retention period is over and that were not purged yet."""
    moment = now or timezone.now()
    policy = policy or school_policy()
    mode = "pseudonymise" if policy.keep_pseudonymised else "erase"
    expired = []
    for classroom in Classroom.objects.filter(purged_at__isnull=True).order_by("pk"):
        expires = classroom_expires_at(classroom, months=policy.months)
        if expires <= moment:
            students = classroom.students.all()
            if mode == "pseudonymise":
                students = students.filter(pseudonymised_at__isnull=True)
            expired.append(
                ExpiredClass(classroom.pk, classroom.name, expires, students.count(), mode)
            )
    return expired


def _classroom_purge(classroom: Classroom, *, mode: str, moment: datetime) -> int:
    count = 0
    with transaction.atomic():
        for student in list(classroom.students.select_related("user", "classroom")):
            if mode == "erase":
                student_erase(student=student)
                count += 1
            elif student.pseudonymised_at is None:
                SessionMember.objects.filter(student=student, table__isnull=True).delete()
                student_pseudonymise(student=student)
                count += 1
        # The attempt log's seat facts name the pupil and their class; a purged class writes
        # no more attempts, and a pseudonymised pupil keeps only their plays (the cascade
        # takes an erased pupil's).
        SeatStudent.objects.filter(
            Q(classroom=classroom) | Q(student__classroom=classroom)
        ).delete()
        Classroom.objects.filter(pk=classroom.pk, archived_at__isnull=True).update(
            archived_at=moment
        )
        Classroom.objects.filter(pk=classroom.pk).update(purged_at=moment)
    return count


def purge_expired(*, apply: bool = False, now: datetime | None = None) -> list[ExpiredClass]:
    """List the expired classes and, if `apply`, erase or pseudonymise their pupils."""
    moment = now or timezone.now()
    expired = classes_expired(now=moment)
    if not apply:
        return expired
    for item in expired:
        classroom = Classroom.objects.filter(pk=item.classroom_id, purged_at__isnull=True).first()
        if classroom is None:  # purged meanwhile by another run
            continue
        count = _classroom_purge(classroom, mode=item.mode, moment=moment)
        # Ids only: the log never holds a name.
        logger.info("purged class %s: %s pupils (%s)", classroom.pk, count, item.mode)
    return expired
