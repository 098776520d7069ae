"""Students play at a session table through the games services; the attempt log the lessons
listeners write is what the dashboards, the report and the export show."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from games.errors import TableError
from lessons.diagnosis import classify
from lessons.models import Attempt, ClassSession, MissedEquivalence, SessionTable
from lessons.reporting.class_report import class_dashboard
from lessons.reporting.session_report import session_report
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, act, make_table
from tests.support.factories import teacher_client
from tests.support.responses import body_of, page_text

pytestmark = pytest.mark.django_db


def test_a_played_session_shows_in_every_view(class_a: ClassWorld) -> None:
    anais, basile = class_a.student, class_a.other_student
    session = ClassSession.objects.create(classroom=class_a.classroom)
    table = make_table([anais.user, basile.user], setup=FRACTIONS_SETUP)
    SessionTable.objects.create(session=session, table=table, number=1)
    # Seat 1 (Basile) claims 1/3 = 10/12: refused and logged; then plays 4/12 = 1/3, right.
    with pytest.raises(TableError):
        act(table, basile.user, {"type": "play", "card": "10/12v", "claim": "equal"})
    act(table, basile.user, {"type": "play", "card": "4/12j", "claim": "equal"})
    # Seat 0 (Anaïs) draws while holding 2/6, equal to 4/12: a missed equivalence.
    act(table, anais.user, {"type": "draw"})
    assert Attempt.objects.count() == 2 and MissedEquivalence.objects.count() == 1

    dash = class_dashboard(class_a.classroom)
    lines = {line.student.pk: line for line in dash.lines}
    # One turn: one claim (its first try, wrong), two tries (lessons.evidence.evidence).
    line = lines[basile.student.pk]
    assert (line.correct, line.claims, line.tries) == (0, 1, 2)
    assert lines[anais.student.pk].claims == 0 and lines[anais.student.pk].missed == 1
    wrong_tags = tuple(classify((1, 3), (10, 12), "equal"))
    (play,) = dash.wrong_plays
    assert (play.reference, play.played, play.count, play.tags) == ((1, 3), (10, 12), 1, wrong_tags)
    for rule in wrong_tags:
        assert lines[basile.student.pk].evidence[rule].k == 1
    assert [(p.session_id, p.correct, p.claims) for p in dash.sessions] == [(session.pk, 0, 1)]

    report = session_report(session)
    assert {line.student.pk: (line.claims, line.missed) for line in report.lines} == {
        basile.student.pk: (1, 0),
        anais.student.pk: (0, 1),
    }

    client = teacher_client(class_a.teacher)
    text = page_text(client.get(reverse("dashboard_class", args=[class_a.classroom.pk])))
    assert "1/3 → 10/12" in text
    text = page_text(
        client.get(reverse("dashboard_student", args=[class_a.classroom.pk, basile.student.pk]))
    )
    assert "1/3 → 10/12" in text
    response = client.get(reverse("export_attempts", args=[class_a.classroom.pk]))
    rows = list(csv.reader(io.StringIO(body_of(response).decode())))
    assert [(r[6], r[7], r[9], r[10], r[15]) for r in rows[1:]] == [
        ("1", "3", "10", "12", "0"),
        ("1", "3", "4", "12", "1"),
    ]
    assert all(r[4] == str(session.pk) and r[5] == str(table.pk) for r in rows[1:])
