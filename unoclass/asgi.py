"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "unoclass.settings")
# Django must be set up before the consumers (and their models) are imported.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import (  # noqa: E402
    AllowedHostsOriginValidator,
    WebsocketDenier,
)
from django.conf import settings  # noqa: E402
from django.urls import re_path  # noqa: E402

from games.routing import http_urlpatterns as games_streams  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from lessons.routing import http_urlpatterns as lessons_streams  # noqa: E402
from lessons.routing import websocket_urlpatterns as lessons_websockets  # noqa: E402

# The Django app as a route takes any path (re_path types views only: see games/routing.py).
django_route = re_path(r"", django_asgi_app)  # type: ignore[arg-type]
http_routes = [*games_streams, *lessons_streams, django_route]
application = ProtocolTypeRouter(
    {
        # The event streams (the fallback of the sockets: docs/protocol.md) are Channels
        # consumers with the sockets' session and user; every other address is Django's.
        "http": URLRouter(http_routes),  # type: ignore[arg-type]
        "websocket": WebsocketDenier()
        if settings.REFUSE_WEBSOCKETS
        else AllowedHostsOriginValidator(
            # The routes are path()s of ASGI apps, which django-stubs types as URLPatterns of
            # views; types-channels wants its own pattern type (see games/routing.py).
            AuthMiddlewareStack(
                URLRouter(websocket_urlpatterns + lessons_websockets)  # type: ignore[arg-type]
            )
        ),
    }
)

# Everything loaded so far lives as long as the process: out of the collector's sight. A full
# collection scanned it all again and again: long pauses under load (docs/performance.md).
gc.freeze()
# Collect the young generation every GC_YOUNG_THRESHOLD allocations, not CPython's 700: a class
# dashboard builds thousands of short-lived rows, which reference counting frees when the page
# is done; collected every 700 they were promoted to the old generations on the way, which set
# off a full collection every few views (docs/performance-dashboards.md).
GC_YOUNG_THRESHOLD = 10_000
gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
