"""Rows of the authorisation matrix for group plans (see tests/e2e/security/access_matrix.py).

Only the class's teachers (owner, co-teacher) see, change and print a plan; another teacher
gets 404, pupils 403. Only a child of the plan starts its re-check (another class's pupil and
a classmate outside the plan: 404); teachers 403. A child's note for the family: the class's
teachers only (another teacher 404, pupils 403, student_a also for a classmate's note); once the
child moved or was removed the note follows them (404 in the old class: access_states.py).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from lessons.models import GroupPlan
from lessons.plans.services import default_dates, plan_create, today
from tests.e2e.security.access_matrix import F, L, N, Outcome, P, R, Route, outcomes

TEACHER_OF_A = outcomes(L, F, F, P, N)
TEACHER_OF_A_ACTION = outcomes(L, F, F, R, N)
NOT_ALLOWED = Outcome.NOT_ALLOWED


def _plan(world: Any, *, recheck_today: bool = False, classmate: bool = False) -> GroupPlan:
    child = world.other_student if classmate else world.student
    plan = plan_create(
        teacher=world.teacher, classroom=world.classroom, rule="M1", students=[child.student]
    )
    if recheck_today:
        # The re-check's day has come (its days are checked when the plan is made).
        GroupPlan.objects.filter(pk=plan.pk).update(recheck_on=today())
    return plan


def _new(a: Any, b: Any) -> dict[str, Any]:
    return {"classroom_id": a.classroom.pk, "rule": "M1"}


def _of_a(a: Any, b: Any) -> dict[str, Any]:
    return {"classroom_id": a.classroom.pk, "plan_id": _plan(a).pk}


def _note_a(a: Any, b: Any) -> dict[str, Any]:
    plan = _plan(a)
    return {"classroom_id": a.classroom.pk, "plan_id": plan.pk, "student_id": a.student.student.pk}


def _note_of_classmate(a: Any, b: Any) -> dict[str, Any]:
    plan = _plan(a, classmate=True)
    student = a.other_student.student
    return {"classroom_id": a.classroom.pk, "plan_id": plan.pk, "student_id": student.pk}


def _notes_a(a: Any, b: Any) -> dict[str, Any]:
    # The classmate stays in class A in every state: the group's PDF keeps a page.
    plan = plan_create(
        teacher=a.teacher,
        classroom=a.classroom,
        rule="M1",
        students=[a.student.student, a.other_student.student],
    )
    return {"classroom_id": a.classroom.pk, "plan_id": plan.pk}


def _recheck_a(a: Any, b: Any) -> dict[str, Any]:
    return {"plan_id": _plan(a, recheck_today=True).pk}


def _plan_data(a: Any, b: Any) -> dict[str, Any]:
    first, second, third, recheck = default_dates(today())
    return {
        "activity": "line",
        # The classmate stays in class A in every state of the matrix (access_states.py).
        "students": [str(a.other_student.student.pk)],
        "game1_on": str(first),
        "game2_on": str(second),
        "game3_on": str(third),
        "recheck_on": str(recheck + timedelta(days=1)),
    }


ROUTES: list[Route] = [
    Route("plan_new", TEACHER_OF_A, kwargs=_new),
    Route("plan_new", TEACHER_OF_A_ACTION, method="post", kwargs=_new, data=_plan_data),
    Route("plan_detail", TEACHER_OF_A, kwargs=_of_a),
    Route(
        "plan_detail",
        outcomes(L, F, F, N, N),
        kwargs=lambda a, b: {"classroom_id": a.classroom.pk, "plan_id": _plan(b).pk},
        label="GET plan_detail (class A, class B plan)",
    ),
    Route("plan_edit", TEACHER_OF_A, kwargs=_of_a),
    Route("plan_edit", TEACHER_OF_A_ACTION, method="post", kwargs=_of_a, data=_plan_data),
    Route("plan_done", TEACHER_OF_A_ACTION, method="post", kwargs=_of_a),
    Route("plan_done", outcomes(L, F, F, NOT_ALLOWED, NOT_ALLOWED), kwargs=_of_a,
          label="GET plan_done (POST only)"),
    Route("plan_pdf", TEACHER_OF_A, kwargs=_of_a),
    Route("family_note", TEACHER_OF_A, kwargs=_note_a),
    Route("family_note", TEACHER_OF_A, kwargs=_note_of_classmate,
          label="GET family_note (a classmate's note)"),
    Route(
        "family_note",
        outcomes(L, F, F, N, N),
        kwargs=lambda a, b: {"classroom_id": a.classroom.pk, "plan_id": _plan(b).pk,
                             "student_id": b.student.student.pk},
        label="GET family_note (class A, class B plan and pupil)",
    ),
    Route(
        "family_note",
        outcomes(L, F, F, N, N),
        kwargs=lambda a, b: {**_note_a(a, b), "student_id": b.student.student.pk},
        label="GET family_note (class A plan, class B pupil)",
    ),
    Route("family_note_pdf", TEACHER_OF_A, kwargs=_note_a),
    Route("family_notes_pdf", TEACHER_OF_A, kwargs=_notes_a),
    Route("plan_recheck", outcomes(L, R, N, F, F, co_teacher=F, school_admin=F),
          method="post", kwargs=_recheck_a),
    Route(
        "plan_recheck",
        outcomes(L, N, N, F, F, co_teacher=F, school_admin=F),
        method="post",
        kwargs=lambda a, b: {"plan_id": _plan(a, recheck_today=True, classmate=True).pk},
        label="POST plan_recheck (a plan for a classmate)",
    ),
    Route("plan_recheck", outcomes(L, NOT_ALLOWED, NOT_ALLOWED, F, F, co_teacher=F,
                                   school_admin=F),
          kwargs=_recheck_a, label="GET plan_recheck (POST only)"),
]  # fmt: skip
