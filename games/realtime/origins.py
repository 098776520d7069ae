"""The Origin check of the sockets and streams: the same rule as Django's for POSTs.

A page may open a live link only from the site itself: the Origin's scheme, host and port
must be the request's own (`https` behind nginx when SECURE_PROXY_SSL_HEADER says so, the
`Host` the request came with, checked against ALLOWED_HOSTS), or one of CSRF_TRUSTED_ORIGINS.
Channels' AllowedHostsOriginValidator compared the host alone: `http://host` or
`https://host:9443` (another server on the same name) opened a pupil's socket with their
cookies, while the POSTs of the fallback refused them.

The comparison is Django's CSRF middleware's own (`CsrfViewMiddleware._origin_verified`, a
private method): one rule for every way in. tests/games/test_origins.py fails if it goes or
changes meaning.
"""

from __future__ import annotations

import io
from typing import Any

from channels.security.websocket import WebsocketDenier
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware

# A WebSocket's scheme is the page's one with `ws` for `http`.
HTTP_SCHEME = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def _never_called(request: HttpRequest) -> HttpResponse:
    raise AssertionError("the origin check never runs a view")


def _request(scope: dict[str, Any]) -> ASGIRequest:
    """Build Django's request for this scope (a socket's as the GET of its handshake)."""
    http_scope = {
        **scope,
        "type": "http",
        "method": "GET",
        "scheme": HTTP_SCHEME.get(str(scope.get("scheme") or "http"), "http"),
    }
    return ASGIRequest(http_scope, io.BytesIO())


def origin_allowed(scope: dict[str, Any], *, missing_ok: bool) -> bool:
    """Tell whether the scope's Origin is the site's own or a trusted one.

    `missing_ok`: a request without Origin passes (an EventSource on its own site sends none
    with its GET; a browser's WebSocket always sends one, so a socket passes False).
    """
    origins = [value for name, value in scope.get("headers", []) if name == b"origin"]
    if not origins:
        return missing_ok
    if len(origins) > 1:
        return False  # two Origins: no browser sends that
    middleware = CsrfViewMiddleware(_never_called)
    # Private (not in django-stubs): tests/games/test_origins.py fails if it goes or changes.
    return bool(middleware._origin_verified(_request(scope)))  # type: ignore[attr-defined]


class SameOriginValidator:
    """Refuse a WebSocket handshake whose Origin is not the site's own (see the module)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        """Pass an allowed handshake on; deny any other as Channels' validators do."""
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator checks WebSocket connections only")
        if origin_allowed(scope, missing_ok=False):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
