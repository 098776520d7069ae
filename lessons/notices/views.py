"""The privacy notice, its companions for pupils and for the school's data protection officer,
and the accessibility statement: public pages, no sign-in."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from lessons.classrooms.login_limit import FAILURE_WINDOW_SECONDS
from lessons.classrooms.sign_in_limit import COOKIE_SECONDS
from lessons.ent.states import STATE_SECONDS
from lessons.evidence.loading import STATUS_CACHE_SECONDS
from lessons.home.landing import STUDENT_DEVICE_SECONDS
from lessons.models import ENT_SEEN_RETENTION_DAYS
from lessons.notices import rgaa, statement
from lessons.notices.retention import retention_in_force
from lessons.printing.printing import CACHE_SECONDS as PDF_CACHE_SECONDS

# A sign-in session lasts SESSION_COOKIE_AGE seconds (Django's default: two weeks).
SECONDS_PER_DAY = 24 * 60 * 60
SECONDS_PER_HOUR = 60 * 60


def _school_year_end() -> date:
    """Return the last day of the school year (settings.SCHOOL_YEAR_END, "MM-DD"), any year."""
    month, day = (int(part) for part in str(settings.SCHOOL_YEAR_END).split("-"))
    return date(2000, month, day)


def _periods() -> dict[str, object]:
    """Return the periods this server applies, read from its settings and the school's policy.

    Every data-protection page reads the same figures, so the record of processing a school's
    officer signs says what this server really does.
    """
    return {
        "retention": retention_in_force(),
        "session_days": settings.SESSION_COOKIE_AGE // SECONDS_PER_DAY,
        "ent_seen_days": ENT_SEEN_RETENTION_DAYS,
        "failure_hours": FAILURE_WINDOW_SECONDS // SECONDS_PER_HOUR,
        "device_cookie_days": COOKIE_SECONDS // SECONDS_PER_DAY,
        "pupil_device_days": STUDENT_DEVICE_SECONDS // SECONDS_PER_DAY,
        "csrf_days": settings.CSRF_COOKIE_AGE // SECONDS_PER_DAY,
        "pdf_cache_days": PDF_CACHE_SECONDS // SECONDS_PER_DAY,
        "status_cache_hours": STATUS_CACHE_SECONDS // SECONDS_PER_HOUR,
        "ent_state_minutes": STATE_SECONDS // 60,
        "school_year_end": _school_year_end(),
    }


@require_safe
def privacy(request: HttpRequest) -> HttpResponse:
    """Show what is stored about pupils and teachers, why, who sees it and for how long."""
    return render(request, "notices/privacy.html", _periods())


@require_safe
def privacy_pupils(request: HttpRequest) -> HttpResponse:
    """Tell a pupil, in a child's words, what unoclass knows about them and who sees it."""
    return render(request, "notices/privacy_pupils.html", _periods())


@require_safe
def processing_record(request: HttpRequest) -> HttpResponse:
    """Show the record of processing (GDPR article 30) and the processor clause for a host."""
    return render(request, "notices/processing_record.html", _periods())


@require_safe
def data_flow(request: HttpRequest) -> HttpResponse:
    """Show on one page what is stored, where, for how long and who sees it."""
    return render(request, "notices/data_flow.html", _periods())


@require_safe
def accessibility(request: HttpRequest) -> HttpResponse:
    """Show the RGAA self-assessment: its status and rate, each criterion, how it was checked."""
    return render(
        request,
        "notices/accessibility.html",
        {
            "tally": rgaa.tally(),
            "themes": statement.themes(),
            "sample": statement.sample(),
            "assessed_on": rgaa.assessment().assessed_on,
            "tools": rgaa.assessment().tools,
        },
    )
