"""A database that restarts answers 503 "try again in a moment" (fr/en), never a 500; a cache
whose Redis is away falls back to the process's memory (issue 14, points 3-4)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from unittest import mock

import pytest
from django.core.cache import cache, caches
from django.db import OperationalError, ProgrammingError
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from tests.conftest import ClassWorld
from tests.support.servers import RedisServer, free_port, redis_server
from unoclass import cache_fallback

__all__ = ["redis_server"]

SESSION_LOAD = "django.contrib.sessions.backends.db.SessionStore.load"


def _signed_in(world: ClassWorld, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(world.teacher)
    return client


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "Try again in a moment"), ("fr", "Réessayez dans un instant")],
)
def test_a_database_that_does_not_answer_gives_a_503_page(
    class_a: ClassWorld, caplog: pytest.LogCaptureFixture, language: str, text: str
) -> None:
    client = _signed_in(class_a, language)
    with (
        mock.patch(SESSION_LOAD, side_effect=OperationalError("server closed the connection")),
        caplog.at_level(logging.WARNING),
    ):
        response = client.get(reverse("home"))
    assert response.status_code == 503
    assert text in response.content.decode()
    assert response["Retry-After"] == "10"
    assert "no-store" in response["Cache-Control"]
    records = [r for r in caplog.records if r.name == "unoclass.unavailable"]
    assert [r.getMessage() for r in records] == ["database unavailable: 503 for GET /"]
    assert all(r.exc_info is None for r in caplog.records)


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "cannot reach its database"), ("fr", "arrive pas à joindre sa base")],
)
@pytest.mark.parametrize("route", ["games:frames", "session_frames"])
def test_a_posted_frame_during_an_outage_gets_a_json_unavailable_frame(
    class_a: ClassWorld, language: str, text: str, route: str
) -> None:
    """The fallback's POST is read by the page as JSON: the outage is an `unavailable` frame."""
    client = _signed_in(class_a, language)
    url = reverse(route, args=[1])
    lost = OperationalError("server closed the connection")
    with (
        mock.patch(SESSION_LOAD, side_effect=lost),
        mock.patch(f"{SESSION_LOAD[: -len('load')]}aload", side_effect=lost),
    ):
        response = client.post(url, '{"type": "sync"}', content_type="application/json")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == "10"
    assert "no-store" in response["Cache-Control"]
    [frame] = response.json()["frames"]
    assert frame["type"] == "error"
    assert frame["code"] == "unavailable"
    assert text in frame["message"]


def test_a_programming_error_is_still_a_500(class_a: ClassWorld) -> None:
    client = _signed_in(class_a, "en")
    client.raise_request_exception = False
    with mock.patch(SESSION_LOAD, side_effect=ProgrammingError("no such column")):
        assert client.get(reverse("home")).status_code == 500


def _fallback_cache(settings: Settings, location: str) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "unoclass.cache_fallback.RedisCacheWithLocalFallback",
            "LOCATION": location,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }


@pytest.fixture
def no_redis(settings: Settings) -> Iterator[None]:
    """Point the cache at a port where no Redis listens."""
    _fallback_cache(settings, f"redis://127.0.0.1:{free_port()}/0")
    yield


def test_the_cache_falls_back_to_memory_and_logs_once(
    no_redis: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        assert cache.add("k", 1, 60) is True
        assert cache.incr("k") == 2
        assert cache.get("k") == 2
        with pytest.raises(ValueError):
            cache.incr("absent")
        cache.set_many({"a": 1, "b": 2})
        assert cache.get_many(["a", "b"]) == {"a": 1, "b": 2}
        cache.delete("a")
        assert not cache.has_key("a")
    lines = [r for r in caplog.records if r.name == "unoclass.cache_fallback"]
    assert len(lines) == 1 and "Redis unreachable" in lines[0].getMessage()
    assert lines[0].exc_info is None


def test_student_sign_in_works_while_redis_is_away(no_redis: None, class_a: ClassWorld) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    code = class_a.classroom.join_code
    assert client.get(reverse("join")).status_code == 200
    assert client.post(reverse("join"), {"code": code}).status_code == 302
    assert client.get(reverse("join_name", args=[code])).status_code == 200
    pin_url = reverse("join_pin", args=[code, class_a.student.student.pk])
    wrong = "0000" if class_a.student.pin != "0000" else "1111"
    assert client.post(pin_url, {"pin": wrong}).status_code == 200  # counted, not a 500
    assert client.post(pin_url, {"pin": class_a.student.pin}).status_code == 302
    assert client.get(reverse("home")).status_code == 200


def test_the_cache_uses_redis_again_once_it_answers(
    settings: Settings, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fallback_cache(settings, redis_server.url)
    monkeypatch.setattr(cache_fallback, "RETRY_SECONDS", 0.0)
    cache.set("shared", "in redis", 60)
    backend = caches["default"]
    assert isinstance(backend, cache_fallback.RedisCacheWithLocalFallback)
    assert backend.local.get("shared") is None  # stored in Redis, not in the fallback
    assert cache.get("shared") == "in redis"
    cache.delete("shared")
