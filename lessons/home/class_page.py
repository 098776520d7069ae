"""The class page: a class's roster, its ENT sign-in and its practice, gathered for its teacher."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from lessons.classrooms import selectors
from lessons.classrooms.access import SignedInRequest, teacher_required
from lessons.classrooms.lookups import classroom_or_404
from lessons.ent.pupils import pupil_connectors
from lessons.practice.home import practice_of_classroom


@teacher_required
def classroom_detail(request: SignedInRequest, classroom_id: int) -> HttpResponse:
    """Show a classroom: its join code and its students with their lock state."""
    classroom = classroom_or_404(request, classroom_id)
    students = selectors.students_of_classroom(classroom=classroom)
    return render(
        request,
        "lessons/classroom_detail.html",
        {
            "classroom": classroom,
            "students": students,
            "ent_enabled": bool(pupil_connectors()),
            **practice_of_classroom(classroom=classroom, students=students),
        },
    )
