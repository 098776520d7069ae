"""Teacher sign-up open to all, or by invitation only (settings.TEACHER_SIGNUP)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from lessons.models import User
from lessons.school.admin_services import (
    invitation_use,
    invitation_valid,
    signup_needs_invitation,
)


def signup_refusal(request: HttpRequest) -> HttpResponse | None:
    """Return the 'by invitation only' page when sign-up needs a valid invitation and has none."""
    if not signup_needs_invitation() or invitation_valid(request.GET.get("invite", "")):
        return None
    return render(request, "school/signup_closed.html", status=403)


def signup_invitation_use(request: HttpRequest, teacher: User) -> None:
    """Use up the invitation the new teacher came with, if any (call inside the creation)."""
    token = request.GET.get("invite", "")
    if invitation_valid(token) is not None:
        invitation_use(token=token, teacher=teacher)
