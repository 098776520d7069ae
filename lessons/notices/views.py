"""The privacy notice and the accessibility statement: public pages, no sign-in."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from lessons.models import ENT_SEEN_RETENTION_DAYS
from lessons.notices.retention import retention_in_force

# A sign-in session lasts SESSION_COOKIE_AGE seconds (Django's default: two weeks).
SECONDS_PER_DAY = 24 * 60 * 60


@require_safe
def privacy(request: HttpRequest) -> HttpResponse:
    """Show what is stored about pupils and teachers, why, who sees it and for how long."""
    context = {
        "retention": retention_in_force(),
        "session_days": settings.SESSION_COOKIE_AGE // SECONDS_PER_DAY,
        "ent_seen_days": ENT_SEEN_RETENTION_DAYS,
    }
    return render(request, "notices/privacy.html", context)


@require_safe
def accessibility(request: HttpRequest) -> HttpResponse:
    """Show the standard followed, what is tested, the known limits and whom to tell."""
    return render(request, "notices/accessibility.html")
