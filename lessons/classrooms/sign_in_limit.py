"""Limit sign-in guessing without letting a stranger lock a school, a teacher or a pupil out.

Each attempt is of one kind (a teacher's password, an ENT ticket, a class code, a pupil's
PIN) and counts in up to three buckets:

- the device: a signed cookie this module sets on the sign-in pages (a client without one, a
  script dropping it, shares one "no cookie" device per address). A device that fails
  `device_limit` times is locked, whoever it signs in for;
- the address (an IPv4 address or an IPv6 /64, games.realtime.addresses): a school shares
  one, so its limit is much higher;
- the account the attempt names (a username, a pupil), when the kind has one.

The address and the account lock only *untrusted* attempts: a device on which this account
signed in before (or which typed this class's code, or signed in with this ENT) carries that
in its cookie, and keeps signing in while someone else's guesses lock the school's address or
the pupil's name. It still counts in, and is stopped by, its own device bucket.

Each lock of a bucket lasts twice the one before (from the kind's `first_lock`, at most a
day); a bucket's strikes are forgotten a day after its last. docs/deploy.md states the
resulting daily budget per address. Counters live in the Django cache (shared by every
server process when the cache is); nothing is written to the database.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import wraps
from typing import Literal, ParamSpec

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

from games.realtime.addresses import address_group

P = ParamSpec("P")
Kind = Literal["password", "ent", "code", "pin"]
Bucket = Literal["device", "address", "account"]

DAY_SECONDS = 24 * 3600
COOKIE_NAME = "unoclass_sign_in_device"
COOKIE_SECONDS = 365 * DAY_SECONDS
COOKIE_SALT = "lessons.sign_in_limit.device"
# A device remembers this many accounts (the newest): a class's shared tablet signs in many.
TRUSTED_MAX = 40


@dataclass(frozen=True)
class Rule:
    """How many failures each bucket of one kind allows, over what window, locked how long."""

    device_limit: int
    address_limit: int
    account_limit: int  # 0: this kind names no account (or the account's lock lives elsewhere)
    window_seconds: int
    first_lock_seconds: int


RULES: dict[Kind, Rule] = {
    "password": Rule(10, 200, 10, 15 * 60, 15 * 60),
    "ent": Rule(10, 200, 0, 15 * 60, 15 * 60),
    "code": Rule(10, 200, 0, 10 * 60, 10 * 60),
    # The pupil's own lock (5 wrong PINs) is on the Student row, where the teacher sees and
    # lifts it; its length comes from this module's strikes (`account_lock_seconds`).
    "pin": Rule(10, 200, 0, 10 * 60, 5 * 60),
}


def _now() -> float:
    return time.time()


@dataclass
class Device:
    """This browser's sign-in cookie: an id and the accounts it signed in for (as digests)."""

    ident: str | None
    trusted: list[str] = field(default_factory=list)
    changed: bool = False
    # False for a device this request made up: it counts in its address's cookieless bucket.
    from_cookie: bool = False

    def trusts(self, account: str) -> bool:
        """Tell whether this account signed in (or this code was typed) on this device."""
        return self.from_cookie and _digest(account) in self.trusted

    def trust(self, accounts: Iterable[str]) -> None:
        """Remember these accounts on this device (the cookie is set with the response)."""
        if self.ident is None:
            self.ident = secrets.token_urlsafe(16)
            self.changed = True
        for account in accounts:
            digest = _digest(account)
            if digest in self.trusted:
                continue
            self.trusted = [*self.trusted, digest][-TRUSTED_MAX:]
            self.changed = True


@dataclass(frozen=True)
class Client:
    """Who attempts a sign-in, as the limits see it: the address group and the device."""

    address: str
    device: Device

    @property
    def device_key(self) -> str:
        """Return the device's bucket: its id, or the address's cookieless bucket."""
        if not self.device.from_cookie or self.device.ident is None:
            return f"none:{self.address}"
        return self.device.ident

    @classmethod
    def from_address(cls, address: str) -> Client:
        """Return a client with no device cookie (a service called without a request)."""
        return cls(address=address_group(address or "unknown"), device=Device(ident=None))


def account_for_teacher(normal_username: str) -> str:
    """Return the account name a teacher's password attempts count under."""
    return f"user:{normal_username}"


def account_for_pupil(student_pk: int) -> str:
    """Return the account name a pupil's PIN attempts and trust are kept under."""
    return f"pupil:{student_pk}"


def account_for_class(classroom_pk: int) -> str:
    """Return the trust name of a class's code (a device that typed it knows it)."""
    return f"class:{classroom_pk}"


def account_for_ent(connector_pk: int) -> str:
    """Return the trust name of an ENT (a device that signed in through it before)."""
    return f"ent:{connector_pk}"


def _digest(account: str) -> str:
    # The cookie is readable (only signed): it holds digests, not usernames or pupil ids.
    return salted_hmac(COOKIE_SALT, account).hexdigest()[:16]


def device_of(request: HttpRequest) -> Device:
    """Return the request's device, read once from its signed cookie (a bad one: none)."""
    known = getattr(request, "_sign_in_device", None)
    if isinstance(known, Device):
        return known
    device = Device(ident=None)
    raw = request.COOKIES.get(COOKIE_NAME)
    if raw:
        try:
            value = signing.loads(raw, salt=COOKIE_SALT, max_age=COOKIE_SECONDS)
        except signing.BadSignature:
            value = None
        if isinstance(value, dict) and isinstance(value.get("d"), str):
            trusted = value.get("t")
            device = Device(
                ident=value["d"][:64],
                trusted=[str(t)[:16] for t in trusted][-TRUSTED_MAX:]
                if isinstance(trusted, list)
                else [],
                from_cookie=True,
            )
    if device.ident is None:
        # Every sign-in page gives the browser its own device: its mistakes are then its own.
        device.ident = secrets.token_urlsafe(16)
        device.changed = True
    request._sign_in_device = device  # type: ignore[attr-defined]
    return device


def client_of(request: HttpRequest) -> Client:
    """Return the attempting client of a request (the cookie's device, the address group).

    A device that came without a valid cookie counts in its address's cookieless bucket until
    the browser sends the cookie back: a script that drops it gains nothing.
    """
    address = address_group(str(request.META.get("REMOTE_ADDR") or "unknown"))
    return Client(address=address, device=device_of(request))


def device_keep(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Set the device cookie on a response when it is new or its trust changed."""
    device = getattr(request, "_sign_in_device", None)
    if isinstance(device, Device) and device.changed and device.ident is not None:
        response.set_cookie(
            COOKIE_NAME,
            signing.dumps({"d": device.ident, "t": device.trusted}, salt=COOKIE_SALT),
            max_age=COOKIE_SECONDS,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


def with_device(view: Callable[P, HttpResponse]) -> Callable[P, HttpResponse]:
    """Decorate a sign-in view: its answer carries the device cookie."""

    @wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        request = next(arg for arg in args if isinstance(arg, HttpRequest))
        device_of(request)
        return device_keep(request, view(*args, **kwargs))

    return wrapped


def _key(kind: Kind, bucket: Bucket, name: str) -> str:
    return f"lessons:sign-in-limit:{kind}:{bucket}:{name[:200]}"


def _locked(key: str) -> bool:
    until = cache.get(f"{key}:lock")
    return until is not None and float(until) > _now()


def lock_left_seconds(kind: Kind, bucket: Bucket, name: str) -> float:
    """Return how long this bucket stays locked (0: not locked); for tests and messages."""
    until = cache.get(f"{_key(kind, bucket, name)}:lock")
    return max(0.0, float(until) - _now()) if until is not None else 0.0


def _lock_length(first_lock_seconds: int, strikes: int) -> int:
    return int(min(first_lock_seconds * 2 ** min(strikes - 1, 16), DAY_SECONDS))


def _strike(key: str, first_lock_seconds: int) -> int:
    """Count one more lock of this bucket; return its length (doubling, at most a day)."""
    strikes = int(cache.get(f"{key}:strikes", 0)) + 1
    cache.set(f"{key}:strikes", strikes, DAY_SECONDS)
    return _lock_length(first_lock_seconds, strikes)


def _count(key: str, limit: int, rule: Rule) -> None:
    if cache.add(f"{key}:n", 1, rule.window_seconds):
        failures = 1
    else:
        try:
            failures = int(cache.incr(f"{key}:n"))
        except ValueError:  # expired between add and incr
            cache.set(f"{key}:n", 1, rule.window_seconds)
            failures = 1
    if failures >= limit:
        seconds = _strike(key, rule.first_lock_seconds)
        cache.set(f"{key}:lock", _now() + seconds, seconds + 60)
        cache.delete(f"{key}:n")


def refusal(kind: Kind, client: Client, account: str | None = None) -> Bucket | None:
    """Return the bucket that refuses this attempt now, or None if it may go ahead."""
    if _locked(_key(kind, "device", client.device_key)):
        return "device"
    if account is not None and client.device.trusts(account):
        return None
    if _locked(_key(kind, "address", client.address)):
        return "address"
    if (
        account is not None
        and RULES[kind].account_limit
        and _locked(_key(kind, "account", account))
    ):
        return "account"
    return None


def failure(kind: Kind, client: Client, account: str | None = None) -> None:
    """Count one failed attempt in the device's bucket, and unless trusted, the others."""
    rule = RULES[kind]
    _count(_key(kind, "device", client.device_key), rule.device_limit, rule)
    if account is not None and client.device.trusts(account):
        return
    _count(_key(kind, "address", client.address), rule.address_limit, rule)
    if account is not None and rule.account_limit:
        _count(_key(kind, "account", account), rule.account_limit, rule)


def account_trusted(client: Client, account: str) -> bool:
    """Tell whether this account signed in before on the client's device."""
    return client.device.trusts(account)


def account_lock_seconds(kind: Kind, account: str) -> int:
    """Count a lock of an account kept elsewhere (a pupil's row); return its length."""
    return _strike(_key(kind, "account", account), RULES[kind].first_lock_seconds)


def account_next_lock_seconds(kind: Kind, account: str) -> int:
    """Return how long the account's next lock would last (what a pupil is told)."""
    strikes = int(cache.get(f"{_key(kind, 'account', account)}:strikes", 0)) + 1
    return _lock_length(RULES[kind].first_lock_seconds, strikes)


def account_strikes_forget(kind: Kind, account: str) -> None:
    """Forget an account's locks (a teacher unlocked the pupil, or gave a new PIN)."""
    cache.delete(f"{_key(kind, 'account', account)}:strikes")
