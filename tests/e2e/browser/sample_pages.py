"""The accessibility statement's sample of pages, built for a browser walk (who sees which)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from lessons.sessions.services import session_join, session_seat_now, session_start
from tests.conftest import ClassWorld
from tests.lessons.sessions.helpers import class_of


def sample_pages(class_a: ClassWorld) -> dict[Any, list[str]]:
    """Build a seated class session and a warm-up; map each viewer to the sampled pages.

    The statement's sample (lessons/notices/rgaa.toml, [[sample]]): home, sign-in, pupil home, play
    table, warm-up, class dashboard, live session page, privacy (and the statement itself).
    Call it outside the event loop (tests.e2e.browser.conftest.outside_the_event_loop).
    """
    teacher = class_a.teacher
    classroom, students = class_of(teacher, 2)
    session = session_start(teacher=teacher, classroom=classroom)
    for student in students:
        session_join(session=session, student=student)
    session_seat_now(session=session, teacher=teacher)
    warm_class, (warm_pupil,) = class_of(teacher, 1)
    warm_session = session_start(teacher=teacher, classroom=warm_class, warmup=True)
    session_join(session=warm_session, student=warm_pupil)
    return {
        None: [
            reverse("home"),
            reverse("login"),
            reverse("join"),
            reverse("privacy"),
            reverse("accessibility"),
        ],
        students[0].user: [reverse("home"), reverse("session_play", args=[session.pk])],
        warm_pupil.user: [reverse("session_play", args=[warm_session.pk])],
        teacher: [
            reverse("dashboard_class", args=[classroom.pk]),
            reverse("session_overview", args=[session.pk]),
        ],
    }
