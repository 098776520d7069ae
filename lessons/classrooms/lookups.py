"""Find a teacher's classroom or student for a view, or answer 404 (nothing says it exists)."""

from __future__ import annotations

from django.http import Http404

from lessons.classrooms import selectors
from lessons.classrooms.access import SignedInRequest
from lessons.models import Classroom, Student


def classroom_or_404(request: SignedInRequest, classroom_id: int) -> Classroom:
    """Return a classroom the signed-in teacher teaches, or raise 404."""
    classroom = selectors.classroom_for_teacher(teacher=request.user, classroom_id=classroom_id)
    if classroom is None:
        raise Http404
    return classroom


def student_or_404(request: SignedInRequest, student_id: int) -> Student:
    """Return a present (not removed) student of the teacher's classes, or raise 404."""
    student = selectors.student_for_teacher(teacher=request.user, student_id=student_id)
    if student is None or student.pseudonymised_at is not None:
        raise Http404
    return student
