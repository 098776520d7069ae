"""URLs of a school's ENT connectors (its admin's side); the ENT sign-in's are in lessons.home."""

from __future__ import annotations

from django.urls import path

from lessons.ent import admin_views

urlpatterns = [
    path("school/ent/new/", admin_views.school_ent_new, name="school_ent_new"),
    path("school/ent/classes/", admin_views.school_ent_classes, name="school_ent_classes"),
    path(
        "school/ent/classes/give/",
        admin_views.school_ent_class_give,
        name="school_ent_class_give",
    ),
    path("school/ent/<int:connector_id>/", admin_views.school_ent_edit, name="school_ent_edit"),
    path(
        "school/ent/<int:connector_id>/enabled/",
        admin_views.school_ent_enabled,
        name="school_ent_enabled",
    ),
]
