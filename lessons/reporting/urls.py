"""URLs of dashboards, progress reports, exports and the "How we diagnose" page."""

from __future__ import annotations

from django.urls import path

from lessons.reporting import pdf_views, views

urlpatterns = [
    path(
        "classrooms/<int:classroom_id>/dashboard/",
        views.dashboard_class,
        name="dashboard_class",
    ),
    path(
        "classrooms/<int:classroom_id>/dashboard/students/<int:student_id>/",
        views.dashboard_student,
        name="dashboard_student",
    ),
    path(
        "classrooms/<int:classroom_id>/dashboard/sessions/<int:session_id>/",
        views.dashboard_session,
        name="dashboard_session",
    ),
    path(
        "classrooms/<int:classroom_id>/reports/<int:student_id>/",
        views.report_student,
        name="report_student",
    ),
    path("me/report/", views.report_me, name="report_me"),
    path(
        "classrooms/<int:classroom_id>/reports/<int:student_id>/pdf/",
        pdf_views.report_student_pdf,
        name="report_student_pdf",
    ),
    path("me/report/pdf/", pdf_views.report_me_pdf, name="report_me_pdf"),
    path(
        "classrooms/<int:classroom_id>/reports/pdf/",
        pdf_views.report_class_pdf,
        name="report_class_pdf",
    ),
    path(
        "classrooms/<int:classroom_id>/export/attempts.csv",
        views.export_attempts,
        name="export_attempts",
    ),
    path(
        "classrooms/<int:classroom_id>/export/students.csv",
        views.export_students,
        name="export_students",
    ),
    path("reports/data-dictionary/", views.export_dictionary, name="export_dictionary"),
    path("diagnosis/", views.diagnosis, name="diagnosis"),
]
