"""Routes of the live overview: the socket, and the event stream (docs/protocol.md)."""

from __future__ import annotations

from channels.auth import AuthMiddlewareStack
from django.urls import path

from lessons.sessions.consumers import SessionOverviewConsumer, SessionOverviewStreamConsumer

websocket_urlpatterns = [
    path("ws/session/<int:session_id>/", SessionOverviewConsumer.as_asgi()),  # type: ignore[arg-type]
]

# Served by Channels before Django (unoclass/asgi.py); the POSTed frames are a view.
http_urlpatterns = [
    path(
        "sessions/<int:session_id>/stream/",
        AuthMiddlewareStack(SessionOverviewStreamConsumer.as_asgi()),  # type: ignore[arg-type]
    ),
]
