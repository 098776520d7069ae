"""What the student's home shows about practice: the next thing to practise and its deck."""

from __future__ import annotations

from typing import Any

from lessons.models import Student
from lessons.practice.aiming import focus_rule
from lessons.practice.words import next_practice


def practice_next(*, student: Student | None) -> dict[str, Any]:
    """Return the home's context: "next_practice" (a words.NextPractice), or {} for no student."""
    if student is None:
        return {}
    return {"next_practice": next_practice(focus_rule(student))}
