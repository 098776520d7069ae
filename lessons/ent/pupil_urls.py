"""URLs of a class's ENT matching screen (the pupils' side of the ENT sign-in)."""

from __future__ import annotations

from django.urls import path

from lessons.ent import matching_views

urlpatterns = [
    path(
        "classrooms/<int:classroom_id>/ent/",
        matching_views.ent_matching,
        name="ent_matching",
    ),
    path(
        "classrooms/<int:classroom_id>/ent/link/",
        matching_views.ent_matching_link,
        name="ent_matching_link",
    ),
    path(
        "classrooms/<int:classroom_id>/ent/unlink/",
        matching_views.ent_matching_unlink,
        name="ent_matching_unlink",
    ),
    path(
        "classrooms/<int:classroom_id>/ent/classes/",
        matching_views.ent_matching_classes,
        name="ent_matching_classes",
    ),
]
