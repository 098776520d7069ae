"""The class dashboard reads plays as the diagnosis does: the first claim of each turn."""

from __future__ import annotations

import gc
from datetime import timedelta

import pytest
from django.utils import timezone

from lessons.models import ClassSession
from lessons.reporting.class_report import WRONG_RUN_ALERT, class_dashboard
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import log_attempt

pytestmark = pytest.mark.django_db


def _wrong_claims(world: ClassWorld, turns: list[int]) -> None:
    """Log one wrong M1 claim per entry, each in the turn given."""
    student = world.student.student
    session = ClassSession.objects.create(
        classroom=world.classroom,
        started_at=timezone.now() - timedelta(hours=1),
        status=ClassSession.Status.ENDED,
    )
    start = session.started_at
    for index, turn in enumerate(turns):
        at = start + timedelta(seconds=20 * index)
        log_attempt(student, (1, 2), (2, 3), session=session, at=at, turn=turn)


def test_a_card_retried_in_one_turn_is_not_a_run_of_wrong_claims(class_a: ClassWorld) -> None:
    _wrong_claims(class_a, [1] * WRONG_RUN_ALERT)
    dash = class_dashboard(class_a.classroom)
    line = next(ln for ln in dash.lines if ln.student == class_a.student.student)
    assert line.wrong_run == 1
    assert [a.kind for a in dash.alerts] == []


def test_wrong_first_claims_of_separate_turns_are_a_run(class_a: ClassWorld) -> None:
    _wrong_claims(class_a, list(range(WRONG_RUN_ALERT)))
    dash = class_dashboard(class_a.classroom)
    assert [a.kind for a in dash.alerts] == ["wrong_run"]


def test_the_served_app_tunes_the_collector_for_pages_of_short_lived_rows() -> None:
    # unoclass.asgi (what daphne and bench/dashboards.py load) freezes what start-up loaded and
    # collects the young generation less often (docs/performance-dashboards.md).
    from unoclass import asgi

    assert gc.get_freeze_count() > 0
    assert gc.get_threshold()[0] == asgi.GC_YOUNG_THRESHOLD > 700
