"""WebSocket routes."""

from __future__ import annotations

from django.urls import path

from games.consumers import TableConsumer

websocket_urlpatterns = [
    # Channels routes ASGI apps through Django's path(); django-stubs types path() for views
    # only (typeddjango/django-stubs#3354 was closed unmerged).
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
]
