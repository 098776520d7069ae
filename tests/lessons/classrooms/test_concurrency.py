"""Races on the unique things of a class: a pupil's name and the new year's class. Exactly one
request wins; the others get a clear, translated refusal and change nothing.

Real concurrent calls (one thread and one database connection each); this file also runs on
PostgreSQL (tests/e2e/scale/test_postgres_runs.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lessons.classrooms.services import roster_add
from lessons.models import Classroom, Student
from lessons.pupils.changes import student_rename
from lessons.school.class_years import NEW_YEAR_ALREADY, classroom_new_year
from tests.support.factories import make_classroom, make_student, make_teacher
from tests.support.racing import race

pytestmark = pytest.mark.django_db(transaction=True)

SPELLINGS = ["Élodie", "élodie", "ÉLODIE", "Élodi\u0435"]  # the last ends in a Cyrillic е


def _refusal_codes(outcomes: Sequence[object]) -> list[str]:
    codes = []
    for outcome in outcomes:
        if isinstance(outcome, ValidationError):
            codes += [e.code or "" for e in outcome.error_list]
        elif isinstance(outcome, BaseException):
            raise outcome
    return codes


def test_four_pastes_of_one_name_at_once_add_one_pupil() -> None:
    classroom = make_classroom(teacher=make_teacher())
    outcomes = race(lambda i: roster_add(classroom=classroom, text=SPELLINGS[i]), 4)
    assert _refusal_codes(outcomes) == ["taken"] * 3
    assert classroom.students.count() == 1


def test_two_renames_to_one_name_at_once_leave_one_pupil_with_it() -> None:
    classroom = make_classroom(teacher=make_teacher())
    pupils = [
        make_student(classroom=classroom, display_name=name).student for name in ("Mia", "Zoé")
    ]
    outcomes = race(lambda i: student_rename(student=pupils[i], name=["Lucas", "Lucаs"][i]), 2)
    assert _refusal_codes(outcomes) == ["taken"]
    names = sorted(
        Student.objects.filter(classroom=classroom).values_list("display_name", flat=True)
    )
    assert len([n for n in names if n.startswith("Luc")]) == 1


def test_four_new_years_from_one_archived_class_at_once_make_one_class() -> None:
    teacher = make_teacher()
    source = make_classroom(teacher=teacher, name="CM1 2024")
    make_student(classroom=source, display_name="Lou")
    Classroom.objects.filter(pk=source.pk).update(archived_at=timezone.now())
    source.refresh_from_db()
    outcomes = race(
        lambda i: classroom_new_year(source=source, by=teacher, name=f"CM2 {i}", grade="CM2"), 4
    )
    assert _refusal_codes(outcomes) == ["already"] * 3
    made = Classroom.objects.filter(previous=source)
    assert made.count() == 1
    assert made.get().students.count() == 1
    refusal = next(o for o in outcomes if isinstance(o, ValidationError))
    assert refusal.messages == [str(NEW_YEAR_ALREADY) % {"name": made.get().name}]
