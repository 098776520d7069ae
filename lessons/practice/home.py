"""What the student's home shows about practice: what to practise next, what was assigned."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from lessons.aiming.rules import focus_rule
from lessons.classrooms.grade_decks import FULL_DECK, deck_for_grade
from lessons.models import Classroom, Student
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
    assignments = assignments_for_student(student=student)
    tip = next_practice(focus_rule(student))
    # The deck the practice link starts on: the one that can show what the tip aims at (the
    # full deck when it names none), else the one that suits the class's grade.
    deck = (tip.deck or FULL_DECK) if tip.aimed else deck_for_grade(student.classroom.grade)
    return {
        "next_practice": tip,
        "assignments": assignments,
        # Practice the teacher assigned and the student has not finished: then it is the one
        # practice button (free practice does not count toward it).
        "assigned_open": any(not line.done for line in assignments),
        "practice_deck": "" if deck == FULL_DECK else deck,
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
