"""What the student's home shows about practice: what to practise next, what was assigned."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from lessons.models import Classroom, Student
from lessons.practice.aiming import focus_rule
from lessons.practice.selectors import (
    assignments_for_student,
    assignments_of_classroom,
    class_practice,
)
from lessons.practice.words import next_practice

# The class page lists this many assignments, the latest due first.
CLASS_PAGE_ASSIGNMENTS: Final = 10


def practice_next(*, student: Student | None) -> dict[str, Any]:
    """Return the home's context, or {} for no student.

    "next_practice" (a words.NextPractice) and "assignments" (the practice the teacher
    assigned, still open, with the student's progress: selectors.Progress).
    """
    if student is None:
        return {}
    return {
        "next_practice": next_practice(focus_rule(student)),
        "assignments": assignments_for_student(student=student),
    }


def practice_of_classroom(*, classroom: Classroom, students: Sequence[Student]) -> dict[str, Any]:
    """Return the class page's context: "assignments" (the latest due first).

    Each student gets `practice_done`, a selectors.ClassPractice (the open assignments done
    and assigned) or None, set on the object as a queryset annotation would: a template
    cannot look a dict up by the student's id.
    """
    column = class_practice(classroom=classroom, students=students)
    for student in students:
        setattr(student, "practice_done", column.get(student.pk))  # noqa: B010
    latest = assignments_of_classroom(classroom=classroom)[:CLASS_PAGE_ASSIGNMENTS]
    return {"assignments": list(latest), "practice_column": bool(column)}
