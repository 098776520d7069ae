"""URLs of the warm-up round: the student's page and its POSTs, the teacher's re-check."""

from __future__ import annotations

from django.urls import path

from lessons.warmup import views

urlpatterns = [
    path("warmup/<int:warmup_id>/", views.warmup_page, name="warmup_page"),
    path("warmup/<int:warmup_id>/answer/", views.warmup_answer, name="warmup_answer"),
    path("warmup/<int:warmup_id>/reason/", views.warmup_reason, name="warmup_reason"),
    path("warmup/<int:warmup_id>/begin/", views.warmup_begin, name="warmup_begin"),
    path(
        "classrooms/<int:classroom_id>/warmup/",
        views.warmup_recheck,
        name="warmup_recheck",
    ),
]
