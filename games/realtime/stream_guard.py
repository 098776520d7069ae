"""Give the event streams (Channels consumers, served before Django's middleware) the pages'
Host check and security headers.

A page's request goes through Django: ALLOWED_HOSTS refuses another `Host`, and
SecurityMiddleware / XFrameOptionsMiddleware / the CSP middleware add HSTS (over https),
X-Frame-Options, Referrer-Policy, nosniff and the policy. A stream is routed before Django, so
each stream route is wrapped here to do the same: a `Host` not allowed gets 400 and nothing
else; every answer carries the same headers as a page's (a stream has no HTML: its policy
allows nothing).
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from django.conf import settings
from django.http.request import split_domain_port, validate_host

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

# A stream is data, never a document: nothing may load from or frame it.
STREAM_POLICY = b"default-src 'none'; frame-ancestors 'none'"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if bytes(key).lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _allowed_hosts() -> list[str]:
    # Django's own rule (HttpRequest.get_host): with DEBUG and no ALLOWED_HOSTS, local names.
    allowed = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    return allowed


def host_allowed(scope: Scope) -> bool:
    """Tell whether the request's Host (else the server's name) is one ALLOWED_HOSTS allows."""
    host = _header(scope, b"host")
    if host is None:
        server = scope.get("server") or ("", None)
        host = str(server[0] or "")
    domain, _port = split_domain_port(host)
    return bool(domain) and validate_host(domain, _allowed_hosts())


def _is_secure(scope: Scope) -> bool:
    if scope.get("scheme") == "https":
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        meta_name, expected = proxy
        name = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode()
        value = _header(scope, name)
        return value is not None and value.split(",", 1)[0].strip() == expected
    return False


def security_headers(scope: Scope) -> list[tuple[bytes, bytes]]:
    """Return the headers a page of this request would carry (settings decide each)."""
    headers = [
        (b"x-frame-options", str(settings.X_FRAME_OPTIONS).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"content-security-policy", STREAM_POLICY),
    ]
    if settings.SECURE_REFERRER_POLICY:
        headers.append((b"referrer-policy", str(settings.SECURE_REFERRER_POLICY).encode()))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        policy = str(settings.SECURE_CROSS_ORIGIN_OPENER_POLICY).encode()
        headers.append((b"cross-origin-opener-policy", policy))
    if settings.SECURE_HSTS_SECONDS and _is_secure(scope):
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        headers.append((b"strict-transport-security", hsts.encode()))
    return headers


def guard(app: App) -> App:
    """Wrap one stream's ASGI app: refuse a Host not allowed, add the pages' headers."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await app(scope, receive, send)
            return
        if not host_allowed(scope):
            await send(
                {
                    "type": "http.response.start",
                    "status": 400,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8")],
                }
            )
            await send({"type": "http.response.body", "body": b"Bad Request"})
            return
        extra = security_headers(scope)

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message.get("type") == "http.response.start":
                headers = list(message.get("headers", []))
                present = {bytes(name).lower() for name, _value in headers}
                headers += [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await app(scope, receive, send_with_headers)

    return guarded


def guarded_routes(routes: Iterable[Any]) -> list[Any]:
    """Return copies of these stream routes (path()s of ASGI apps) with their apps guarded."""
    wrapped = []
    for route in routes:
        copied = copy.copy(route)
        copied.callback = guard(route.callback)
        wrapped.append(copied)
    return wrapped
