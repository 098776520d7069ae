"""WebSocket routes of class sessions."""

from __future__ import annotations

from django.urls import path

from lessons.sessions.consumers import SessionOverviewConsumer

websocket_urlpatterns = [
    path("ws/session/<int:session_id>/", SessionOverviewConsumer.as_asgi()),  # type: ignore[arg-type]
]
