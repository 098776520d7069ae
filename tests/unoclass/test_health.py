"""/healthz: 200 when the database, the cache and a channel-layer round trip work, 503 naming
the part that does not, and never an error text in the answer."""

from __future__ import annotations

import json
import logging
from typing import Any
from unittest import mock

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]
from django.db import connection
from django.test import Client
from pytest_django.fixtures import Settings
from redis.asyncio import Redis

from tests.support.servers import RedisServer, free_port, redis_server
from unoclass import health

__all__ = ["redis_server"]

SECRET = "password=hunter2 host=db.internal"


def _check(client: Client | None = None) -> tuple[int, dict[str, str]]:
    response = (client or Client()).get("/healthz")
    assert response["Content-Type"] == "application/json"
    assert "no-store" in response["Cache-Control"]
    return response.status_code, json.loads(response.content)


@pytest.mark.django_db
def test_all_parts_ok_answers_200() -> None:
    assert _check() == (
        200,
        {"database": "ok", "cache": "ok", "channel_layer": "ok", "status": "ok"},
    )


@pytest.mark.django_db
def test_database_down_answers_503_naming_it_without_the_error_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with (
        caplog.at_level(logging.WARNING, logger="unoclass.health"),
        mock.patch.object(connection, "cursor", side_effect=RuntimeError(SECRET)),
    ):
        response = Client().get("/healthz")
    assert response.status_code == 503
    assert json.loads(response.content) == {
        "database": "fail",
        "cache": "ok",
        "channel_layer": "ok",
        "status": "fail",
    }
    assert b"hunter2" not in response.content and b"Traceback" not in response.content
    # The log says which part failed, by exception class, not the message (it may hold secrets).
    assert "database failed (RuntimeError)" in caplog.text
    assert "hunter2" not in caplog.text


@pytest.mark.django_db
def test_cache_failure_answers_503() -> None:
    with mock.patch("unoclass.health.cache.set", side_effect=ConnectionError(SECRET)):
        status, report = _check()
    assert status == 503
    assert report["cache"] == "fail" and report["database"] == "ok"
    assert report["status"] == "fail"


@pytest.mark.django_db
def test_cache_that_loses_what_it_stored_is_a_failure() -> None:
    # A dummy cache accepts every write and returns nothing: not a working cache.
    with mock.patch("unoclass.health.cache.get", return_value=None):
        status, report = _check()
    assert (status, report["cache"]) == (503, "fail")


class SilentLayer(InMemoryChannelLayer):
    """A layer that accepts messages and never delivers them (a stuck pub/sub connection)."""

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        return None


class BrokenLayer(InMemoryChannelLayer):
    """A layer whose every send fails (its server is unreachable)."""

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        raise ConnectionError(SECRET)


@pytest.mark.django_db
def test_channel_layer_that_fails_answers_503(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.BrokenLayer"}}
    status, report = _check()
    assert status == 503
    assert report == {"database": "ok", "cache": "ok", "channel_layer": "fail", "status": "fail"}


@pytest.mark.django_db
def test_channel_layer_that_never_delivers_times_out(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.SilentLayer"}}
    with mock.patch.object(health, "CHECK_TIMEOUT_SECONDS", 0.2):
        status, report = _check()
    assert (status, report["channel_layer"], report["status"]) == (503, "timeout", "fail")


@pytest.mark.django_db
def test_no_channel_layer_configured_is_a_failure(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {}
    status, report = _check()
    assert (status, report["channel_layer"]) == (503, "fail")


@pytest.mark.django_db
def test_round_trip_leaves_no_channel_behind() -> None:
    _check()
    layer = get_channel_layer()
    assert isinstance(layer, InMemoryChannelLayer)
    assert layer.channels == {}


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_only_get_and_head_are_answered(method: str) -> None:
    assert getattr(Client(), method)("/healthz").status_code == 405
    assert Client().head("/healthz").status_code == 200


@pytest.mark.django_db
def test_needs_no_sign_in_and_no_https_redirect(settings: Settings) -> None:
    settings.SECURE_SSL_REDIRECT = True
    client = Client()
    assert client.get("/healthz").status_code == 200
    # Every other page still moves to HTTPS.
    response = client.get("/")
    assert response.status_code == 301 and response["Location"].startswith("https://")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "backend",
    ["games.realtime.pubsub_layer.PubSubChannelLayer", "channels_redis.core.RedisChannelLayer"],
)
def test_round_trip_through_real_redis(
    settings: Settings, redis_server: RedisServer, backend: str
) -> None:
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": backend, "CONFIG": {"hosts": [redis_server.url]}}
    }
    assert _check() == (
        200,
        {"database": "ok", "cache": "ok", "channel_layer": "ok", "status": "ok"},
    )

    # A Redis nobody listens on: the check fails within its timeout instead of hanging.
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": backend, "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]}}
    }
    with mock.patch.object(health, "CHECK_TIMEOUT_SECONDS", 1.0):
        status, report = _check()
    assert status == 503 and report["channel_layer"] in {"fail", "timeout"}


async def test_pubsub_round_trip_unsubscribes_its_channel(
    settings: Settings, redis_server: RedisServer
) -> None:
    # The pub/sub layer keeps a channel subscribed after a receive unless told otherwise: a
    # check every few seconds would pile up subscriptions in a long-lived daphne process.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.realtime.pubsub_layer.PubSubChannelLayer",
            "CONFIG": {"hosts": [redis_server.url]},
        }
    }
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)
    client = Redis.from_url(redis_server.url)
    try:
        for _round in range(3):
            await health._check_channel_layer()
        assert layer._get_layer().channels == {}
        assert [c for c in await client.pubsub_channels() if b"specific" in c] == []
    finally:
        await layer.flush()
        await client.aclose()
