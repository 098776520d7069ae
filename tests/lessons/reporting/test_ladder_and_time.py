"""The skill ladder shows the current state as current and a lost one as past; play time counts
time at a table while playing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from lessons.models import ClassSession
from lessons.reporting.session_report import session_report
from lessons.reporting.student_report import student_report
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import log_attempt

pytestmark = pytest.mark.django_db


def _session(world: ClassWorld, days_ago: float) -> ClassSession:
    start = timezone.now() - timedelta(days=days_ago)
    return ClassSession.objects.create(
        classroom=world.classroom, started_at=start, status=ClassSession.Status.ENDED
    )


def _mastered_then_missed(world: ClassWorld) -> None:
    """S2 right 10 times in two sessions on two days (Mastered), then 2 misses (Familiar)."""
    student = world.student.student
    for days_ago in (5, 3):
        session = _session(world, days_ago)
        start = session.started_at
        for index in range(10):
            at = start + timedelta(seconds=30 * index)
            log_attempt(student, (1, 2), (3, 6), session=session, at=at)
    last = _session(world, 1)
    for index in range(2):
        at = last.started_at + timedelta(seconds=30 * index)
        log_attempt(student, (1, 2), (2, 3), session=last, at=at)


STEPS = ("attempted", "familiar", "proficient", "mastered")


def _step(html: str, state: str) -> str:
    """Return the S2 ladder step of `state` (steps come in STEPS order)."""
    start = html.index('<span class="rule-id">S2</span>')
    steps = html[start : html.index("</ol>", start)]
    items = re.findall(r"<li class=\"step[^>]*>.*?</li>", steps, re.S)
    assert len(items) == len(STEPS)
    item: str = items[STEPS.index(state)]
    return item


def test_the_ladder_shows_a_lost_state_as_past_on_both_pages(class_a: ClassWorld) -> None:
    _mastered_then_missed(class_a)
    report = student_report(class_a.student.student, lang="en")
    progress = next(step.progress for step in report.ladder if step.skill.id == "S2")
    assert progress.state == "familiar" and "mastered" in progress.reached
    client = Client()
    client.force_login(class_a.teacher)
    student = class_a.student.student
    for url in (
        reverse("dashboard_student", args=[class_a.classroom.pk, student.pk]),
        reverse("report_student", args=[class_a.classroom.pk, student.pk]),
    ):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        current = _step(html, "familiar")
        assert 'aria-current="step"' in current and "step--current" in current
        for lost in ("mastered", "proficient"):
            past = _step(html, lost)
            assert "step--past" in past and "step--done" not in past and "✓" not in past
            assert re.search(r"reached .+, not now|atteint le .+, plus maintenant", past), past
        assert "✓" in _step(html, "attempted") and "aria-current" not in _step(html, "attempted")


def test_play_time_counts_each_table_from_first_to_last_play(class_a: ClassWorld) -> None:
    from games.models import Table
    from tests.games.helpers import make_table

    student = class_a.student.student
    session = _session(class_a, 1)
    tables = [make_table([class_a.student.user, None]) for _ in range(2)]
    start = session.started_at
    # Game 1: 1 minute of play; 10 minutes elsewhere; game 2: 5 minutes of play.
    plays = [(tables[0], 0), (tables[0], 60), (tables[1], 11 * 60), (tables[1], 16 * 60)]
    for turn, (table, seconds) in enumerate(plays):
        at = start + timedelta(seconds=seconds)
        log_attempt(student, (1, 2), (3, 6), session=session, at=at, table=table, turn=turn)
    assert Table.objects.count() == 2
    report = student_report(student, lang="en")
    # Each game: first to last play plus the minute of thinking before the first play.
    assert report.minutes_played == pytest.approx(2 + 6)
    (line,) = [ln for ln in session_report(session).lines if ln.claims]
    assert line.minutes == pytest.approx(8)
