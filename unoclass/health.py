"""The load balancer's health check: the database, the cache and a channel-layer round trip.

GET /healthz answers JSON such as ``{"database": "ok", "cache": "ok", "channel_layer": "ok",
"status": "ok"}`` with 200 when every part works, 503 otherwise. A part that fails says
"fail" (or "timeout"): never an exception text, a host or a password. The details go to the
server log, by exception class only.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

OK, FAIL, TIMEOUT = "ok", "fail", "timeout"
# A load balancer usually waits a few seconds: each part must answer well within that.
CHECK_TIMEOUT_SECONDS = 2.0


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        row = cursor.fetchone()
    if row is None or row[0] != 1:
        raise RuntimeError("SELECT 1 did not return 1")


def _check_cache() -> None:
    key = f"unoclass:healthz:{uuid.uuid4().hex}"
    cache.set(key, "1", 30)
    try:
        if cache.get(key) != "1":
            raise RuntimeError("the cache did not return what was just stored")
    finally:
        cache.delete(key)


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    channel = await layer.new_channel()
    nonce = uuid.uuid4().hex
    try:
        await layer.send(channel, {"type": "healthz.ping", "nonce": nonce})
        message = await layer.receive(channel)
    finally:
        await _forget_channel(layer, channel)
    if message.get("nonce") != nonce:
        raise RuntimeError("the channel layer returned another message")


async def _forget_channel(layer: Any, channel: str) -> None:
    # The Redis pub/sub layer stays subscribed to a channel after a successful receive (it
    # only unsubscribes when a receive is cancelled): a check every few seconds would pile up
    # subscriptions. The in-memory and core layers drop the channel by themselves.
    from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]

    if isinstance(layer, RedisPubSubChannelLayer):
        # channels_redis privates: tests/unoclass/test_private_apis.py
        # ::test_channels_redis_pubsub_layer_privates.
        loop_layer = layer._get_layer()
        if loop_layer.channels.pop(channel, None) is not None:
            await loop_layer._get_shard(channel).unsubscribe(channel)


async def _run(name: str, check: Callable[[], Awaitable[None]]) -> str:
    try:
        await asyncio.wait_for(check(), CHECK_TIMEOUT_SECONDS)
    except TimeoutError:
        logger.warning("health check: %s timed out", name)
        return TIMEOUT
    except Exception as error:  # noqa: BLE001 - any failure of a part is that part's "fail"
        logger.warning("health check: %s failed (%s)", name, type(error).__name__)
        return FAIL
    return OK


@never_cache
@require_safe
async def healthz(request: HttpRequest) -> JsonResponse:
    """Check each part the site needs and answer 200 if all work, 503 if any does not."""
    report = {
        "database": await _run("database", sync_to_async(_check_database)),
        "cache": await _run("cache", sync_to_async(_check_cache)),
        "channel_layer": await _run("channel_layer", _check_channel_layer),
    }
    healthy = all(value == OK for value in report.values())
    report["status"] = OK if healthy else FAIL
    return JsonResponse(report, status=200 if healthy else 503)
