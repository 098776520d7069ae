"""Rows of the authorisation matrix for dashboards, reports and exports.

Teachers see only their own classes (another teacher gets 404, students 403); a student sees
only their own report (the URL has no id to change), teachers get 403 there.
"""

from __future__ import annotations

from typing import Any

from lessons.models import ClassSession
from tests.e2e.security.access_matrix import F, L, N, Outcome, P, Route, outcomes

TEACHER_OF_A = outcomes(L, F, F, P, N)
STUDENT_ONLY = outcomes(L, P, P, F, F)


def _classroom(a: Any, b: Any) -> dict[str, Any]:
    return {"classroom_id": a.classroom.pk}


def _student(a: Any, b: Any) -> dict[str, Any]:
    return {"classroom_id": a.classroom.pk, "student_id": a.student.student.pk}


def _session(a: Any, b: Any) -> dict[str, Any]:
    session = ClassSession.objects.create(classroom=a.classroom)
    return {"classroom_id": a.classroom.pk, "session_id": session.pk}


ROUTES: list[Route] = [
    Route("dashboard_class", TEACHER_OF_A, kwargs=_classroom),
    Route("dashboard_student", TEACHER_OF_A, kwargs=_student),
    Route(
        "dashboard_student",
        outcomes(L, F, F, N, N),
        kwargs=lambda a, b: {"classroom_id": a.classroom.pk, "student_id": b.student.student.pk},
        label="GET dashboard_student (class A, class B student)",
    ),
    Route("dashboard_session", TEACHER_OF_A, kwargs=_session),
    Route(
        "dashboard_session",
        outcomes(L, F, F, N, N),
        kwargs=lambda a, b: {
            "classroom_id": a.classroom.pk,
            "session_id": ClassSession.objects.create(classroom=b.classroom).pk,
        },
        label="GET dashboard_session (class A, class B session)",
    ),
    Route("report_student", TEACHER_OF_A, kwargs=_student),
    Route("report_me", STUDENT_ONLY),
    Route("report_student_pdf", TEACHER_OF_A, kwargs=_student),
    Route(
        "report_student_pdf",
        outcomes(L, F, F, N, N),
        kwargs=lambda a, b: {"classroom_id": a.classroom.pk, "student_id": b.student.student.pk},
        label="GET report_student_pdf (class A, class B student)",
    ),
    Route("report_me_pdf", STUDENT_ONLY),
    Route("report_class_pdf", TEACHER_OF_A, kwargs=_classroom),
    Route(
        "report_class_pdf",
        outcomes(L, F, F, Outcome.NOT_ALLOWED, Outcome.NOT_ALLOWED),
        method="post",
        kwargs=_classroom,
        label="POST report_class_pdf (read-only)",
    ),
    Route("export_attempts", TEACHER_OF_A, kwargs=_classroom),
    Route("export_students", TEACHER_OF_A, kwargs=_classroom),
    Route("export_dictionary", outcomes(L, F, F, P, P)),
    Route(
        "dashboard_class",
        outcomes(L, F, F, Outcome.NOT_ALLOWED, Outcome.NOT_ALLOWED),
        method="post",
        kwargs=_classroom,
        label="POST dashboard_class (read-only page)",
    ),
]
