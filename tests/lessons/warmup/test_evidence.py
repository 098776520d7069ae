"""Warm-up answers in the one evidence stream: the dashboard, the exports, offline re-diagnosis.

A pupil's game plays and warm-up answers feed the same diagnose() on every page; the class CSV
carries the answers (source "probe", their round), and turns_from_csv gives the dashboard's
statuses back offline; the pupil's own export lists them too.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from lessons.diagnosis import RULE_IDS, classify, diagnose, turns_from_csv
from lessons.evidence.loading import statuses_of, student_rows
from lessons.models import Attempt, Classroom, WarmupRound
from lessons.reporting.exports import pseudonym
from lessons.school.student_export import student_json
from lessons.warmup import services
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_plays
from tests.support.factories import teacher_client
from tests.support.responses import body_of, page_text

pytestmark = pytest.mark.django_db


def _answer_all(student: Any, round_: WarmupRound, pick: Any) -> int:
    """Answer every item of the round with `pick(item)`; return how many."""
    for answered in range(30):
        round_.refresh_from_db()
        if round_.finished_at is not None:
            return answered
        item = round_.item
        assert isinstance(item, dict)
        services.warmup_answer(
            student=student,
            warmup_id=round_.pk,
            item_number=round_.answered + 1,
            choice=pick(item),
        )
        round_.refresh_from_db()
        if round_.asking_id is not None:  # asked where the reason informs (lessons.diagnosis.why)
            services.warmup_reason(student=student, warmup_id=round_.pk, reason="added_same")
    raise AssertionError("the round did not end")


def _first_wrong(item: dict[str, Any]) -> str:
    """Take the M1 trap when the item offers one (an M1 habit), else the first wrong card."""
    top = Fraction(item["reference"])
    wrong = [o for o in item["options"] if Fraction(o) != top]
    fitting = [o for o in wrong if "M1" in classify(item["reference"], o, "equal")]
    card: str = (fitting or wrong)[0]
    return card


def test_the_csv_carries_warm_up_answers_and_re_diagnoses_as_the_dashboard(
    class_a: ClassWorld,
) -> None:
    anais = class_a.student.student
    log_plays(anais, M1_PLAYS[:2])
    (round_,) = services.warmup_recheck(
        teacher=class_a.teacher, classroom=class_a.classroom, students=[anais.pk]
    )
    services.warmup_begin(student=anais, warmup_id=round_.pk)
    answered = _answer_all(anais, round_, _first_wrong)
    assert answered >= 1
    client = teacher_client(class_a.teacher)
    response = client.get(reverse("export_attempts", args=[class_a.classroom.pk]))
    rows = list(csv.DictReader(io.StringIO(body_of(response).decode())))
    probes = [row for row in rows if row["source"] == "probe"]
    assert len(probes) == answered
    assert {row["warmup_round"] for row in probes} == {str(round_.pk)}
    assert all(row["claimed_rule"] == "equal" and row["claim_source"] == "asked" for row in probes)
    assert all(json.loads(row["hand"]) for row in probes)
    assert {row["source"] for row in rows if row not in probes} == {"game"}
    offline = turns_from_csv(rows)[pseudonym("student", anais.pk)]
    assert sum(turn.get("source") == "probe" for turn in offline) == answered
    again = diagnose(offline)
    dashboard = statuses_of(student_rows(anais.pk))
    for rule in RULE_IDS:
        assert again[rule]["status"] == dashboard[rule].status, rule
        assert again[rule]["k"] == dashboard[rule].k, rule
    # An M1 habit with its reason, in game and warm-up alike: M1 is likely.
    assert dashboard["M1"].status == "likely"


def test_the_pupils_own_export_lists_their_warm_up_answers(class_a: ClassWorld) -> None:
    anais = class_a.student.student
    (round_,) = services.warmup_recheck(
        teacher=class_a.teacher, classroom=class_a.classroom, students=[anais.pk]
    )
    services.warmup_begin(student=anais, warmup_id=round_.pk)
    answered = _answer_all(anais, round_, _first_wrong)
    data = json.loads(student_json(student=anais))
    probes = [a for a in data["attempts"] if a["source"] == "probe"]
    assert len(probes) == answered and {a["warmup_id"] for a in probes} == {round_.pk}


def _right(item: dict[str, Any]) -> str:
    top = Fraction(item["reference"])
    card: str = next(o for o in item["options"] if Fraction(o) == top)
    return card


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_clean_re_check_resolves_a_habit_and_the_report_says_when(
    class_a: ClassWorld, language: str
) -> None:
    anais = class_a.student.student
    log_plays(anais, M1_PLAYS + RIGHT_PLAYS)
    assert statuses_of(student_rows(anais.pk))["M1"].status == "likely"
    (round_,) = services.warmup_recheck(
        teacher=class_a.teacher, classroom=class_a.classroom, students=[anais.pk]
    )
    services.warmup_begin(student=anais, warmup_id=round_.pk)
    _answer_all(anais, round_, _right)
    status = statuses_of(student_rows(anais.pk))["M1"]
    assert status.status == "resolved"
    last = Attempt.objects.filter(warmup=round_).latest("id")
    assert status.rechecked_on is not None and status.rechecked_on <= timezone.localdate()
    assert status.rechecked_on >= timezone.localtime(last.created_at).date() - timedelta(days=1)
    # The report is written in the class's language.
    Classroom.objects.filter(pk=class_a.classroom.pk).update(language=language)
    client = teacher_client(class_a.teacher)
    client.cookies["django_language"] = language
    page = page_text(client.get(reverse("report_student", args=[class_a.classroom.pk, anais.pk])))
    said = {"fr": "nous avons vérifié à nouveau le", "en": "we checked again on"}[language]
    assert said in page


def test_clean_game_turns_alone_never_say_checked_again(class_a: ClassWorld) -> None:
    anais = class_a.student.student
    log_plays(anais, M1_PLAYS + RIGHT_PLAYS * 4)
    status = statuses_of(student_rows(anais.pk))["M1"]
    assert status.status == "likely" and status.rechecked_on is None
    page = page_text(
        teacher_client(class_a.teacher).get(
            reverse("report_student", args=[class_a.classroom.pk, anais.pk])
        )
    )
    assert "nous avons vérifié à nouveau" not in page
