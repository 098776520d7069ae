"""URLs of the games app."""

from __future__ import annotations

from django.urls import path

from games import replay, views

app_name = "games"
urlpatterns = [
    path("practice/", views.practice, name="practice"),
    path("tables/<int:table_id>/", views.play, name="play"),
    path("tables/<int:table_id>/pause/", views.pause, name="pause"),
    path("tables/<int:table_id>/again/", replay.replay, name="replay"),
    # The fallback's client frames (docs/protocol.md); the stream is a Channels route.
    path("tables/<int:table_id>/frames/", views.frames, name="frames"),
    path("tables/<int:table_id>/seats/<int:seat_index>/bot/", views.seat_bot, name="seat_bot"),
]
