"""Every page counts the same games the same way (issue 31 §6, lessons.evidence.evidence).

One turn is one claim (its first try); every card put down is a try; "right" is a claim right
at the first try; every page reads the class's evidence window.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from lessons.diagnosis import SKILL_IDS
from lessons.evidence.loading import WINDOW_DAYS
from lessons.models import ClassSession, SessionMember
from lessons.reporting.class_report import class_dashboard
from lessons.reporting.session_report import session_report
from lessons.reporting.student_report import student_report
from lessons.sessions.overview import session_overview
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import log_attempt

pytestmark = pytest.mark.django_db


def _session(world: ClassWorld) -> ClassSession:
    session = ClassSession.objects.create(
        classroom=world.classroom, started_at=timezone.now() - timedelta(minutes=30)
    )
    SessionMember.objects.create(session=session, student=world.student.student)
    return session


def _counts(world: ClassWorld, session: ClassSession) -> dict[str, tuple[int, int]]:
    """Return (right claims, claims) as each page shows them for the class's first pupil."""
    pupil = world.student.student
    live = next(s for s in session_overview(session=session).students if s.student_id == pupil.pk)
    lesson = next(ln for ln in session_report(session).lines if ln.student == pupil)
    dash = class_dashboard(world.classroom)
    line = next(ln for ln in dash.lines if ln.student == pupil)
    report = student_report(pupil, lang="fr")
    (point,) = dash.sessions
    return {
        "overview": (live.attempts - live.errors, live.attempts),
        "session": (lesson.correct, lesson.claims),
        "class": (line.correct, line.claims),
        "class tiles": (round((dash.tiles.accuracy or 0) * dash.tiles.claims), dash.tiles.claims),
        "class trend": (point.correct, point.claims),
        "pupil": (report.correct, report.claims),
        "pupil's sessions": (report.sessions[0].correct, report.sessions[0].claims),
    }


def _turn(
    world: ClassWorld, session: ClassSession, turn: int, cards: list[tuple[int, int]]
) -> None:
    start = timezone.now() - timedelta(minutes=10 - turn)
    for index, card in enumerate(cards):
        log_attempt(
            world.student.student,
            (1, 2),
            card,
            session=session,
            at=start + timedelta(seconds=5 * index),
            turn=turn,
        )


def test_a_refused_card_then_a_right_one_is_one_wrong_claim_on_every_page(
    class_a: ClassWorld,
) -> None:
    session = _session(class_a)
    _turn(class_a, session, 1, [(2, 3), (2, 4)])  # refused (M1), then right: one turn
    counts = _counts(class_a, session)
    assert set(counts.values()) == {(0, 1)}, counts
    lesson = session_report(session)
    assert (lesson.claims, lesson.tries) == (1, 2)
    live = session_overview(session=session).students[0]
    assert (live.attempts, live.errors, live.tries) == (1, 1, 2)


def test_the_accuracy_tile_counts_the_claims_the_evidence_counts(class_a: ClassWorld) -> None:
    session = _session(class_a)
    # One turn of two refused tries then a right card; then one right turn.
    _turn(class_a, session, 1, [(2, 3), (2, 3), (2, 4)])
    _turn(class_a, session, 2, [(3, 6)])
    dash = class_dashboard(class_a.classroom)
    assert (dash.tiles.claims, dash.tiles.accuracy, dash.tiles.tries) == (2, 0.5, 4)
    line = next(ln for ln in dash.lines if ln.student == class_a.student.student)
    # The evidence: one wrong claim considered (n), fitting M1 (k).
    assert (line.evidence["M1"].k, line.evidence["M1"].n) == (1, 1)
    assert (line.claims - line.correct) == line.evidence["M1"].n
    assert set(_counts(class_a, session).values()) == {(1, 2)}


def test_the_pupil_page_and_the_class_heatmap_read_the_same_window(class_a: ClassWorld) -> None:
    pupil = class_a.student.student
    old = timezone.now() - timedelta(days=WINDOW_DAYS + 10)
    # Long ago, many right plays of one skill; in the window, one play.
    for index in range(12):
        log_attempt(pupil, (1, 3), (2, 6), at=old + timedelta(minutes=index), turn=index)
    log_attempt(pupil, (1, 2), (3, 6), turn=100)
    line = next(ln for ln in class_dashboard(class_a.classroom).lines if ln.student == pupil)
    report = student_report(pupil, lang="fr")
    ladder = {step.skill.id: step.progress for step in report.ladder}
    assert {skill: ladder[skill].state for skill in SKILL_IDS} == {
        skill: line.skills[skill].state for skill in SKILL_IDS
    }
    assert {skill: ladder[skill].opportunities for skill in SKILL_IDS} == {
        skill: line.skills[skill].opportunities for skill in SKILL_IDS
    }
    assert (report.correct, report.claims) == (line.correct, line.claims) == (1, 1)


def test_the_session_page_says_claims_tries_and_what_right_means(class_a: ClassWorld) -> None:
    from django.urls import reverse

    from tests.support.factories import teacher_client
    from tests.support.responses import page_text

    session = _session(class_a)
    _turn(class_a, session, 1, [(2, 3), (2, 3), (2, 4)])
    client = teacher_client(class_a.teacher)
    client.cookies["django_language"] = "fr"
    url = reverse("dashboard_session", args=[class_a.classroom.pk, session.pk])
    text = page_text(client.get(url))
    assert "3 essais" in text
    assert "juste du premier coup" in text
