"""URLs of classrooms: classes and rosters, their years, sharing and school files."""

from __future__ import annotations

from django.urls import path

from lessons.classrooms import (
    school_file_views,
    sharing_views,
    views,
)

urlpatterns = [
    path("classrooms/new/", views.classroom_create, name="classroom_create"),
    path(
        "classrooms/<int:classroom_id>/co-teachers/add/",
        sharing_views.co_teacher_add_view,
        name="co_teacher_add",
    ),
    path(
        "classrooms/<int:classroom_id>/co-teachers/remove/",
        sharing_views.co_teacher_remove_view,
        name="co_teacher_remove",
    ),
    path(
        "classrooms/<int:classroom_id>/transfer/",
        sharing_views.classroom_transfer_view,
        name="classroom_transfer",
    ),
    path("classrooms/<int:classroom_id>/roster/", views.classroom_roster, name="classroom_roster"),
    path("classrooms/<int:classroom_id>/cards/", views.classroom_cards, name="classroom_cards"),
    path(
        "classrooms/<int:classroom_id>/import/classes/",
        school_file_views.classroom_import_classes,
        name="classroom_import_classes",
    ),
    path("students/<int:student_id>/reset-pin/", views.student_reset_pin, name="student_reset_pin"),
    path("students/<int:student_id>/unlock/", views.student_unlock, name="student_unlock"),
]
