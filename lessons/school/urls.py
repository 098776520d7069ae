"""URLs of a class's years, a pupil's data, the school admin's pages (its ENT connectors too)."""

from __future__ import annotations

from django.urls import path

from lessons.school import admin_views, ent_admin_views, student_views, year_views

urlpatterns = [
    path("classrooms/archived/", year_views.classrooms_archived, name="classrooms_archived"),
    path(
        "classrooms/<int:classroom_id>/archive/",
        year_views.classroom_archive_view,
        name="classroom_archive",
    ),
    path(
        "classrooms/<int:classroom_id>/new-year/",
        year_views.classroom_new_year_view,
        name="classroom_new_year",
    ),
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

urlpatterns += [
    path("school/", admin_views.school_admin, name="school_admin"),
    path(
        "school/teachers/<int:teacher_id>/active/",
        admin_views.school_teacher_active,
        name="school_teacher_active",
    ),
    path("school/invitations/", admin_views.school_invite, name="school_invite"),
    path("school/policy/", admin_views.school_policy_set, name="school_policy"),
    path("school/ent/new/", ent_admin_views.school_ent_new, name="school_ent_new"),
    path("school/ent/classes/", ent_admin_views.school_ent_classes, name="school_ent_classes"),
    path(
        "school/ent/classes/give/",
        ent_admin_views.school_ent_class_give,
        name="school_ent_class_give",
    ),
    path("school/ent/<int:connector_id>/", ent_admin_views.school_ent_edit, name="school_ent_edit"),
    path(
        "school/ent/<int:connector_id>/enabled/",
        ent_admin_views.school_ent_enabled,
        name="school_ent_enabled",
    ),
]
