"""WebSocket routes."""

from __future__ import annotations

from django.urls import path

from games.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
]
