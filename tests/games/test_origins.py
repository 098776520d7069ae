"""games.realtime.origins: a live link's Origin passes exactly when a POST's would.

The check calls Django's private `CsrfViewMiddleware._origin_verified`; these tests compare
it with the middleware's public hook (`process_view` on a POST with a valid token), so they
fail if Django renames that method or changes what it accepts. The raw-client matrix over
every link is tests/e2e/security/test_origins.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.test import RequestFactory, override_settings

from games.realtime.origins import origin_allowed
from lessons.models import User
from tests.games.helpers import FRACTIONS_SETUP, make_table, session_cookie
from unoclass.asgi import application

TOKEN = "abcdefghijklmnopqrstuvwxyz012345"
PROXY = {"SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https")}
TRUSTED = {"CSRF_TRUSTED_ORIGINS": ["https://portal.example-school.fr", "https://*.ent.example"]}

# (Origin, Host, settings, X-Forwarded-Proto, the socket's scheme, allowed?)
CASES = [
    ("http://testserver", "testserver", {}, None, "ws", True),
    ("https://testserver", "testserver", {}, None, "ws", False),
    ("https://testserver", "testserver", {}, None, "wss", True),
    ("http://testserver", "testserver", {}, None, "wss", False),
    ("http://testserver:9443", "testserver", {}, None, "ws", False),
    ("http://testserver:8000", "testserver:8000", {}, None, "ws", True),
    ("http://testserver", "testserver:8000", {}, None, "ws", False),
    ("http://evil.example", "testserver", {}, None, "ws", False),
    ("http://evil.example", "evil.example", {}, None, "ws", False),  # a Host not allowed
    ("https://testserver", "testserver", PROXY, "https", "ws", True),
    ("http://testserver", "testserver", PROXY, "https", "ws", False),
    ("https://testserver", "testserver", {}, "https", "ws", False),  # header not trusted
    ("https://portal.example-school.fr", "testserver", TRUSTED, None, "ws", True),
    ("http://portal.example-school.fr", "testserver", TRUSTED, None, "ws", False),
    ("https://portal.example-school.fr:9443", "testserver", TRUSTED, None, "ws", False),
    ("https://a.ent.example", "testserver", TRUSTED, None, "ws", True),
    ("https://ent.example.evil", "testserver", TRUSTED, None, "ws", False),
    ("null", "testserver", {}, None, "ws", False),
]


def _scope(origin: str, host: str, proto: str | None, scheme: str) -> dict[str, Any]:
    headers = [(b"host", host.encode()), (b"origin", origin.encode())]
    if proto is not None:
        headers.append((b"x-forwarded-proto", proto.encode()))
    return {"type": "websocket", "path": "/ws/table/1/", "scheme": scheme, "headers": headers}


def _post_passes(origin: str, host: str, proto: str | None, scheme: str) -> bool:
    extra: dict[str, Any] = {"HTTP_HOST": host, "HTTP_ORIGIN": origin, "HTTP_X_CSRFTOKEN": TOKEN}
    if proto is not None:
        extra["HTTP_X_FORWARDED_PROTO"] = proto
    request = RequestFactory().post("/tables/1/frames/", secure=scheme == "wss", **extra)
    request.COOKIES["csrftoken"] = TOKEN

    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponse()

    middleware = CsrfViewMiddleware(view)
    return middleware.process_view(request, view, (), {}) is None


@pytest.mark.parametrize(("origin", "host", "overrides", "proto", "scheme", "allowed"), CASES)
def test_a_links_origin_passes_exactly_when_a_posts_does(
    origin: str, host: str, overrides: dict[str, Any], proto: str | None, scheme: str, allowed: bool
) -> None:
    with override_settings(ALLOWED_HOSTS=["testserver"], **overrides):
        scope = _scope(origin, host, proto, scheme)
        assert origin_allowed(scope, missing_ok=False) is allowed
        assert _post_passes(origin, host, proto, scheme) is allowed


def test_a_missing_origin_passes_only_where_missing_is_allowed() -> None:
    scope = {"type": "http", "path": "/x/", "headers": [(b"host", b"testserver")]}
    assert origin_allowed(scope, missing_ok=True)
    assert not origin_allowed(scope, missing_ok=False)


def test_two_origins_are_refused() -> None:
    scope = _scope("http://testserver", "testserver", None, "ws")
    scope["headers"].append((b"origin", b"http://testserver"))
    assert not origin_allowed(scope, missing_ok=True)


@pytest.mark.django_db(transaction=True)
async def test_the_apps_socket_opens_only_with_the_sites_own_origin(
    pair: tuple[User, User],
) -> None:
    """Through the ASGI app: no Origin (a script, not a browser) or another port is refused."""
    table = await database_sync_to_async(make_table)(list(pair), setup=FRACTIONS_SETUP)
    cookie = await database_sync_to_async(session_cookie)(pair[0])
    opened = {}
    for origin in (None, b"http://testserver:9443", b"https://testserver", b"http://testserver"):
        headers = [(b"host", b"testserver"), (b"cookie", cookie)]
        if origin is not None:
            headers.append((b"origin", origin))
        comm = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=headers)
        connected, _code = await comm.connect(timeout=5)
        opened[origin] = connected
        if connected:
            await comm.disconnect()
    assert opened == {
        None: False,
        b"http://testserver:9443": False,
        b"https://testserver": False,
        b"http://testserver": True,
    }
