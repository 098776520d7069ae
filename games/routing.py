"""Routes of the table's live links: the socket, and the event stream (docs/protocol.md)."""

from __future__ import annotations

from channels.auth import AuthMiddlewareStack
from django.urls import path

from games.consumers import TableConsumer, TableStreamConsumer

websocket_urlpatterns = [
    # Channels routes ASGI apps through Django's path(); django-stubs types path() for views
    # only (typeddjango/django-stubs#3354 was closed unmerged).
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
]

# Served by Channels before Django (unoclass/asgi.py), with the socket's session and user: a
# stream outlives any view. The POSTed frames are an ordinary view (games.urls, `frames`).
http_urlpatterns = [
    path(
        "tables/<int:table_id>/stream/",
        AuthMiddlewareStack(TableStreamConsumer.as_asgi()),  # type: ignore[arg-type]
    ),
]
