"""URLs of the ENT sign-in (CAS): the callback is the fixed service URL the ENT registers."""

from __future__ import annotations

from django.urls import path

from lessons.ent import admin_views, views

urlpatterns = [
    path("ent/<int:connector_id>/login/", views.ent_login, name="ent_login"),
    path("ent/<int:connector_id>/callback/", views.ent_callback, name="ent_callback"),
    path("ent/<int:connector_id>/logout/", views.ent_logout, name="ent_logout"),
    path("ent/link/", views.ent_link, name="ent_link"),
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
