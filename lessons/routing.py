"""WebSocket routes of the lessons app (unoclass/asgi.py adds them to the games routes)."""

from __future__ import annotations

from django.urls import path

from lessons.consumers import SessionOverviewConsumer

websocket_urlpatterns = [
    path("ws/session/<int:session_id>/", SessionOverviewConsumer.as_asgi()),
]
