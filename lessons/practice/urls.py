"""URLs of assigned practice."""

from __future__ import annotations

from django.urls import path

from lessons.practice import views

urlpatterns = [
    path(
        "classrooms/<int:classroom_id>/practice/new/",
        views.assignment_new,
        name="practice_assignment_new",
    ),
    path(
        "classrooms/<int:classroom_id>/practice/<int:assignment_id>/",
        views.assignment_detail,
        name="practice_assignment",
    ),
    path(
        "classrooms/<int:classroom_id>/practice/<int:assignment_id>/delete/",
        views.assignment_delete,
        name="practice_assignment_delete",
    ),
    path("practice/<int:assignment_id>/play/", views.practice_play, name="practice_play"),
]
