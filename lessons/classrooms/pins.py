"""Generate, hash and check the 4-digit PINs students sign in with."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher

PIN_LENGTH = 4
# A 4-digit PIN has only 10,000 values, so the real protection is the lock after five wrong
# tries; this cost keeps a 60-name roster quick to create while still salting every PIN.
DEFAULT_PIN_HASH_ITERATIONS = 100_000


class _PinHasher(PBKDF2PasswordHasher):
    algorithm = "pin_pbkdf2_sha256"


def _hasher() -> _PinHasher:
    hasher = _PinHasher()
    hasher.iterations = getattr(settings, "PIN_HASH_ITERATIONS", DEFAULT_PIN_HASH_ITERATIONS)
    return hasher


def pin_generate() -> str:
    """Return a random 4-digit PIN (leading zeros allowed)."""
    return f"{secrets.randbelow(10**PIN_LENGTH):0{PIN_LENGTH}d}"


def pin_hash(pin: str) -> str:
    """Return a salted hash of a PIN, for storage."""
    hasher = _hasher()
    return hasher.encode(pin, hasher.salt())


def pin_matches(pin: str, encoded: str) -> bool:
    """Tell whether a typed PIN matches a stored hash (constant-time comparison)."""
    if not encoded:
        return False
    return _hasher().verify(pin, encoded)
