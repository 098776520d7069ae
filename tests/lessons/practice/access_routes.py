"""Rows of the authorisation matrix for assigned practice.

Teachers of the class (owner, co-teacher) assign and follow; another teacher gets 404, students
403. Only a student the practice is for plays it (another class's student: 404); teachers 403.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from lessons.models import PracticeAssignment
from lessons.practice.services import today
from tests.e2e.security.access_matrix import F, L, N, Outcome, P, R, Route, outcomes

TEACHER_OF_A = outcomes(L, F, F, P, N)
TEACHER_OF_A_ACTION = outcomes(L, F, F, R, N)
NOT_ALLOWED = Outcome.NOT_ALLOWED


def _assignment(world: Any) -> PracticeAssignment:
    return PracticeAssignment.objects.create(
        classroom=world.classroom,
        games=2,
        deck="full",
        due_on=today() + timedelta(days=2),
        created_by=world.teacher,
    )


def _classroom(a: Any, b: Any) -> dict[str, Any]:
    return {"classroom_id": a.classroom.pk}


def _of_a(a: Any, b: Any) -> dict[str, Any]:
    return {"classroom_id": a.classroom.pk, "assignment_id": _assignment(a).pk}


def _play_a(a: Any, b: Any) -> dict[str, Any]:
    return {"assignment_id": _assignment(a).pk}


def _new_data(a: Any, b: Any) -> dict[str, Any]:
    return {"games": "2", "deck": "sixths", "due_on": str(today() + timedelta(days=3))}


ROUTES: list[Route] = [
    Route("practice_assignment_new", TEACHER_OF_A, kwargs=_classroom),
    Route("practice_assignment_new", TEACHER_OF_A_ACTION, method="post", kwargs=_classroom,
          data=_new_data),
    Route("practice_assignment", TEACHER_OF_A, kwargs=_of_a),
    Route(
        "practice_assignment",
        outcomes(L, F, F, N, N),
        kwargs=lambda a, b: {"classroom_id": a.classroom.pk, "assignment_id": _assignment(b).pk},
        label="GET practice_assignment (class A, class B assignment)",
    ),
    Route("practice_assignment_delete", TEACHER_OF_A_ACTION, method="post", kwargs=_of_a),
    Route(
        "practice_assignment_delete",
        outcomes(L, F, F, NOT_ALLOWED, NOT_ALLOWED),
        kwargs=_of_a,
        label="GET practice_assignment_delete (POST only)",
    ),
    Route(
        "practice_play",
        outcomes(L, R, N, F, F, co_teacher=F, school_admin=F),
        method="post",
        kwargs=_play_a,
    ),
    Route(
        "practice_play",
        outcomes(L, NOT_ALLOWED, NOT_ALLOWED, F, F, co_teacher=F, school_admin=F),
        kwargs=_play_a,
        label="GET practice_play (POST only)",
    ),
]  # fmt: skip
