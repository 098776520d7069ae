from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LessonsConfig(AppConfig):
    name = "lessons"
    verbose_name = _("Classrooms")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Plug the lessons rules (names, watchers, attempt log) into the games app."""
        from games import driver
        from lessons.attempts import hooks
        from lessons.ent import checks  # noqa: F401 (registers the ENT's system check)
        from lessons.sessions.services import session_step

        hooks.register()
        # A class session's seating deadlines are server steps (games.driver).
        driver.register_runner(hooks.SESSION_STEP, session_step)
