"""Archive a class at the end of the year, and start a new year's class from its roster.

An archived class is read-only: it leaves the home page, nobody can join it or play in it
(archiving ends its pupils' sign-ins), and its dashboards and reports stay readable. A new
year's class gets the archived class's present students (not the removed ones) with new PINs,
and a new class code; the old class and its history stay as they were. An archived class
starts one new year's class.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.classrooms.name_rule import classroom_lock
from lessons.classrooms.services import (
    StudentWithPin,
    classroom_create,
    pupils_sign_out,
    roster_add_names,
)
from lessons.ent.links import links_carry
from lessons.models import Classroom, ClassSession, SeatStudent, User

ARCHIVE_NOT_OWNER = _("Only the class's owner can archive it.")
ARCHIVE_ALREADY = _("This class is already archived.")
ARCHIVE_SESSION_OPEN = _("End the class session in progress first.")
NEW_YEAR_NOT_ARCHIVED = _("Archive the class first; then start the new year from it.")
NEW_YEAR_ALREADY = _("The new year's class of this class was already started: %(name)s.")


def classroom_archive(*, classroom: Classroom, by: User) -> Classroom:
    """Archive a class (its owner only); its pupils' retention period starts now."""
    if classroom.teacher_id != by.pk:
        raise ValidationError(ARCHIVE_NOT_OWNER, code="not_owner")
    with transaction.atomic():
        locked = Classroom.objects.select_for_update().get(pk=classroom.pk)
        if locked.archived_at is not None:
            raise ValidationError(ARCHIVE_ALREADY, code="archived")
        open_sessions = ClassSession.objects.filter(classroom=locked).exclude(
            status=ClassSession.Status.ENDED
        )
        if open_sessions.exists():
            raise ValidationError(ARCHIVE_SESSION_OPEN, code="session_open")
        locked.archived_at = timezone.now()
        locked.save(update_fields=["archived_at"])
        # The attempt log trusts a seat's row without reading the class: without its row, a
        # seat's next judged play looks the pupil up and is refused (lessons.attempts.log).
        SeatStudent.objects.filter(classroom=locked).delete()
        _pupils_sign_out(locked)
    classroom.archived_at = locked.archived_at
    return classroom


def _pupils_sign_out(classroom: Classroom) -> None:
    """End every sign-in of the class's pupils; nobody can sign in to an archived class again."""
    pupils_sign_out(User.objects.filter(student__classroom=classroom, role=User.Role.STUDENT))


def classroom_new_year(
    *, source: Classroom, by: User, name: str, grade: str
) -> tuple[Classroom, list[StudentWithPin]]:
    """Create a class for `by` with the archived class's present students, new PINs and code."""
    if source.archived_at is None:
        raise ValidationError(NEW_YEAR_NOT_ARCHIVED, code="not_archived")
    with transaction.atomic():
        # One new year's class per archived class: two clicks (or two co-teachers) at once
        # take turns on the source's row, and the second finds the first's class.
        classroom_lock(source)
        started = Classroom.objects.filter(previous=source).first()
        if started is not None:
            raise ValidationError(NEW_YEAR_ALREADY, code="already", params={"name": started.name})
        names = list(
            source.students.filter(pseudonymised_at__isnull=True)
            .order_by("display_name", "id")
            .values_list("display_name", flat=True)
        )
        classroom = classroom_create(teacher=by, name=name, grade=grade, language=source.language)
        classroom.previous = source
        classroom.save(update_fields=["previous"])
        issued = roster_add_names(classroom=classroom, names=names) if names else []
        links_carry(source=source, classroom=classroom, by=by)
    return classroom, issued
