"""URLs of the lessons app."""

from __future__ import annotations

from django.urls import path

from lessons import views

urlpatterns = [
    path("", views.home, name="home"),
]
