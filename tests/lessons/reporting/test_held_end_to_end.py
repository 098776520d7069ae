"""Issue 31 §1: "held" end to end, from stored attempts to the pupil's pages.

The clock is moved by rewriting stored times (the project has no time-travel library): the
game plays and the first re-check are moved `days` back, then a second re-check is answered
now. Never a sleep.
"""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest
from django.db.models import F

from lessons.evidence.loading import statuses_of, student_rows, turns_of
from lessons.models import Attempt, Student, WarmupRound
from lessons.warmup import services
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_plays

pytestmark = pytest.mark.django_db


def right(item: dict[str, Any]) -> str:
    """Choose the option equal to the item's reference."""
    top = Fraction(item["reference"])
    return str(next(o for o in item["options"] if Fraction(o) == top))


def answer_round(world: ClassWorld, student: Student, pick: Any = right) -> WarmupRound:
    """Give the student a re-check and answer each item with `pick`; return the round."""
    (round_,) = services.warmup_recheck(
        teacher=world.teacher, classroom=world.classroom, students=[student.pk]
    )
    services.warmup_begin(student=student, warmup_id=round_.pk)
    for _answered in range(40):
        round_.refresh_from_db()
        if round_.finished_at is not None:
            return round_
        item = round_.item
        assert isinstance(item, dict)
        services.warmup_answer(
            student=student,
            warmup_id=round_.pk,
            item_number=round_.answered + 1,
            choice=pick(item),
        )
        round_.refresh_from_db()
        if round_.asking is not None:  # "why?" follows only the answers it informs
            services.warmup_reason(student=student, warmup_id=round_.pk, reason=None)
    raise AssertionError("the round did not end")


def move_back(student: Student, days: float) -> None:
    """Move every stored attempt of the student `days` into the past (the clock moves on)."""
    Attempt.objects.filter(student=student).update(
        created_at=F("created_at") - timedelta(days=days)
    )


def resolved_then_checked(world: ClassWorld, days: float, pick: Any = right) -> Student:
    """M1 likely, resolved by a clean re-check, then `days` later a second re-check."""
    anais = world.student.student
    log_plays(anais, M1_PLAYS + RIGHT_PLAYS)
    answer_round(world, anais)
    assert statuses_of(student_rows(anais.pk))["M1"].status == "resolved"
    move_back(anais, days)
    answer_round(world, anais, pick)
    return anais


def test_stored_attempts_give_the_diagnosis_their_time(class_a: ClassWorld) -> None:
    anais = class_a.student.student
    log_plays(anais, M1_PLAYS)
    answer_round(class_a, anais)
    turns = turns_of(student_rows(anais.pk))
    stored = list(Attempt.objects.filter(student=anais).order_by("created_at", "id"))
    assert turns and all("at" in turn for turn in turns)
    # Every turn's time is its first attempt's, with its offset.
    assert turns[0]["at"] == stored[0].created_at.isoformat()
    assert all(turn["at"].endswith("+00:00") for turn in turns)
    probes = [turn for turn in turns if turn.get("source") == "probe"]
    assert [turn["at"] for turn in probes] == [
        a.created_at.isoformat() for a in stored if a.source == "probe"
    ]


def test_a_second_clean_re_check_eight_days_later_says_held(class_a: ClassWorld) -> None:
    anais = resolved_then_checked(class_a, days=8)
    status = statuses_of(student_rows(anais.pk))["M1"]
    assert status.status == "held"
    assert status.held_on is not None and status.rechecked_on is not None
    assert (status.held_on - status.rechecked_on).days >= 7
    first, second = status.checks
    assert first.day == status.rechecked_on and second.day == status.held_on
    assert first.taken == second.taken == 0 and first.offers >= 13 and second.offers >= 13


def test_six_days_later_the_same_re_check_is_not_held(class_a: ClassWorld) -> None:
    anais = resolved_then_checked(class_a, days=6)
    status = statuses_of(student_rows(anais.pk))["M1"]
    assert status.status == "resolved" and status.held_on is None
    # The second round passed (it is listed), but a week had not gone by.
    assert len(status.checks) == 2


def test_a_trap_taken_again_in_the_later_round_is_a_relapse(class_a: ClassWorld) -> None:
    from lessons.diagnosis import classify

    def m1(item: dict[str, Any]) -> str:
        fitting = [
            o
            for o in item["options"]
            if Fraction(o) != Fraction(item["reference"])
            and "M1" in classify(item["reference"], o, "equal")
        ]
        return fitting[0] if fitting else right(item)

    anais = resolved_then_checked(class_a, days=8, pick=m1)
    status = statuses_of(student_rows(anais.pk))["M1"]
    assert status.status == "likely" and status.held_on is None


def test_a_moved_attempt_time_is_a_new_cache_entry(class_a: ClassWorld) -> None:
    from lessons.evidence.loading import status_cache_key

    anais = class_a.student.student
    log_plays(anais, M1_PLAYS)
    before = status_cache_key(student_rows(anais.pk))
    move_back(anais, 8)
    assert status_cache_key(student_rows(anais.pk)) != before


def test_a_new_status_model_prints_a_new_pdf(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lessons.evidence import loading
    from lessons.printing import printing

    anais = class_a.student.student
    log_plays(anais, M1_PLAYS)
    before = printing.report_version(anais, "fr")
    monkeypatch.setattr(loading, "STATUS_CACHE_VERSION", loading.STATUS_CACHE_VERSION + 1)
    assert printing.report_version(anais, "fr") != before
