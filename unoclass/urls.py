"""Top-level URL configuration."""

from django.urls import include, path

from unoclass.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("lessons.urls")),
    path("", include("games.urls", namespace="games")),
]
