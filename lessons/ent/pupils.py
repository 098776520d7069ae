"""A pupil's ENT sign-in (owned by the ENT pupils' work, issue 24 point 3).

The CAS callback (lessons.ent.views.ent_callback) calls `sign_in_pupil` once the ticket is
validated and the ENT's role says "pupil"; it records the session for single sign-out after.
"""

from __future__ import annotations

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from lessons.ent.pages import ent_refusal
from lessons.ent.profile import EntProfile
from lessons.models import EntConnector, EntIdentity, EntSeenPupil

PUPIL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def seen_record(connector: EntConnector, profile: EntProfile) -> EntSeenPupil:
    """Remember an unlinked pupil for the teacher's matching screen (refreshed at each visit)."""
    seen, _created = EntSeenPupil.objects.update_or_create(
        connector=connector,
        external_id=profile.external_id,
        defaults={
            "display_name": profile.display_name,
            "classes": list(profile.classes),
            "seen_at": timezone.now(),
        },
    )
    return seen


def sign_in_pupil(
    request: HttpRequest,
    *,
    connector: EntConnector,
    profile: EntProfile,
    identity: EntIdentity | None,
) -> HttpResponse:
    """Sign a linked pupil in and send them to their class; else show "ask your teacher"."""
    if identity is not None:
        user = identity.user
        if not user.is_student:
            return ent_refusal(request, "wrong_role", connector)
        if not user.is_active:
            return ent_refusal(request, "inactive", connector)
        login(request, user, backend=PUPIL_BACKEND)
        return redirect("home")
    seen_record(connector, profile)
    return render(request, "ent/ask_teacher.html", {"connector": connector}, status=200)
