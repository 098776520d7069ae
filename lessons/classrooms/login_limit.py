"""Limit teacher password guessing: failed sign-ins are counted per account and per address.

Django's LoginView has no limit of its own. After ACCOUNT_FAILURE_LIMIT failures for one
username, or ADDRESS_FAILURE_LIMIT from one address (a school shares one), within the window,
sign-in is refused with the same message whether or not the password is right, until the
window ends. Counters live in the cache (shared by every server process when the cache is).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.utils.translation import get_language

ACCOUNT_FAILURE_LIMIT = 10
ADDRESS_FAILURE_LIMIT = 50
FAILURE_WINDOW_SECONDS = 15 * 60

# The message in the site's two languages (French first); it names no account.
BLOCKED = {
    "fr": "Trop de connexions manquées pour ce compte ou depuis ce réseau. "
    "Réessayez dans 15 minutes.",
    "en": "Too many failed sign-ins for this account or from this network. "
    "Try again in 15 minutes.",
}


def account_key(username: str) -> str:
    """Return the account's counter name: the username as Django reads it, case folded.

    Django normalises a typed username (NFKC) before looking the account up, so "ｖictimprof"
    (fullwidth v) signs in as "victimprof": the counter must key on the same normal form, or
    each look-alike spelling would get ten more guesses.
    """
    normal = AbstractBaseUser.normalize_username(username.strip()).casefold()
    return f"lessons:login-failures:user:{normal[:150]}"


def _keys(username: str, address: str) -> tuple[str, str]:
    return (
        account_key(username),
        f"lessons:login-failures:address:{address}",
    )


def is_blocked(*, username: str, address: str) -> bool:
    """Tell whether the account or the address failed too often recently."""
    user_key, address_key = _keys(username, address)
    return (
        int(cache.get(user_key, 0)) >= ACCOUNT_FAILURE_LIMIT
        or int(cache.get(address_key, 0)) >= ADDRESS_FAILURE_LIMIT
    )


def record_failure(*, username: str, address: str) -> None:
    """Count one failed sign-in for the account and for the address."""
    for key in _keys(username, address):
        _count(key)


def _count(key: str) -> None:
    if not cache.add(key, 1, FAILURE_WINDOW_SECONDS):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, FAILURE_WINDOW_SECONDS)


def address_is_blocked(address: str) -> bool:
    """Tell whether the address failed too often recently (sign-ins with no username: ENT)."""
    return int(cache.get(_keys("", address)[1], 0)) >= ADDRESS_FAILURE_LIMIT


def address_failure_record(address: str) -> None:
    """Count one failed sign-in from the address only (a refused ENT ticket names no account)."""
    _count(_keys("", address)[1])


def blocked_message() -> str:
    """Return the refusal in the active language."""
    return BLOCKED.get((get_language() or "fr")[:2], BLOCKED["fr"])


class LimitedAuthenticationForm(AuthenticationForm):
    """Django's sign-in form, refusing while the account or address is blocked."""

    def clean(self) -> dict[str, Any]:
        """Check the limit first, then the password; count a wrong password."""
        username = str(self.data.get("username", ""))
        address = str(self.request.META.get("REMOTE_ADDR") or "unknown") if self.request else ""
        if is_blocked(username=username, address=address):
            raise ValidationError(blocked_message(), code="login_blocked")
        try:
            return super().clean()
        except ValidationError:
            record_failure(username=username, address=address)
            raise
