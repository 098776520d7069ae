"""The live page during play: the alerts and the tables first, alerts in words (issue 30 §2)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from lessons.sessions.services import session_seat_now
from tests.lessons.reporting.helpers import log_attempt
from tests.lessons.sessions.helpers import class_of, join_all, start
from tests.support.factories import make_teacher, teacher_client

pytestmark = pytest.mark.django_db


def test_the_tables_and_alerts_come_before_the_warm_up_and_speak_in_words() -> None:
    teacher = make_teacher()
    classroom, students = class_of(teacher, 2)
    session = start(teacher, classroom, warmup=True)
    join_all(session, students)
    session_seat_now(session=session, teacher=teacher)
    start_at = timezone.now() - timedelta(minutes=5)
    # Two wrong M1 claims in two turns: "M1 shows up again".
    for turn in (1, 2):
        at = start_at + timedelta(seconds=turn)
        log_attempt(students[0], (1, 2), (2, 3), session=session, at=at, turn=turn)
    client = teacher_client(teacher)
    client.cookies["django_language"] = "fr"
    html = client.get(reverse("session_overview", args=[session.pk])).content.decode()
    alerts, tables = html.index('id="alerts-title"'), html.index('id="tables-title"')
    assert alerts < tables < html.index('id="warmup-progress"')
    section = html[alerts:tables]
    assert "revient" in section
    for code in ("M1", "M2", "D1", "Cas particulier"):
        assert code not in section
