"""Rows of the authorisation matrix for a pupil's data (export, erasure) and the school pages.

A pupil's data go to the class's teachers only (owner or co-teacher); another teacher and the
school admin get 404 (nothing says the pupil exists), students 403, visitors the sign-in page.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.security.access_matrix import TEACHER_OF_A, F, L, N, P, R, Route, outcomes

TEACHER_OF_A_POST = outcomes(L, F, F, R, N)


def _student(a: Any, b: Any) -> dict[str, Any]:
    return {"student_id": a.student.student.pk}


def _export(fmt: str) -> Any:
    return lambda a, b: {"student_id": a.student.student.pk, "fmt": fmt}


ROUTES: list[Route] = [
    Route("student_export", TEACHER_OF_A, kwargs=_export("json"), label="GET student_export json"),
    Route("student_export", TEACHER_OF_A, kwargs=_export("csv"), label="GET student_export csv"),
    Route("student_erase", TEACHER_OF_A, kwargs=_student),
    Route(
        "student_erase",
        TEACHER_OF_A,
        method="post",
        kwargs=_student,
        label="POST student_erase (not confirmed)",
    ),
    Route(
        "student_erase",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_student,
        data=lambda a, b: {"confirm": "on"},
    ),
]

# The school pages: the school admin only.
SCHOOL_ADMIN_PAGE = outcomes(L, F, F, F, F, co_teacher=F, school_admin=P, ent_teacher=F)
SCHOOL_ADMIN_POST = outcomes(L, F, F, F, F, co_teacher=F, school_admin=R, ent_teacher=F)

ROUTES += [
    Route("school_admin", SCHOOL_ADMIN_PAGE),
    Route(
        "school_teacher_active",
        SCHOOL_ADMIN_POST,
        method="post",
        kwargs=lambda a, b: {"teacher_id": b.teacher.pk},
        data=lambda a, b: {"active": "0"},
    ),
    Route("school_invite", SCHOOL_ADMIN_POST, method="post", data=lambda a, b: {"note": "x"}),
    Route("school_policy", SCHOOL_ADMIN_POST, method="post", data=lambda a, b: {"months": "6"}),
    Route(
        "school_policy",
        SCHOOL_ADMIN_PAGE,
        method="post",
        data=lambda a, b: {"months": "0"},
        label="POST school_policy (bad months)",
    ),
]
