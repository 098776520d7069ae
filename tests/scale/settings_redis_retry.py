"""The production settings with Redis connections that retry (proposed for unoclass/settings.py).

channels_redis opens plain redis-py connections, which by default never retry: after a Redis
restart the first publish on a stale pooled connection raises ConnectionError, the consumer
that applied an action dies, and the table's update is lost for every other seat. Retrying on
ConnectionError with a short backoff (spanning a restart of a few seconds) fixes that.
"""

from __future__ import annotations

from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from unoclass.settings import *  # noqa: F403
from unoclass.settings import CHANNEL_LAYERS, REDIS_URL

if REDIS_URL:
    for _host_index, _host in enumerate(CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]):
        CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][_host_index] = {
            "address": _host if isinstance(_host, str) else _host["address"],
            "retry": Retry(ExponentialBackoff(cap=1.0, base=0.05), 8),
            "retry_on_error": [RedisConnectionError, RedisTimeoutError],
        }
