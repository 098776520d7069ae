"""A bare Channels broadcast app for the load benchmark (bench-only, served by daphne).

One route, /room/<name>/: each message a socket sends is `group_send` to its room and every
member forwards it to its socket. No database, no sessions, no rules: the cost of daphne and
the channel layer alone, measured against the real table socket. The layer comes from the
environment as in unoclass/settings.py: REDIS_URL (+ CHANNEL_LAYER=core|pubsub), else Channels'
in-memory layer (or the app's own one-process layer with BARE_LAYER=process).
"""

from __future__ import annotations

import os
from typing import Any

import django
from django.conf import settings


def _layers() -> dict[str, Any]:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        # Channels' own in-memory layer, the baseline issue 14 measured against; BARE_LAYER=process
        # serves the app's one-process layer (games/realtime/process_layer.py), for comparison.
        if os.environ.get("BARE_LAYER") == "process":
            return {"default": {"BACKEND": "games.realtime.process_layer.ProcessChannelLayer"}}
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    if os.environ.get("CHANNEL_LAYER", "pubsub") == "core":
        backend, config = "channels_redis.core.RedisChannelLayer", {"capacity": 2000}
    else:
        backend, config = "channels_redis.pubsub.RedisPubSubChannelLayer", {}
    return {"default": {"BACKEND": backend, "CONFIG": {"hosts": [url], **config}}}


if not settings.configured:
    settings.configure(
        INSTALLED_APPS=["channels"], CHANNEL_LAYERS=_layers(), ALLOWED_HOSTS=["*"], DEBUG=False
    )
    django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class RoomConsumer(AsyncWebsocketConsumer):
    """Relay each message to every socket of the room."""

    room: str

    async def connect(self) -> None:
        """Join the room's group."""
        self.room = f"room_{self.scope['url_route']['kwargs']['name']}"
        await self.channel_layer.group_add(self.room, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        """Leave the room's group."""
        await self.channel_layer.group_discard(self.room, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Broadcast the message to the room."""
        await self.channel_layer.group_send(self.room, {"type": "relay", "text": text_data})

    async def relay(self, message: dict[str, Any]) -> None:
        """Forward a room message to this socket."""
        await self.send(text_data=message["text"])


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("room/<str:name>/", RoomConsumer.as_asgi())])}
)
