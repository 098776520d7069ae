"""The compare answers are never evidence: a pupil's diagnosis is the same with and without
them, and reading it never touches their table (lessons.attempts.compare_prompt)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Table
from games.protocol import refusal_example
from games.services import table_act
from lessons.attempts.compare_prompt import compare_answer, compare_prompt
from lessons.evidence.loading import status_cache, statuses_of, student_rows
from lessons.models import Attempt, CompareAnswer
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, make_table
from tests.lessons.reporting.helpers import M1_PLAYS, log_plays

pytestmark = pytest.mark.django_db


def _statuses(student_id: int) -> dict[str, tuple[str, int, int]]:
    status_cache().clear()  # diagnosed afresh each time, never the cached statuses
    return {rule: (s.status, s.k, s.n) for rule, s in statuses_of(student_rows(student_id)).items()}


def test_the_diagnosis_is_the_same_with_and_without_the_answers(class_a: ClassWorld) -> None:
    child = class_a.other_student
    log_plays(child.student, M1_PLAYS * 3)
    # A refused trap at a practice table: 2/3 on 1/3 claimed "equal" (seat 1 plays first).
    table = make_table([class_a.student.user, child.user], setup=FRACTIONS_SETUP, kind="practice")
    with pytest.raises(Exception):  # noqa: B017 - the refusal (TableError) is the point
        table_act(
            table_id=table.pk,
            user=child.user,
            action={"type": "play", "card": "2/3r", "claim": "equal"},
            state_id=0,
        )
    seat = 1
    example = refusal_example(table.pk, seat, {"reference": "1/3", "card": "2/3r"}, "fr")
    assert example is not None
    prompt = compare_prompt(table.pk, child.user, example, "fr")
    assert prompt is not None
    compare_answer(table.pk, child.user, "2/3")  # a wrong answer, of all answers
    # And an answer on every wrong play logged before (as if each had been asked).
    for attempt in Attempt.objects.filter(student=child.student, outcome="wrong", table=None):
        CompareAnswer.objects.create(
            attempt=attempt,
            student=child.student,
            variant="played_first",
            choices=["2/3", "2/4"],
            equal="2/4",
            answer="2/3",
        )
    assert CompareAnswer.objects.filter(student=child.student).count() > 3
    with CaptureQueriesContext(connection) as queries:
        with_answers = _statuses(child.student.pk)
    assert not [q for q in queries.captured_queries if "compareanswer" in q["sql"].lower()]
    assert with_answers["M1"][0] == "likely"
    CompareAnswer.objects.all().delete()
    assert _statuses(child.student.pk) == with_answers


def test_no_question_at_a_class_session_table_nor_for_a_right_play(class_a: ClassWorld) -> None:
    child = class_a.other_student
    table = make_table(
        [class_a.student.user, child.user], setup=FRACTIONS_SETUP, kind=Table.Kind.LESSON
    )
    example = {"reference": {"text": "1/3"}, "own_card": None}
    assert compare_prompt(table.pk, child.user, example, "fr") is None
    practice = make_table([class_a.student.user, child.user], setup=FRACTIONS_SETUP)
    Table.objects.filter(pk=practice.pk).update(kind=Table.Kind.PRACTICE)
    table_act(  # a right play: 4/12 on 1/3
        table_id=practice.pk,
        user=child.user,
        action={"type": "play", "card": "4/12j", "claim": "equal"},
        state_id=0,
    )
    assert compare_prompt(practice.pk, child.user, example, "fr") is None
    assert not CompareAnswer.objects.exists()
