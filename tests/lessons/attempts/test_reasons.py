"""attempt_set_reason: the student's own reason, stored on their own wrong "equal" claim only."""

from __future__ import annotations

from typing import Any

import pytest

from lessons.attempts.reasons import (
    ALREADY_ANSWERED,
    BAD_TARGET,
    NO_ATTEMPT,
    NOT_A_WRONG_EQUAL_CLAIM,
    UNKNOWN_REASON,
    ReasonError,
    attempt_set_reason,
)
from lessons.diagnosis import REASONS
from lessons.evidence.loading import statuses_of, student_rows
from lessons.models import Attempt, Student
from tests.conftest import ClassWorld
from tests.games.helpers import make_table
from tests.lessons.reporting.helpers import log_attempt

pytestmark = pytest.mark.django_db


def _wrong(student: Student, **kwargs: Any) -> Attempt:
    return log_attempt(student, (1, 2), (2, 3), **kwargs)


@pytest.mark.parametrize("reason", list(REASONS))
def test_every_reason_is_stored_by_attempt_id(class_a: ClassWorld, reason: str) -> None:
    student = class_a.student.student
    attempt = _wrong(student)
    attempt_set_reason(student=student, attempt_id=attempt.pk, reason=reason)
    attempt.refresh_from_db()
    assert attempt.reason == reason


def test_a_reason_by_table_and_turn_goes_to_the_turns_last_wrong_equal_claim(
    class_a: ClassWorld,
) -> None:
    student = class_a.student.student
    table = make_table([class_a.student.user, class_a.other_student.user])
    first = _wrong(student, table=table, turn=4)
    second = log_attempt(student, (1, 2), (1, 3), table=table, turn=4)
    other_turn = _wrong(student, table=table, turn=9)
    attempt_set_reason(student=student, table_id=table.pk, turn=4, reason="same_top")
    reasons = dict(Attempt.objects.values_list("pk", "reason"))
    assert reasons == {first.pk: None, second.pk: "same_top", other_turn.pk: None}


@pytest.mark.parametrize("reason", ["", "M1", "because", None, 3, "ADDED_SAME"])
def test_unknown_codes_are_refused(class_a: ClassWorld, reason: int | str | None) -> None:
    student = class_a.student.student
    attempt = _wrong(student)
    with pytest.raises(ReasonError) as err:
        attempt_set_reason(student=student, attempt_id=attempt.pk, reason=reason)
    assert err.value.code == UNKNOWN_REASON
    attempt.refresh_from_db()
    assert attempt.reason is None


def test_another_students_attempt_is_refused_like_a_missing_one(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    mine = _wrong(class_a.student.student)
    theirs = _wrong(class_a.other_student.student)
    elsewhere = _wrong(class_b.student.student)
    for attempt in (theirs, elsewhere):
        with pytest.raises(ReasonError) as err:
            attempt_set_reason(
                student=class_a.student.student, attempt_id=attempt.pk, reason="guessed"
            )
        assert err.value.code == NO_ATTEMPT
    with pytest.raises(ReasonError) as err:
        attempt_set_reason(student=class_a.student.student, attempt_id=10**9, reason="guessed")
    assert err.value.code == NO_ATTEMPT
    assert set(Attempt.objects.values_list("reason", flat=True)) == {None}
    assert mine.reason is None


@pytest.mark.parametrize(
    ("reference", "played", "claim", "named"),
    [
        ((1, 2), (3, 6), "equal", None),  # a right claim
        ((1, 6), (5, 6), "denominator", None),  # a right "same denominator" claim
        ((1, 2), (2, 3), "denominator", None),  # wrong, but not an "equal" claim
        (None, (5, 6), "equal", 12),  # after a named denominator: no fraction to compare
    ],
)
def test_only_a_wrong_equal_claim_on_a_fraction_takes_a_reason(
    class_a: ClassWorld,
    reference: tuple[int, int] | None,
    played: tuple[int, int],
    claim: str,
    named: int | None,
) -> None:
    student = class_a.student.student
    attempt = log_attempt(student, reference, played, claim, named_denominator=named)
    with pytest.raises(ReasonError) as err:
        attempt_set_reason(student=student, attempt_id=attempt.pk, reason="same_top")
    assert err.value.code == NOT_A_WRONG_EQUAL_CLAIM


def test_the_same_answer_again_is_fine_a_different_one_is_refused(class_a: ClassWorld) -> None:
    student = class_a.student.student
    attempt = _wrong(student)
    attempt_set_reason(student=student, attempt_id=attempt.pk, reason="added_same")
    attempt_set_reason(student=student, attempt_id=attempt.pk, reason="added_same")
    with pytest.raises(ReasonError) as err:
        attempt_set_reason(student=student, attempt_id=attempt.pk, reason="guessed")
    assert err.value.code == ALREADY_ANSWERED
    attempt.refresh_from_db()
    assert attempt.reason == "added_same"


@pytest.mark.parametrize(
    "target",
    [{}, {"attempt_id": 1, "turn": 2}, {"table_id": 1}, {"turn": 1}, {"attempt_id": "1"},
     {"attempt_id": True}, {"attempt_id": 1, "table_id": 1, "turn": 1}],
)  # fmt: skip
def test_the_attempt_must_be_named_one_way(class_a: ClassWorld, target: dict[str, Any]) -> None:
    with pytest.raises(ReasonError) as err:
        attempt_set_reason(student=class_a.student.student, reason="guessed", **target)
    assert err.value.code == BAD_TARGET


def test_a_stored_reason_weighs_in_the_diagnosis(class_a: ClassWorld) -> None:
    student = class_a.student.student
    attempt = _wrong(student)
    before = statuses_of(student_rows(student.pk))["M1"]
    attempt_set_reason(student=student, attempt_id=attempt.pk, reason="added_same")
    after = statuses_of(student_rows(student.pk))["M1"]
    assert (before.reasons, after.reasons) == (0, 1)
    assert after.p_value is not None and before.p_value is not None
    assert after.p_value < before.p_value
