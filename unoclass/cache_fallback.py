"""Django's Redis cache, falling back to this process's memory while Redis does not answer.

The cache holds the sign-in limits (per account and per address). With Redis away, a page
that reads them must not fail: each call then goes to a local memory cache for
RETRY_SECONDS before Redis is tried again. Meanwhile the limits count per process (with N
daphne processes a guesser gets up to N times the limit), and what was counted in Redis
before the outage is not seen: a short, logged degradation instead of an error page.

Django's own RedisCache has no "ignore exceptions" option, and django-redis's (a cache that
forgets everything while Redis is away) would switch the limits off instead.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

T = TypeVar("T")
RETRY_SECONDS = 5.0
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


# Per process and Redis address (Django makes one cache object per thread): whether Redis is
# being skipped, and until when.
_down_until: dict[str, float] = {}
_lock = threading.Lock()


class RedisCacheWithLocalFallback(RedisCache):
    """A RedisCache whose calls go to a local memory cache while Redis is unreachable."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.server = server
        local_params = {k: v for k, v in params.items() if k not in ("LOCATION", "OPTIONS")}
        # LocMemCache shares its storage by name: every thread of the process counts together.
        self.local = LocMemCache(f"unoclass-fallback:{server}", local_params)

    def _either(self, remote: Callable[[], T], local: Callable[[], T]) -> T:
        if time.monotonic() < _down_until.get(self.server, 0.0):
            return local()
        try:
            result = remote()
        except UNREACHABLE as exc:
            with _lock:
                first = self.server not in _down_until
                _down_until[self.server] = time.monotonic() + RETRY_SECONDS
            if first:
                logger.warning(
                    "cache: Redis unreachable (%s), this process counts the sign-in limits "
                    "in its own memory until it answers",
                    type(exc).__name__,
                )
            return local()
        if self.server in _down_until:
            with _lock:
                back = _down_until.pop(self.server, None) is not None
            if back:
                logger.warning("cache: Redis answers again")
        return result

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self._either(
            lambda: getattr(super(RedisCacheWithLocalFallback, self), name)(*args, **kwargs),
            lambda: getattr(self.local, name)(*args, **kwargs),
        )

    def add(self, *args: Any, **kwargs: Any) -> Any:
        """Store a value if the key is absent."""
        return self._call("add", *args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        """Return a value, or the default."""
        return self._call("get", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        """Store a value."""
        return self._call("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        """Renew a key's expiry."""
        return self._call("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        """Remove a key."""
        return self._call("delete", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        """Return the values of several keys."""
        return self._call("get_many", *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        """Tell whether a key is present."""
        return self._call("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        """Add to a stored number (ValueError when the key is absent)."""
        return self._call("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        """Store several values."""
        return self._call("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        """Remove several keys."""
        return self._call("delete_many", *args, **kwargs)

    def clear(self) -> Any:
        """Remove everything."""
        return self._call("clear")
