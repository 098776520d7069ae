"""Where a pupil lands once signed in, whatever the way in (class code and PIN, or the ENT)."""

from __future__ import annotations

from typing import Literal, cast

from django.conf import settings
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import translation

from lessons.models import Student
from lessons.sessions.services import session_join_open

STUDENT_BACKEND = "django.contrib.auth.backends.ModelBackend"
SameSite = Literal["Lax", "Strict", "None", False] | None


# Set when a student signs out: this device is a student's, so a page that needs a sign-in
# sends the next visitor to the class code (/join), not to the teacher's sign-in page.
# The privacy notice states how long it lasts.
STUDENT_DEVICE_COOKIE = "unoclass_student_device"
STUDENT_DEVICE_SECONDS = 180 * 24 * 3600


def student_land(request: HttpRequest, student: Student) -> HttpResponse:
    """Sign the pupil in and send them to their class's home, in the class's language.

    Signing in also joins the class's session in progress, if any (the pupil then waits).
    """
    login(request, student.user, backend=STUDENT_BACKEND)
    session_join_open(student=student)
    language = student.classroom.language
    translation.activate(language)
    response = redirect("home")
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        # The settings module's plain "Lax" reads as str to the type checker.
        samesite=cast(SameSite, settings.LANGUAGE_COOKIE_SAMESITE),
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
    )
    return response
