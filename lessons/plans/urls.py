"""URLs of group plans."""

from __future__ import annotations

from django.urls import path

from lessons.plans import views

urlpatterns = [
    path(
        "classrooms/<int:classroom_id>/plans/new/<str:rule>/",
        views.plan_new,
        name="plan_new",
    ),
    path(
        "classrooms/<int:classroom_id>/plans/<int:plan_id>/",
        views.plan_detail,
        name="plan_detail",
    ),
    path(
        "classrooms/<int:classroom_id>/plans/<int:plan_id>/edit/",
        views.plan_edit,
        name="plan_edit",
    ),
    path(
        "classrooms/<int:classroom_id>/plans/<int:plan_id>/done/",
        views.plan_done,
        name="plan_done",
    ),
    path(
        "classrooms/<int:classroom_id>/plans/<int:plan_id>/sheet.pdf",
        views.plan_pdf,
        name="plan_pdf",
    ),
    path(
        "classrooms/<int:classroom_id>/plans/<int:plan_id>/family/<int:student_id>/",
        views.family_note_page,
        name="family_note",
    ),
    path(
        "classrooms/<int:classroom_id>/plans/<int:plan_id>/family/<int:student_id>/note.pdf",
        views.family_note_pdf,
        name="family_note_pdf",
    ),
    path(
        "classrooms/<int:classroom_id>/plans/<int:plan_id>/family.pdf",
        views.family_notes_pdf,
        name="family_notes_pdf",
    ),
    path("plans/<int:plan_id>/recheck/", views.plan_recheck, name="plan_recheck"),
]
