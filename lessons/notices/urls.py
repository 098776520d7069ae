"""URLs of the public notices (linked from every page's footer)."""

from __future__ import annotations

from django.urls import path

from lessons.notices import views

urlpatterns = [
    path("privacy/", views.privacy, name="privacy"),
    path("privacy/pupils/", views.privacy_pupils, name="privacy_pupils"),
    path("privacy/record/", views.processing_record, name="processing_record"),
    path("privacy/data-flow/", views.data_flow, name="data_flow"),
    path("accessibility/", views.accessibility, name="accessibility"),
]
