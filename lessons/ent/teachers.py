"""A teacher's ENT sign-in: a linked teacher lands signed in; the first time, the teacher links
an existing account with its password once, or gets a new account when the school allows it.

The ENT's role decided "teacher" before this runs; the link is found by the ENT id only, never
by a name, so another ENT user with the same display name cannot reach a linked account.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from lessons.ent.pages import linked_user_refusal
from lessons.ent.profile import EntProfile
from lessons.ent.tickets import ticket_remember_session
from lessons.models import EntConnector, EntIdentity, EntSignIn, User

TEACHER_BACKEND = "django.contrib.auth.backends.ModelBackend"
PENDING_KEY = "ent_pending_link"
# The time a teacher has to type their password (or choose a new account) after the ENT.
PENDING_SECONDS = 15 * 60

NOT_A_TEACHER = _("This is not a teacher account.")
ALREADY_LINKED = _(
    "This account is already linked to another ENT account. Ask your school to unlink it."
)


def sign_in_teacher(
    request: HttpRequest,
    *,
    connector: EntConnector,
    profile: EntProfile,
    identity: EntIdentity | None,
    sign_in: EntSignIn,
    next_url: str,
) -> HttpResponse:
    """Sign a linked teacher in; else keep the ENT id in the session and ask to link."""
    if identity is not None:
        refusal = linked_user_refusal(request, connector, identity, teacher=True)
        if refusal is not None:
            return refusal
        user = identity.user
        login(request, user, backend=TEACHER_BACKEND)
        return redirect(next_url or "home")
    request.session[PENDING_KEY] = {
        "connector": connector.pk,
        "external_id": profile.external_id,
        "display_name": profile.display_name,
        "sign_in": sign_in.pk,
        "next": next_url,
        "until": time.time() + PENDING_SECONDS,
    }
    return redirect("ent_link")


def pending_link(request: HttpRequest) -> dict[str, Any] | None:
    """Return the session's pending ENT link while it is fresh and its connector enabled."""
    pending = request.session.get(PENDING_KEY)
    if not isinstance(pending, dict) or float(pending.get("until", 0)) < time.time():
        return None
    if not EntConnector.objects.filter(
        pk=int(pending.get("connector") or 0), enabled=True
    ).exists():
        return None
    return pending


class AlreadyLinked(Exception):
    """The account, or the ENT id, is linked already."""


def link_create(*, pending: dict[str, Any], user: User) -> EntIdentity:
    """Link the ENT id of the pending sign-in to the teacher's account (once for each)."""
    if EntIdentity.objects.filter(user=user).exists():
        raise AlreadyLinked
    try:
        with transaction.atomic():
            return EntIdentity.objects.create(
                connector_id=pending["connector"], external_id=pending["external_id"], user=user
            )
    except IntegrityError as error:  # the ENT id was linked meanwhile (another tab)
        raise AlreadyLinked from error


def username_for(display_name: str) -> str:
    """Return a free username from the ENT display name ("prenom-nom", then -2, -3…)."""
    base = slugify(display_name)[:30].strip("-") or "enseignant"
    candidate, number = base, 1
    while User.objects.filter(username__iexact=candidate).exists():
        number += 1
        candidate = f"{base}-{number}"
    return candidate


def teacher_create_from_ent(*, pending: dict[str, Any]) -> User:
    """Create a teacher account with no password, linked to the pending ENT id."""
    with transaction.atomic():
        user = User(username=username_for(str(pending.get("display_name", ""))), role="teacher")
        user.set_unusable_password()
        user.save()
        link_create(pending=pending, user=user)
    return user


def finish_link(request: HttpRequest, user: User, pending: dict[str, Any]) -> HttpResponse:
    """Sign the newly linked teacher in and map the ticket to this session (single sign-out)."""
    login(request, user, backend=TEACHER_BACKEND)
    request.session.pop(PENDING_KEY, None)
    sign_in = EntSignIn.objects.filter(pk=int(pending.get("sign_in") or 0)).first()
    if sign_in is not None:
        ticket_remember_session(sign_in, request)
    return redirect(str(pending.get("next") or "") or "home")
