"""URLs of the public notices (linked from every page's footer)."""

from __future__ import annotations

from django.urls import path

from lessons.notices import views

urlpatterns = [
    path("privacy/", views.privacy, name="privacy"),
    path("accessibility/", views.accessibility, name="accessibility"),
]
