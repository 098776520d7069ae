"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import gc
import os
import sys
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "unoclass.settings")
# Django must be set up before the consumers (and their models) are imported.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import re_path  # noqa: E402

from games.realtime.origins import SameOriginValidator  # noqa: E402
from games.realtime.stream_guard import guarded_routes  # noqa: E402
from games.routing import http_urlpatterns as games_streams  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from lessons.routing import http_urlpatterns as lessons_streams  # noqa: E402
from lessons.routing import websocket_urlpatterns as lessons_websockets  # noqa: E402
from unoclass.network_check import routing as network_check  # noqa: E402

# The Django app as a route takes any path (re_path types views only: see games/routing.py).
django_route = re_path(r"", django_asgi_app)  # type: ignore[arg-type]
# The event streams (the fallback of the sockets: docs/protocol.md) are Channels consumers;
# every other address is Django's. The routes are path()s of ASGI apps, which django-stubs
# types as URLPatterns of views; types-channels wants its own pattern type.
http_routes: list[Any] = [*games_streams, *lessons_streams, *network_check.http_urlpatterns]
websocket_routes: list[Any] = [
    *websocket_urlpatterns,
    *lessons_websockets,
    *network_check.websocket_urlpatterns,
]


def build_application(
    websockets: list[Any], streams: list[Any], *, refuse_websockets: bool = False
) -> ProtocolTypeRouter:
    """Return the app serving these WebSocket routes and event streams, Django for the rest.

    `refuse_websockets` refuses every handshake, as a filtering proxy that does not forward
    `Upgrade` does (settings.REFUSE_WEBSOCKETS).
    """
    return ProtocolTypeRouter(
        {
            # The streams get the pages' Host check and headers (games/realtime/stream_guard.py).
            "http": URLRouter([*guarded_routes(streams), django_route]),  # type: ignore[list-item]
            "websocket": WebsocketDenier()
            if refuse_websockets
            # The Origin's scheme, host and port, as for a POST (games/realtime/origins.py).
            else SameOriginValidator(AuthMiddlewareStack(URLRouter(websockets))),
        }
    )


application = build_application(
    websocket_routes, http_routes, refuse_websockets=settings.REFUSE_WEBSOCKETS
)

# Under daphne (its server module is loaded before the app), accept per-message deflate:
# unoclass/ws_deflate.py. Elsewhere (tests, other servers) nothing is imported or changed.
if settings.WEBSOCKET_DEFLATE and "daphne.server" in sys.modules:
    from unoclass import ws_deflate

    ws_deflate.enable(sys.modules["daphne.server"])

# Everything loaded so far lives as long as the process: out of the collector's sight. A full
# collection scanned it all again and again: long pauses under load (docs/performance.md).
gc.freeze()
# Collect the young generation every GC_YOUNG_THRESHOLD allocations, not CPython's 700: a class
# dashboard builds thousands of short-lived rows, which reference counting frees when the page
# is done; collected every 700 they were promoted to the old generations on the way, which set
# off a full collection every few views (docs/performance-dashboards.md).
GC_YOUNG_THRESHOLD = 10_000
gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
