"""The real app with some of the network check's routes taken away, for daphne in the tests.

A route that is not there is refused for real: daphne answers a WebSocket handshake for an
unknown path by closing it (the browser sees 1006), and Django answers an unknown stream
path with 404. The network check page must then say so (tests/e2e/browser/
test_network_check.py); no script of the page is changed.
"""

from __future__ import annotations

from typing import Any

from unoclass.asgi import build_application, http_routes, websocket_routes

SOCKET_ROUTE = "ws/network-check/"
STREAM_ROUTE = "network-check/stream/"


def _without(routes: list[Any], route: str) -> list[Any]:
    kept = [entry for entry in routes if str(entry.pattern) != route]
    assert len(kept) == len(routes) - 1, f"no route {route} to take away"
    return kept


# `daphne tests.support.asgi_without:no_socket`: the fallback only.
no_socket = build_application(_without(websocket_routes, SOCKET_ROUTE), http_routes)
# `daphne tests.support.asgi_without:no_link`: neither link.
no_link = build_application(
    _without(websocket_routes, SOCKET_ROUTE), _without(http_routes, STREAM_ROUTE)
)
