"""Teacher sign-up open to all, or by invitation only (settings.TEACHER_SIGNUP)."""

from __future__ import annotations

import contextlib

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from lessons.models import User
from lessons.school.admin_services import (
    invitation_use,
    invitation_valid,
    signup_needs_invitation,
)


def signup_closed_page(request: HttpRequest) -> HttpResponse:
    """Return the 'by invitation only' page (403)."""
    return render(request, "school/signup_closed.html", status=403)


def signup_refusal(request: HttpRequest) -> HttpResponse | None:
    """Return the 'by invitation only' page when sign-up needs a valid invitation and has none."""
    if not signup_needs_invitation() or invitation_valid(request.GET.get("invite", "")):
        return None
    return signup_closed_page(request)


def signup_invitation_use(request: HttpRequest, teacher: User) -> None:
    """Use up the invitation the new teacher came with (call inside the creation's transaction).

    The invitation is consumed by one conditional update, so of several sign-ups racing with
    one token exactly one changes the row; when sign-up needs an invitation the others raise
    ValidationError and their transaction (the new account) rolls back.
    """
    token = request.GET.get("invite", "")
    if signup_needs_invitation():
        invitation_use(token=token, teacher=teacher)
    elif token:
        # Open sign-up needs no invitation: a stale link still creates the account.
        with contextlib.suppress(ValidationError):
            invitation_use(token=token, teacher=teacher)
