"""The network check's two long-lived links (unoclass/asgi.py routes them)."""

from __future__ import annotations

from django.urls import path

from unoclass.network_check.consumers import CheckSocket, CheckStream

# Channels routes ASGI apps through Django's path() (see games/routing.py for the ignore).
websocket_urlpatterns = [
    path("ws/network-check/", CheckSocket.as_asgi()),  # type: ignore[arg-type]
]
http_urlpatterns = [
    path("network-check/stream/", CheckStream.as_asgi()),  # type: ignore[arg-type]
]
