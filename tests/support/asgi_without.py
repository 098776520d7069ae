"""The real app with the network check's event stream taken away, for daphne in the tests.

`daphne tests.support.asgi_without:no_link`: every WebSocket handshake refused (as with
REFUSE_WEBSOCKETS=1: a filtering proxy without `Upgrade`) and the check's stream answered 404
by Django, for real. The network check page must then say that nothing works
(tests/e2e/browser/test_network_check.py); no script of the page is changed.
"""

from __future__ import annotations

from unoclass.asgi import build_application, http_routes, websocket_routes

STREAM_ROUTE = "network-check/stream/"

_streams = [entry for entry in http_routes if str(entry.pattern) != STREAM_ROUTE]
assert len(_streams) == len(http_routes) - 1, f"no route {STREAM_ROUTE} to take away"
no_link = build_application(websocket_routes, _streams, refuse_websockets=True)
