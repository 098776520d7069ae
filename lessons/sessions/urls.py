"""URLs of class sessions: start, the live overview and its controls, the student's way in."""

from __future__ import annotations

from django.urls import path

from lessons.sessions import views

urlpatterns = [
    path("classrooms/<int:classroom_id>/sessions/new/", views.session_new, name="session_new"),
    path("sessions/<int:session_id>/", views.session_detail, name="session_overview"),
    path("sessions/<int:session_id>/pause/", views.session_pause, name="session_pause"),
    path("sessions/<int:session_id>/end/", views.session_end, name="session_end"),
    path("sessions/<int:session_id>/seat/", views.session_seat, name="session_seat"),
    path("sessions/<int:session_id>/move/", views.session_move, name="session_move"),
    path("sessions/<int:session_id>/play/", views.session_play, name="session_play"),
    path("sessions/<int:session_id>/join/", views.session_join, name="session_join"),
    # The overview's fallback frames (docs/protocol.md); the stream is a Channels route.
    path("sessions/<int:session_id>/frames/", views.session_frames, name="session_frames"),
]
