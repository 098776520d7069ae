from __future__ import annotations

import gc

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LessonsConfig(AppConfig):
    name = "lessons"
    verbose_name = _("Classrooms")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Plug the lessons rules (names, watchers, attempt log) into the games app.

        Then move every object alive once the apps are loaded (modules, classes, functions:
        they live as long as the process) out of the garbage collector's sight: a class
        dashboard builds thousands of rows, which sets off a full collection every few views,
        and a full collection that scans only what requests made is several times shorter
        (docs/performance-dashboards.md). Nothing is lost: those objects are never garbage.
        """
        from lessons.attempts import hooks

        hooks.register()
        gc.freeze()
