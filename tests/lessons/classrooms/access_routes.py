"""Rows of the authorisation matrix for roster import, students, archives, co-teachers.

Targets belong to class A: another teacher gets 404 (nothing says the class exists),
students get 403 on teacher pages, visitors are sent to sign in.
"""

from __future__ import annotations

from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from lessons.models import Classroom
from tests.e2e.security.access_matrix import (
    TEACHER_ANY,
    TEACHER_OF_A,
    F,
    L,
    N,
    P,
    R,
    Route,
    outcomes,
)
from tests.support.factories import make_classroom
from tests.support.school_exports import SCHOOL, onde_csv

TEACHER_OF_A_POST = outcomes(L, F, F, R, N)
TEACHER_OF_A_PREVIEW = outcomes(L, F, F, P, N)


def _classroom(a: Any, b: Any) -> dict[str, Any]:
    return {"classroom_id": a.classroom.pk}


def _archived(a: Any, b: Any) -> dict[str, Any]:
    Classroom.objects.filter(pk=a.classroom.pk).update(archived_at=timezone.now())
    return {"classroom_id": a.classroom.pk}


def _student(a: Any, b: Any) -> dict[str, Any]:
    return {"student_id": a.student.student.pk}


ROUTES: list[Route] = [
    Route("classroom_import", TEACHER_OF_A, kwargs=_classroom),
    Route(
        "classroom_import",
        TEACHER_OF_A_PREVIEW,
        method="post",
        kwargs=_classroom,
        data=lambda a, b: {"file": SimpleUploadedFile("c.csv", "Prénom\nZélie\n".encode())},
    ),
    # A school export (ONDE): its teachers are sent on to the class picker, nothing stored.
    Route(
        "classroom_import",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_classroom,
        data=lambda a, b: {"file": SimpleUploadedFile("CSVExtraction.csv", onde_csv(SCHOOL[:4]))},
        label="POST classroom_import (ONDE export)",
    ),
    Route("classroom_import_confirm", TEACHER_OF_A_POST, method="post", kwargs=_classroom),
    # A school export's class picker: with no file waiting, back to the upload form.
    Route("classroom_import_classes", TEACHER_OF_A_POST, kwargs=_classroom),
    Route(
        "classroom_import_classes",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_classroom,
        data=lambda a, b: {"classes": ["0"]},
    ),
    Route("student_manage", TEACHER_OF_A, kwargs=_student),
    Route(
        "student_rename",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_student,
        data=lambda a, b: {"name": "Zélie"},
    ),
    Route(
        "student_move",
        # The target class is the owner's own: the co-teacher does not teach it (form refused).
        outcomes(L, F, F, R, N, co_teacher=P),
        method="post",
        kwargs=_student,
        data=lambda a, b: {"to": make_classroom(teacher=a.teacher, name="CM2 bis").pk},
    ),
    Route(
        "student_remove",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_student,
        data=lambda a, b: {"mode": "pseudonymise"},
    ),
    Route(
        "student_manage",
        outcomes(L, F, F, N, P, school_admin=N),
        kwargs=lambda a, b: {"student_id": b.student.student.pk},
        label="GET student_manage (class B student)",
    ),
    Route("classrooms_archived", TEACHER_ANY),
    Route("classroom_archive", TEACHER_OF_A_POST, method="post", kwargs=_classroom),
    Route("classroom_new_year", TEACHER_OF_A, kwargs=_archived),
    Route(
        "classroom_new_year",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_archived,
        data=lambda a, b: {"name": "CM2 2027", "grade": "CM2"},
    ),
    Route(
        "co_teacher_add",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_classroom,
        data=lambda a, b: {"username": b.teacher.username},
    ),
    Route(
        "co_teacher_remove",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_classroom,
        data=lambda a, b: {"teacher": b.teacher.pk},
    ),
    Route(
        "classroom_transfer",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_classroom,
        # A real teacher: the owner hands the class over; anyone else is refused by the owner
        # check itself, not by an unknown name (test_co_teachers.py checks what changed).
        data=lambda a, b: {"username": b.teacher.username},
    ),
]
