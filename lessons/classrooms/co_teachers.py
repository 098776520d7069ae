"""Share a class with other teachers, and hand it over.

One server serves one school (docs/deploy.md), so "a teacher of the same school" is any
active teacher account of this server: the owner adds one by username. A co-teacher sees and
runs everything of the class (roster, sessions, dashboards, reports) but only the owner may
archive it, share it or hand it over. Handing over makes the old owner a co-teacher.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from lessons.models import Classroom, User

NOT_OWNER = _("Only the class's owner can share it or hand it over.")
NO_SUCH_TEACHER = _("No teacher of this school has this username.")
ALREADY_SHARED = _("%(name)s already teaches this class.")
NOT_A_CO_TEACHER = _("This teacher is not a co-teacher of the class.")


def _check_owner(classroom: Classroom, by: User) -> None:
    if classroom.teacher_id != by.pk:
        raise ValidationError(NOT_OWNER, code="not_owner")


def _teacher_named(username: str) -> User:
    teacher = User.objects.filter(
        username=username.strip(), role=User.Role.TEACHER, is_active=True
    ).first()
    if teacher is None:
        raise ValidationError(NO_SUCH_TEACHER, code="unknown_teacher")
    return teacher


def co_teacher_add(*, classroom: Classroom, by: User, username: str) -> User:
    """Let another teacher of the school see and run the class."""
    _check_owner(classroom, by)
    teacher = _teacher_named(username)
    if teacher.pk == classroom.teacher_id or classroom.co_teachers.filter(pk=teacher.pk).exists():
        raise ValidationError(
            ALREADY_SHARED, code="already", params={"name": teacher.get_username()}
        )
    classroom.co_teachers.add(teacher)
    return teacher


def co_teacher_remove(*, classroom: Classroom, by: User, teacher_id: int) -> None:
    """Stop sharing the class with a co-teacher (the owner may; a co-teacher may leave)."""
    if by.pk != teacher_id:
        _check_owner(classroom, by)
    if not classroom.co_teachers.filter(pk=teacher_id).exists():
        raise ValidationError(NOT_A_CO_TEACHER, code="not_co_teacher")
    classroom.co_teachers.remove(teacher_id)


def classroom_transfer(*, classroom: Classroom, by: User, username: str) -> User:
    """Hand the class over to another teacher; the old owner stays as a co-teacher."""
    _check_owner(classroom, by)
    teacher = _teacher_named(username)
    if teacher.pk == by.pk:
        raise ValidationError(ALREADY_SHARED, code="already", params={"name": by.get_username()})
    with transaction.atomic():
        classroom.co_teachers.remove(teacher)
        classroom.co_teachers.add(by)
        classroom.teacher = teacher
        classroom.save(update_fields=["teacher"])
    return teacher
