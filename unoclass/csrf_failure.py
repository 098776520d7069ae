"""The page a refused form post gets (settings.CSRF_FAILURE_VIEW): the site's own, translated.

Django's default is an English, unstyled developer page. A teacher or a child meets this when
a page stayed open past the session, or cookies are blocked: say what to do, in their language.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Answer 403 with the translated "form expired" page (the reason stays in the log)."""
    return render(request, "csrf_failure.html", status=403)
