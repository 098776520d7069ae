"""Service tickets: each used once, and mapped to the session it opened for single sign-out."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from importlib import import_module

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone

from games.realtime.signout import tell_signed_out
from lessons.models import EntConnector, EntSignIn

TICKET_MAX_LENGTH = 256


def ticket_hash(ticket: str) -> str:
    """Return the SHA-256 of a ticket: the ticket itself is never stored."""
    return hashlib.sha256(ticket.encode("utf-8")).hexdigest()


def ticket_claim(connector: EntConnector, ticket: str) -> EntSignIn | None:
    """Mark the ticket used before it is validated; None if it was used already (a replay).

    Claimed first so that two requests racing with one ticket cannot both pass: the unique
    hash lets one in. A ticket the server then refuses stays claimed (tickets are single-use).
    """
    try:
        with transaction.atomic():
            return EntSignIn.objects.create(connector=connector, ticket_hash=ticket_hash(ticket))
    except IntegrityError:
        return None


def ticket_remember_session(sign_in: EntSignIn, request: HttpRequest) -> None:
    """Store which session and user the ticket opened (called once the user is signed in)."""
    if not request.user.is_authenticated:
        return
    if request.session.session_key is None:
        request.session.save()
    sign_in.user_id = request.user.pk
    sign_in.session_key = request.session.session_key or ""
    sign_in.save(update_fields=["user", "session_key"])


def single_sign_out(ticket: str, *, connector: EntConnector | None = None) -> bool:
    """End the Django session the ticket opened, and close its sockets; tell whether one was.

    The ENT's logoutRequest names the ticket (SessionIndex); its session is deleted from the
    store and the user's sockets of that session hear the sign-out (games.realtime.signout).
    """
    sign_ins = EntSignIn.objects.filter(ticket_hash=ticket_hash(ticket))
    if connector is not None:  # the ENT that posts names only its own tickets
        sign_ins = sign_ins.filter(connector=connector)
    sign_in = sign_ins.first()
    if sign_in is None or not sign_in.session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore
    store(session_key=sign_in.session_key).delete()
    user_id, session_key = sign_in.user_id, sign_in.session_key
    sign_in.session_key = ""
    sign_in.save(update_fields=["session_key"])
    if user_id is not None:
        tell_signed_out(user_id, session_key)
    return True


def ent_sign_ins_end(user_id: int) -> int:
    """End every session the user's ENT sign-ins opened (their link is gone); return how many.

    Sessions opened another way (a pupil's class code and PIN, a teacher's password) stay.
    """
    store = import_module(settings.SESSION_ENGINE).SessionStore
    ended = 0
    for sign_in in EntSignIn.objects.filter(user_id=user_id).exclude(session_key=""):
        session_key = sign_in.session_key
        store(session_key=session_key).delete()
        sign_in.session_key = ""
        sign_in.save(update_fields=["session_key"])
        tell_signed_out(user_id, session_key)
        ended += 1
    return ended


def ticket_purge(*, now: datetime | None = None) -> int:
    """Delete the ticket records older than a session can live; return how many."""
    moment = now or timezone.now()
    cutoff = moment - timedelta(seconds=settings.SESSION_COOKIE_AGE)
    deleted, _ = EntSignIn.objects.filter(created_at__lt=cutoff).delete()
    return deleted
