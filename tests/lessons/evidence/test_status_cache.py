"""Diagnosed statuses are cached per student: reused while the rows are the same, and never
after a new attempt or a change to one (a reason given later, a draw)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lessons.diagnosis import RULE_IDS, diagnose
from lessons.evidence import loading
from lessons.evidence.loading import (
    RuleStatus,
    status_cache,
    status_cache_key,
    statuses_of,
    statuses_then_and_now,
    student_rows,
    turns_of,
)
from lessons.models import Attempt
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_attempt, log_plays

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_status_cache() -> Iterator[None]:
    status_cache().clear()
    yield
    status_cache().clear()


def _no_diagnosis(*args: object, **kwargs: object) -> object:
    raise AssertionError("statuses were diagnosed again instead of read from the cache")


def _direct(rows: list[loading.Row]) -> dict[str, RuleStatus]:
    result = diagnose(turns_of(rows))
    return {rule: RuleStatus.of(rule, result[rule]) for rule in RULE_IDS}


def test_a_new_attempt_or_a_changed_one_changes_the_key(class_a: ClassWorld) -> None:
    anais = class_a.student.student
    log_plays(anais, M1_PLAYS)
    rows = student_rows(anais.pk)
    key = status_cache_key(rows)
    assert status_cache_key(student_rows(anais.pk)) == key
    assert status_cache_key(rows, 2) != key
    log_attempt(anais, (1, 2), (3, 6))
    newer = student_rows(anais.pk)
    assert status_cache_key(newer) != key
    # A reason given after the play, or a draw marked later: same count, same latest id.
    first = Attempt.objects.filter(student=anais).order_by("created_at", "id").first()
    assert first is not None
    Attempt.objects.filter(pk=first.pk).update(reason="added_same")
    with_reason = student_rows(anais.pk)
    assert status_cache_key(with_reason) not in (key, status_cache_key(newer))
    Attempt.objects.filter(pk=first.pk).update(drew=True)
    assert status_cache_key(student_rows(anais.pk)) != status_cache_key(with_reason)
    # Another student with no rows, and this one: never the same key.
    other = class_a.other_student.student
    assert status_cache_key(student_rows(other.pk)) != key


def test_statuses_are_read_back_until_an_attempt_is_added(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    anais = class_a.student.student
    log_plays(anais, M1_PLAYS + RIGHT_PLAYS)
    rows = student_rows(anais.pk)
    first = statuses_of(rows)
    assert first == _direct(rows)
    assert first["M1"].status == "likely"
    with monkeypatch.context() as patched:
        patched.setattr(loading, "diagnose", _no_diagnosis)
        assert statuses_of(student_rows(anais.pk)) == first
    log_attempt(anais, (1, 2), (2, 3))
    newer = student_rows(anais.pk)
    with monkeypatch.context() as patched:
        patched.setattr(loading, "diagnose", _no_diagnosis)
        with pytest.raises(AssertionError, match="diagnosed again"):
            statuses_of(newer)
    again = statuses_of(newer)
    assert again == _direct(newer)
    assert again["M1"].k == first["M1"].k + 1


def test_then_and_now_are_cached_per_cut(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    anais = class_a.student.student
    log_plays(anais, M1_PLAYS + RIGHT_PLAYS)
    rows = student_rows(anais.pk)
    then, now = statuses_then_and_now(rows, 2)
    assert now == _direct(rows)
    assert then == {rule: figures.status for rule, figures in _direct(rows[:2]).items()}
    with monkeypatch.context() as patched:
        patched.setattr(loading, "Diagnosis", _no_diagnosis)
        assert statuses_then_and_now(rows, 2) == (then, now)
        with pytest.raises(AssertionError):
            statuses_then_and_now(rows, 3)
    # What a caller does with its copy does not reach the cache.
    now.clear()
    assert statuses_then_and_now(rows, 2)[1] == _direct(rows)
