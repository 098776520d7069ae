"""Top-level URL configuration."""

from django.urls import include, path

from unoclass.health import healthz
from unoclass.network_check import views as network_check

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("network-check/", network_check.page, name="network_check"),
    path("network-check/echo/", network_check.echo, name="network_check_echo"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("lessons.urls")),
    path("", include("games.urls", namespace="games")),
]
