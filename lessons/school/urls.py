"""URLs of a pupil's data (export, erasure) and of the school admin's pages."""

from __future__ import annotations

from django.urls import path

from lessons.school import student_views

urlpatterns = [
    path(
        "students/<int:student_id>/export.<str:fmt>",
        student_views.student_export,
        name="student_export",
    ),
    path(
        "students/<int:student_id>/erase/",
        student_views.student_erase_view,
        name="student_erase",
    ),
]
