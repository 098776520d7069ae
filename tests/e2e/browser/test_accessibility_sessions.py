"""axe-core in Debian's chromium finds no serious problem on the class-session pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from lessons.sessions.services import session_join, session_seat_now
from tests.e2e.browser.conftest import accessibility_problems, outside_the_event_loop
from tests.lessons.sessions.helpers import class_of, start

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def world(transactional_db: None, class_a: Any) -> dict[str, Any]:
    """Four students seated, a fifth waiting."""

    def build() -> dict[str, Any]:
        classroom, students = class_of(class_a.teacher, 5)
        session = start(class_a.teacher, classroom)
        for student in students[:4]:
            session_join(session=session, student=student)
        session_seat_now(session=session, teacher=class_a.teacher)
        session_join(session=session, student=students[4])
        return {"classroom": classroom, "students": students, "session": session}

    # The services broadcast with async_to_sync, which refuses to run in this thread while the
    # package's Playwright loop lives in it: build the world in a worker thread.
    return outside_the_event_loop(build)


@pytest.mark.django_db(transaction=True)
def test_session_pages_have_no_serious_accessibility_violation(
    world: dict[str, Any],
    browser: Any,
    live_server: Any,
    class_a: Any,
) -> None:
    classroom, students, session = world["classroom"], world["students"], world["session"]
    pages = {
        class_a.teacher: [
            reverse("session_new", args=[class_a.classroom.pk]),
            reverse("session_new", args=[classroom.pk]),
            reverse("session_overview", args=[session.pk]),
            reverse("diagnosis"),
        ],
        students[4].user: [reverse("home"), reverse("session_play", args=[session.pk])],
    }
    assert accessibility_problems(browser, live_server, pages) == {}
