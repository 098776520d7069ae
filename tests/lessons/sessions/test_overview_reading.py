"""The live overview and the session page read plays as the diagnosis does, in words."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from lessons.models import ClassSession, SessionMember
from lessons.reporting.session_report import session_report
from lessons.sessions.overview import StudentRow, session_overview
from lessons.sessions.services import session_start
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import log_attempt

pytestmark = pytest.mark.django_db


def _session(world: ClassWorld) -> ClassSession:
    session = session_start(teacher=world.teacher, classroom=world.classroom)
    SessionMember.objects.create(session=session, student=world.student.student)
    return session


def _row(world: ClassWorld, session: ClassSession) -> StudentRow:
    overview = session_overview(session=session)
    return next(s for s in overview.students if s.student_id == world.student.student.pk)


def test_a_card_retried_in_the_same_turn_is_one_wrong_play(class_a: ClassWorld) -> None:
    session = _session(class_a)
    start = timezone.now() - timedelta(minutes=5)
    # One turn: 2/3 claimed equal to 1/2 (M1), refused, tried again twice: one first claim.
    for index in range(3):
        log_attempt(
            class_a.student.student,
            (1, 2),
            (2, 3),
            session=session,
            at=start + timedelta(seconds=10 * index),
            turn=7,
        )
    row = _row(class_a, session)
    assert (row.attempts, row.errors) == (1, 1)
    assert row.alerts == []  # neither "3 wrong in a row" nor "M1 shows up again"
    (line,) = [ln for ln in session_report(session).lines if ln.wrong_run]
    assert line.wrong_run == 1  # the session page's longest wrong run
    assert line.tags["M1"] == 1


def test_wrong_first_claims_of_three_turns_make_a_streak_and_a_repeat(class_a: ClassWorld) -> None:
    session = _session(class_a)
    start = timezone.now() - timedelta(minutes=5)
    plays = [((1, 2), (2, 3)), ((1, 2), (2, 3)), ((2, 3), (5, 6)), ((2, 3), (5, 6))]
    # Turns 1 and 2: a wrong claim, then the same card again; turn 3: one wrong claim.
    for index, ((ref, card), turn) in enumerate(zip(plays, [1, 1, 2, 3], strict=True)):
        log_attempt(
            class_a.student.student,
            ref,
            card,
            session=session,
            at=start + timedelta(seconds=10 * index),
            turn=turn,
        )
    row = _row(class_a, session)
    assert (row.attempts, row.errors) == (3, 3)
    kinds = sorted(alert.kind for alert in row.alerts)
    assert kinds == ["repeat", "wrong_streak"]
    assert [a.tag for a in row.alerts if a.kind == "repeat"] == ["M1"]


def test_the_overview_says_what_a_play_fits_in_words(class_a: ClassWorld) -> None:
    session = _session(class_a)
    # 2/3 played as equal to 4/12 fits M0, M4, M5 and M6: one of three mistakes, never M0.
    log_attempt(class_a.student.student, (2, 3), (4, 12), session=session, turn=1)
    row = _row(class_a, session)
    assert [fit.rules for fit in row.fits] == [("M4", "M5", "M6")]
    assert row.alerts == []
    client = Client()
    client.force_login(class_a.teacher)
    with translation.override("en"):
        html = client.get(
            reverse("session_overview", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="en"
        ).content.decode()
    cell = html[html.index(">AnaïsA") :]
    cell = cell[: cell.index("</tr>")]
    text = re.sub(r"<[^>]+>", "", cell)
    with translation.override("en"):
        names = row.fits[0].names
    assert "M0" not in text and not re.search(r"\bM[0-9]+a?\b", text)  # words, no bare codes
    assert re.search(
        rf"one of: {re.escape(names[0]['name'])}, {re.escape(names[1]['name'])} or "
        rf"{re.escape(names[2]['name'])}",
        " ".join(text.split()),
    ), text
