"""The client's address behind the school's proxy, taken only from the proxy's own hop.

A client can send its own `X-Forwarded-For`; nginx then appends (or, as docs/deploy.md sets
it, replaces it with) the address it saw. So the header is read only when the request comes
from a trusted proxy: daphne's unix socket (only nginx can reach it), or an address listed in
TRUSTED_PROXIES. The client is then the right-most address that is not itself a trusted
proxy; the left-most ones are whatever the client wrote. Anything else keeps the direct peer.

Run daphne WITHOUT `--proxy-headers`: daphne would take the left-most address itself.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

UNIX_SOCKET_PEER = ""  # daphne gives no REMOTE_ADDR for a unix socket's peer


def _trusted(address: str) -> bool:
    if address == UNIX_SOCKET_PEER:
        return True
    return address in getattr(settings, "TRUSTED_PROXIES", ())


def client_address(meta: dict[str, object]) -> str:
    """Return the client's address from a request's META (see the module's rules)."""
    peer = str(meta.get("REMOTE_ADDR") or "")
    if _trusted(peer):
        forwarded = str(meta.get("HTTP_X_FORWARDED_FOR") or "")
        for hop in reversed([h.strip() for h in forwarded.split(",") if h.strip()]):
            if not _trusted(hop):
                return hop
    return peer or "unknown"


class TrustedProxyMiddleware:
    """Set REMOTE_ADDR to the client's address (every per-address limit reads REMOTE_ADDR)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Replace REMOTE_ADDR, keeping the direct peer in PROXY_PEER_ADDR, then go on."""
        request.META["PROXY_PEER_ADDR"] = request.META.get("REMOTE_ADDR", "")
        request.META["REMOTE_ADDR"] = client_address(request.META)
        return self.get_response(request)
