"""Issue 31 §7 and §6, the teacher's spreadsheet CSV: in the class's language, the French
programme's words where a standard is named (never a US Common Core code), no raw code nor
JSON in a cell, every row with its session or its warm-up; the students file counts claims as
every page does (one a turn, right at the first try)."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from lessons.models import Attempt, Classroom, ClassSession, WarmupRound
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import log_attempt
from tests.support.factories import teacher_client
from tests.support.responses import body_of

pytestmark = pytest.mark.django_db

CCSS = re.compile(r"\b\d\.NF\.")
# Codes no cell may show (in English "game" and "inferred" are also the words).
RAW = {
    "fr": {"game", "probe", "same_factor", "attempt", "marker", "inferred", "asked"},
    "en": {"probe", "same_factor", "attempt", "marker"},
}


def _sheet(world: ClassWorld, name: str, flavour: str = "spreadsheet") -> list[dict[str, str]]:
    client = teacher_client(world.teacher)
    url = reverse(name, args=[world.classroom.pk])
    response = client.get(url, {"for": flavour} if flavour else {})
    assert response.status_code == 200
    text = body_of(response).decode("utf-8-sig")
    delimiter = ";" if flavour and world.classroom.language == "fr" else ","
    return list(csv.DictReader(io.StringIO(text), delimiter=delimiter))


def _played(world: ClassWorld) -> tuple[ClassSession, WarmupRound]:
    """A lesson with a warm-up answer and two plays, then a practice play at home."""
    student = world.student.student
    began = timezone.now() - timedelta(days=1)
    session = ClassSession.objects.create(
        classroom=world.classroom, started_at=began, status=ClassSession.Status.ENDED
    )
    round_ = WarmupRound.objects.create(
        classroom=world.classroom,
        student=student,
        kind=WarmupRound.Kind.SESSION,
        session=session,
        finished_at=began + timedelta(minutes=2),
    )
    answer = log_attempt(
        student, (1, 2), (2, 3), at=began + timedelta(minutes=1), hand=("2/3", "2/4", "1/3")
    )
    Attempt.objects.filter(pk=answer.pk).update(
        source=Attempt.Source.PROBE, warmup=round_, reason="same_factor"
    )
    # One turn: a card refused, then a right one (one claim, wrong; two tries).
    at = began + timedelta(minutes=5)
    log_attempt(student, (1, 2), (2, 3), session=session, at=at, turn=4)
    log_attempt(student, (1, 2), (3, 6), session=session, at=at + timedelta(seconds=9), turn=4)
    log_attempt(student, (1, 3), (2, 6), at=began + timedelta(hours=5), turn=1)  # practice
    return session, round_


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_spreadsheet_is_in_words_with_every_rows_session_or_warm_up(
    class_a: ClassWorld, language: str
) -> None:
    Classroom.objects.filter(pk=class_a.classroom.pk).update(language=language)
    class_a.classroom.refresh_from_db()
    session, round_ = _played(class_a)
    rows = _sheet(class_a, "export_attempts")
    assert len(rows) == 4
    session_col = {"fr": "séance", "en": "session"}[language]
    round_col = {"fr": "échauffement", "en": "warm-up round"}[language]
    standards_col = {"fr": "programme (repères du cycle 3)", "en": "French programme (cycle 3)"}
    practice = {"fr": "entraînement", "en": "practice"}[language]
    for row in rows:
        for column, cell in row.items():
            assert not CCSS.search(cell), (column, cell)
            assert not cell.startswith(("[", "{")), (column, cell)
            assert cell not in RAW[language], (column, cell)
        assert row[session_col] or row[round_col]
    warm_up, refused, right, at_home = rows
    assert warm_up[session_col] == str(session.pk) and warm_up[round_col] == str(round_.pk)
    assert refused[session_col] == right[session_col] == str(session.pk)
    assert at_home[session_col] == practice
    assert "Cycle 3" in right[standards_col[language]]
    hand = {"fr": "cartes fractions en main", "en": "fraction cards in hand"}[language]
    assert right[hand].startswith("1/6, 10/12")
    # The research CSV keeps its codes and JSON: it is the stable one.
    machine = _sheet(class_a, "export_attempts", flavour="")
    assert machine[0]["source"] == "probe" and machine[0]["session_id"] == ""
    assert machine[0]["hand"].startswith("[") and CCSS.search(machine[2]["standards"])


def test_the_students_file_counts_claims_as_every_page_does(class_a: ClassWorld) -> None:
    _played(class_a)
    for flavour in ("", "spreadsheet"):
        rows = _sheet(class_a, "export_students", flavour=flavour)
        mine = next(r for r in rows if r.get("claims", r.get("annonces")) not in ("0", None))
        values = list(mine.values())
        # claims, correct: the refused-then-right turn is one wrong claim, the practice play
        # one right claim; the warm-up answer is no claim.
        assert values[2:4] == ["2", "1"], values
