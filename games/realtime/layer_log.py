"""The log filter for the channel layer's connection errors (unoclass/settings.py's LOGGING)."""

from __future__ import annotations

import asyncio
import logging
import time


class LayerErrorsOneLine(logging.Filter):
    """Print a channel layer's connection errors as one line, at most every SECONDS.

    channels_redis logs every failed read of its receive loop with a traceback, once a second
    while Redis is away; the outage itself is logged once by the delivery ledger
    (games.realtime.delivery_ledger).
    """

    SECONDS = 30.0

    def __init__(self) -> None:
        super().__init__()
        self.last = float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        """Drop the traceback of a layer's connection error; drop repeats within SECONDS."""
        if not record.name.startswith("channels_redis") or not record.exc_info:
            return True
        error = record.exc_info[1]
        if not _is_connection_error(error):
            return True
        now = time.monotonic()
        if now - self.last < self.SECONDS:
            return False
        self.last = now
        record.msg = f"{record.getMessage()}: {type(error).__name__}: {error}"
        record.args = ()
        record.exc_info = None
        record.exc_text = None
        return True


def _is_connection_error(error: BaseException | None) -> bool:
    if isinstance(error, (OSError, asyncio.TimeoutError)):
        return True
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:  # no Redis client: not a Redis error
        return False
    return isinstance(error, (RedisConnectionError, RedisTimeoutError))
