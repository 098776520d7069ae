"""Top-level URL configuration."""

from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("lessons.urls")),
    path("", include("games.urls", namespace="games")),
]
