"""The school admin's actions: deactivate teachers, invite them, set the retention period.

A school admin is a teacher with `is_staff` set (`manage.py create_school_admin`); one server
serves one school, so they see every teacher of it.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.realtime.signout import tell_signed_out
from lessons.models import Classroom, SchoolPolicy, TeacherInvitation, User
from lessons.school.retention import school_policy_row

INVITATION_DAYS = 14
RETENTION_MONTHS_MAX = 36
SELF_DEACTIVATION = _("You cannot deactivate your own account.")
INVITATION_INVALID = _("This invitation link is not valid: it was used, or it expired.")


def teachers_of_school() -> QuerySet[User]:
    """Return every teacher account of the server, by username."""
    return User.objects.filter(role=User.Role.TEACHER).order_by("username")


def classes_to_transfer() -> QuerySet[Classroom]:
    """Return the live classes of deactivated teachers that no co-teacher runs."""
    return Classroom.objects.filter(
        teacher__is_active=False, co_teachers__isnull=True, purged_at__isnull=True
    ).select_related("teacher")


def teacher_set_active(*, admin: User, teacher: User, active: bool) -> User:
    """Deactivate (they can no longer sign in) or reactivate a teacher."""
    if teacher.pk == admin.pk and not active:
        raise ValidationError(SELF_DEACTIVATION, code="self")
    teacher.is_active = active
    teacher.save(update_fields=["is_active"])
    if not active:
        # Their pages stop at the next request; their open sockets and streams end now.
        teacher_id = teacher.pk
        tell_signed_out(teacher_id, None)
    return teacher


def invitation_create(
    *, admin: User | None, note: str, now: datetime | None = None
) -> TeacherInvitation:
    """Make a one-use sign-up link that expires after INVITATION_DAYS days.

    `admin` None: the server's own set-up link for its first teacher (`unoclass serve`).
    """
    moment = now or timezone.now()
    return TeacherInvitation.objects.create(
        token=secrets.token_urlsafe(32),
        note=note,
        created_by=admin,
        created_at=moment,
        expires_at=moment + timedelta(days=INVITATION_DAYS),
    )


def invitation_valid(token: str, *, now: datetime | None = None) -> TeacherInvitation | None:
    """Return the unused, unexpired invitation with this token, or None."""
    if not token:
        return None
    return TeacherInvitation.objects.filter(
        token=token, used_at__isnull=True, expires_at__gt=now or timezone.now()
    ).first()


def invitation_use(*, token: str, teacher: User) -> None:
    """Mark the invitation used by the new teacher (once only)."""
    with transaction.atomic():
        used = TeacherInvitation.objects.filter(
            token=token, used_at__isnull=True, expires_at__gt=timezone.now()
        ).update(used_by=teacher, used_at=timezone.now())
        if not used:
            raise ValidationError(INVITATION_INVALID, code="invitation")


def signup_needs_invitation() -> bool:
    """Tell whether teachers sign up only with an invitation (settings.TEACHER_SIGNUP)."""
    return str(settings.TEACHER_SIGNUP) == "invitation"


def policy_set(*, months: int, keep_pseudonymised: bool) -> SchoolPolicy:
    """Set the school's retention period and whether plays are kept pseudonymised."""
    row = school_policy_row()
    row.retention_months = months
    row.keep_pseudonymised = keep_pseudonymised
    row.full_clean()
    row.save()
    return row
