"""Limit teacher password guessing (lessons.classrooms.sign_in_limit, kind "password").

Django's LoginView has no limit of its own. Failures count per device (its signed cookie), per
address (a school shares one) and per username; a device that signed in to this account
before is not stopped by the address's or the account's lock (a stranger's guesses do not
lock the teacher out), only by its own. While refused, sign-in answers the same message
whether or not the password is right.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.utils.translation import get_language

from lessons.classrooms import sign_in_limit

ACCOUNT_FAILURE_LIMIT = sign_in_limit.RULES["password"].account_limit
DEVICE_FAILURE_LIMIT = sign_in_limit.RULES["password"].device_limit
ADDRESS_FAILURE_LIMIT = sign_in_limit.RULES["password"].address_limit
# The longest a failed sign-in is remembered (a lock's strikes): the privacy notice says it.
FAILURE_WINDOW_SECONDS = sign_in_limit.DAY_SECONDS

# The message in the site's two languages (French first); it names no account.
BLOCKED = {
    "fr": "Trop de connexions manquées pour ce compte, sur cet appareil ou depuis ce réseau. "
    "Réessayez plus tard.",
    "en": "Too many failed sign-ins for this account, on this device or from this network. "
    "Try again later.",
}


def account_name(username: str) -> str:
    """Return the account a typed username's attempts count under: as Django reads it, folded.

    Django normalises a typed username (NFKC) before looking the account up, so "ｖictimprof"
    (fullwidth v) signs in as "victimprof": the counter must key on the same normal form, or
    each look-alike spelling would get ten more guesses.
    """
    normal = AbstractBaseUser.normalize_username(username.strip()).casefold()[:150]
    return sign_in_limit.account_for_teacher(normal)


def blocked_message() -> str:
    """Return the refusal in the active language."""
    return BLOCKED.get((get_language() or "fr")[:2], BLOCKED["fr"])


class LimitedAuthenticationForm(AuthenticationForm):
    """Django's sign-in form, refusing while the account or address is blocked."""

    def clean(self) -> dict[str, Any]:
        """Check the limits first, then the password; count a wrong one, trust a right one."""
        username = str(self.data.get("username", ""))
        if self.request is None:
            client = sign_in_limit.Client.from_address("")
        else:
            client = sign_in_limit.client_of(self.request)
        account = account_name(username)
        if sign_in_limit.refusal("password", client, account) is not None:
            raise ValidationError(blocked_message(), code="login_blocked")
        try:
            cleaned = super().clean()
        except ValidationError:
            sign_in_limit.failure("password", client, account)
            raise
        client.device.trust([account])
        return cleaned
