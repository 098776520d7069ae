"""Change one student: rename, move to another class of the same teacher, or remove.

Removing offers two things, and the teacher chooses:
- `erase`: the student, their PIN, their sign-in and every play are deleted; the class's
  statistics no longer count them.
- `pseudonymise`: the name becomes "Élève retiré N", the PIN and the sign-in are deleted,
  and the plays stay in the class's statistics under that pseudonym.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from lessons.attempts.seat_students import seat_students_move
from lessons.classrooms.name_rule import (
    TOO_LONG,
    UNPRINTABLE,
    classroom_lock,
    name_clean,
    name_fault,
    names_taken,
)
from lessons.classrooms.services import (
    CLASSROOM_ARCHIVED,
    CLASSROOM_MAX_STUDENTS,
)
from lessons.models import (
    DISPLAY_NAME_MAX_LENGTH,
    Attempt,
    Classroom,
    MissedEquivalence,
    SessionMember,
    Student,
    WarmupRound,
)
from lessons.school.erasure import student_erase, student_pseudonymise
from lessons.sessions.services import session_seats_leave

RENAME_EMPTY = _("Type the student's new name.")
RENAME_TOO_LONG = _("A name has at most %(limit)d characters.")
RENAME_UNPRINTABLE = _("The name contains characters that cannot be shown.")
RENAME_TAKEN = _("“%(name)s” is already in this class.")
MOVE_SAME_CLASS = _("The student is already in this class.")
MOVE_CLASS_FULL = _("That class already has %(limit)d students.")
REMOVED_STUDENT = _("A removed student cannot be changed.")
REMOVE_MODES = ("erase", "pseudonymise")


def _writable(classroom: Classroom) -> None:
    if classroom.archived_at is not None:
        raise ValidationError(CLASSROOM_ARCHIVED, code="archived")


def _clean_name(name: str) -> str:
    clean = name_clean(name)
    if not clean:
        raise ValidationError(RENAME_EMPTY, code="empty")
    fault = name_fault(clean)
    if fault == TOO_LONG:
        raise ValidationError(
            RENAME_TOO_LONG, code="too_long", params={"limit": DISPLAY_NAME_MAX_LENGTH}
        )
    if fault == UNPRINTABLE:
        raise ValidationError(RENAME_UNPRINTABLE, code="unprintable")
    return clean


def _name_free(classroom: Classroom, name: str, *, other_than: Student | None = None) -> None:
    if names_taken(classroom, [name], other_than=other_than):
        raise ValidationError(RENAME_TAKEN, code="taken", params={"name": name})


def _active(student: Student) -> None:
    if student.pseudonymised_at is not None:
        raise ValidationError(REMOVED_STUDENT, code="removed")


def student_rename(*, student: Student, name: str) -> Student:
    """Give a student a new display name (unique in the class); their PIN stays."""
    _active(student)
    _writable(student.classroom)
    clean = _clean_name(name)
    with transaction.atomic():
        _writable(classroom_lock(student.classroom))
        _name_free(student.classroom, clean, other_than=student)
        student.display_name = clean
        student.save(update_fields=["display_name"])
    return student


def student_move(*, student: Student, to: Classroom) -> Student:
    """Move a student, their PIN and their plays to another class; they leave open sessions."""
    _active(student)
    _writable(student.classroom)
    _writable(to)
    if to.pk == student.classroom_id:
        raise ValidationError(MOVE_SAME_CLASS, code="same_class")
    with transaction.atomic():
        _writable(classroom_lock(to))
        if to.students.count() >= CLASSROOM_MAX_STUDENTS:
            raise ValidationError(
                MOVE_CLASS_FULL, code="class_full", params={"limit": CLASSROOM_MAX_STUDENTS}
            )
        _name_free(to, student.display_name)
        # The plays follow the pupil: a move mends a wrong placement, and the new teacher
        # needs the history. Places in the old class's sessions are left: robots take their
        # seats there. Their own practice tables stay theirs, and log under the new class.
        Attempt.objects.filter(student=student).update(classroom=to)
        MissedEquivalence.objects.filter(student=student).update(classroom=to)
        # Warm-ups follow too (their answers are attempts); a class session's round stays
        # with its session, which the pupil leaves.
        WarmupRound.objects.filter(student=student).update(classroom=to)
        session_seats_leave(student=student)
        student.classroom = to
        student.save(update_fields=["classroom"])
        seat_students_move(student=student)
    return student


def student_remove(*, student: Student, mode: str) -> None:
    """Remove a student from their class: `erase` everything, or `pseudonymise` and keep plays."""
    if mode not in REMOVE_MODES:
        raise ValidationError(_("Choose what happens to the student's data."), code="bad_mode")
    _active(student)
    _writable(student.classroom)
    if mode == "erase":
        student_erase(student=student)
    else:
        with transaction.atomic():
            SessionMember.objects.filter(student=student, table__isnull=True).delete()
            student_pseudonymise(student=student)
