from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LessonsConfig(AppConfig):
    name = "lessons"
    verbose_name = _("Classrooms")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Plug the lessons rules (names, watchers, attempt log) into the games app."""
        from lessons.attempts import hooks
        from lessons.ent import checks  # noqa: F401 (registers the ENT's system check)

        hooks.register()
