"""URLs of a class's pupils: the roster file import, one pupil's page (rename, move, remove)."""

from __future__ import annotations

from django.urls import path

from lessons.pupils import views

urlpatterns = [
    path(
        "classrooms/<int:classroom_id>/import/",
        views.classroom_import,
        name="classroom_import",
    ),
    path(
        "classrooms/<int:classroom_id>/import/confirm/",
        views.classroom_import_confirm,
        name="classroom_import_confirm",
    ),
    path("students/<int:student_id>/", views.student_manage, name="student_manage"),
    path(
        "students/<int:student_id>/rename/",
        views.student_rename_view,
        name="student_rename",
    ),
    path("students/<int:student_id>/move/", views.student_move_view, name="student_move"),
    path(
        "students/<int:student_id>/remove/",
        views.student_remove_view,
        name="student_remove",
    ),
]
