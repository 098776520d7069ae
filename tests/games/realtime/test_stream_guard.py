"""The event streams, served by Channels before Django's middleware, check the Host and carry
the pages' security headers as pages do (issue 32 §13), through the real ASGI routing."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import ApplicationCommunicator
from django.test import Client
from pytest_django.fixtures import Settings

from unoclass.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True)]

STREAMS = ["/tables/1/stream/", "/sessions/1/stream/", "/network-check/stream/"]


async def _start(
    path: str, host: bytes, scheme: str = "http", extra: tuple[tuple[bytes, bytes], ...] = ()
) -> dict[str, Any]:
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "scheme": scheme,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", host), (b"accept", b"text/event-stream"), *extra],
        "client": ("192.0.2.7", 50000),
        "server": ("127.0.0.1", 8000),
    }
    comm = ApplicationCommunicator(application, scope)
    await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
    try:
        start: dict[str, Any] = await comm.receive_output(3)
        assert start["type"] == "http.response.start"
        return start
    finally:
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(3)


@pytest.mark.parametrize("path", STREAMS)
async def test_a_stream_refuses_a_host_the_pages_refuse(path: str) -> None:
    assert Client().get("/", HTTP_HOST="evil.example").status_code == 400  # a page's answer
    start = await _start(path, b"evil.example")
    assert start["status"] == 400


@pytest.mark.parametrize("path", STREAMS)
async def test_a_stream_carries_the_pages_security_headers(path: str, settings: Settings) -> None:
    settings.SECURE_HSTS_SECONDS = 3600
    page = Client().get("/", secure=True)
    start = await _start(path, b"testserver", scheme="https")
    headers = {bytes(k).lower(): bytes(v) for k, v in start.get("headers", [])}
    for name in ("X-Frame-Options", "Strict-Transport-Security", "Referrer-Policy"):
        assert headers[name.lower().encode()].decode() == page[name], name
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert b"frame-ancestors 'none'" in headers[b"content-security-policy"]
    # Over plain http, no HSTS (as pages: a browser ignores it there).
    plain = await _start(path, b"testserver")
    assert b"strict-transport-security" not in dict(plain.get("headers", []))


@pytest.mark.parametrize("path", STREAMS)
async def test_behind_the_proxy_a_stream_carries_hsts_as_a_page_does(
    path: str, settings: Settings
) -> None:
    """nginx speaks TLS and tells daphne so in X-Forwarded-Proto (docs/deploy.md)."""
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    page = Client().get("/", HTTP_X_FORWARDED_PROTO="https")
    start = await _start(path, b"testserver", extra=((b"x-forwarded-proto", b"https"),))
    headers = {bytes(k).lower(): bytes(v) for k, v in start.get("headers", [])}
    assert headers[b"strict-transport-security"].decode() == page["Strict-Transport-Security"]
    plain = await _start(path, b"testserver", extra=((b"x-forwarded-proto", b"http"),))
    assert b"strict-transport-security" not in dict(plain.get("headers", []))
