"""The box's first teacher: created at the terminal, or through a one-time set-up link.

A box signs teachers up by invitation only (unoclass/settings_box.py): on a classroom's Wi-Fi a
pupil must not make themselves a teacher. Until a teacher exists, `unoclass serve` offers to
create one at the terminal (a school admin, `create_school_admin`), or prints a set-up link:
an invitation of the server's own, used once.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse
from django.utils import timezone

from lessons.models import TeacherInvitation, User
from lessons.school.admin_services import invitation_create

SETUP_NOTE = "unoclass serve"


def teacher_exists() -> bool:
    """Tell whether the box has a teacher account yet."""
    return User.objects.filter(role=User.Role.TEACHER).exists()


def setup_link(base_url: str) -> str:
    """Return the one-time sign-up link for the first teacher (the same one until it is used)."""
    invitation = TeacherInvitation.objects.filter(
        created_by__isnull=True,
        note=SETUP_NOTE,
        used_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).first() or invitation_create(admin=None, note=SETUP_NOTE)
    return f"{base_url.rstrip('/')}{reverse('signup')}?{urlencode({'invite': invitation.token})}"
