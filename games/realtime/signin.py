"""Who a socket belongs to, and whether the session it opened with still signs them in."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.utils.crypto import constant_time_compare


def socket_user(scope: Mapping[str, Any]) -> Any | None:
    """Return the signed-in user of the handshake, or None."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return None
    return user


def still_signed_in(scope: Mapping[str, Any]) -> bool:
    """Tell whether the socket's session still signs in its user (queries: run in a thread).

    The scope keeps the session and user of the handshake; a log-out in another tab deletes
    the session, and a password change makes its hash stale. Read-only, unlike Django's
    get_user (which may flush or cycle the session the pages use).
    """
    user = socket_user(scope)
    key = getattr(scope.get("session"), "session_key", None)
    if user is None or not key:
        return False
    stored = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    if stored.get(SESSION_KEY) != user._meta.pk.value_to_string(user):
        return False
    # The scope's user is a lazy wrapper: ask the user model itself.
    fresh = get_user_model()._default_manager.filter(pk=user.pk, is_active=True).first()
    session_hash = stored.get(HASH_SESSION_KEY)
    if fresh is None or not session_hash:
        return False
    hashes = [fresh.get_session_auth_hash(), *fresh.get_session_auth_fallback_hash()]
    return any(constant_time_compare(session_hash, known) for known in hashes)
