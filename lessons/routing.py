"""Live routes of the lessons app (unoclass/asgi.py adds them to the games routes)."""

from __future__ import annotations

from lessons.sessions.routing import http_urlpatterns as session_streams
from lessons.sessions.routing import websocket_urlpatterns as session_websockets

websocket_urlpatterns = list(session_websockets)
http_urlpatterns = list(session_streams)
