"""Rows of the authorisation matrix for the warm-up (see tests/e2e/security/access_matrix.py).

A round is its student's alone: class A's student gets their page, anyone else's round is a
404 (class B's student, and class A's student on a classmate's round), teachers get 403 on
the student's pages. The re-check form: teachers of the class only (another teacher: 404).
"""

from __future__ import annotations

from typing import Any

from lessons.models import WarmupRound
from lessons.warmup.services import warmup_recheck
from tests.e2e.security.access_matrix import (
    TEACHER_OF_A,
    F,
    L,
    N,
    Outcome,
    P,
    R,
    Route,
    outcomes,
)

OWN_PAGE = outcomes(L, P, N, F, F, co_teacher=F, school_admin=F)
OWN_POST = outcomes(L, R, N, F, F, co_teacher=F, school_admin=F)
CLASSMATES = outcomes(L, N, N, F, F, co_teacher=F, school_admin=F)
NOT_ALLOWED = Outcome.NOT_ALLOWED


def _round_of(world: Any, student: Any) -> WarmupRound:
    (made,) = warmup_recheck(
        teacher=world.teacher, classroom=world.classroom, students=[student.pk]
    )
    return made


def _own(a: Any, b: Any) -> dict[str, Any]:
    return {"warmup_id": _round_of(a, a.student.student).pk}


def _classmates(a: Any, b: Any) -> dict[str, Any]:
    return {"warmup_id": _round_of(a, a.other_student.student).pk}


def _classroom(a: Any, b: Any) -> dict[str, Any]:
    return {"classroom_id": a.classroom.pk}


def _recheck_data(a: Any, b: Any) -> dict[str, Any]:
    return {"students": [str(a.student.student.pk)], "deck": "full"}


ROUTES: list[Route] = [
    Route("warmup_page", OWN_PAGE, kwargs=_own),
    Route("warmup_page", CLASSMATES, kwargs=_classmates,
          label="GET warmup_page (a classmate's round)"),
    Route("warmup_begin", OWN_POST, method="post", kwargs=_own),
    Route("warmup_begin", CLASSMATES, method="post", kwargs=_classmates,
          label="POST warmup_begin (a classmate's round)"),
    Route("warmup_begin", outcomes(L, NOT_ALLOWED, NOT_ALLOWED, F, F, co_teacher=F,
                                   school_admin=F),
          kwargs=_own, label="GET warmup_begin (POST only)"),
    Route("warmup_answer", OWN_POST, method="post", kwargs=_own,
          data=lambda a, b: {"item": "1", "choice": "1/2"}),
    Route("warmup_answer", CLASSMATES, method="post", kwargs=_classmates,
          data=lambda a, b: {"item": "1", "choice": "1/2"},
          label="POST warmup_answer (a classmate's round)"),
    Route("warmup_reason", OWN_POST, method="post", kwargs=_own,
          data=lambda a, b: {"reason": "guessed"}),
    Route("warmup_reason", CLASSMATES, method="post", kwargs=_classmates,
          data=lambda a, b: {"reason": "guessed"},
          label="POST warmup_reason (a classmate's round)"),
    Route("warmup_recheck", TEACHER_OF_A, kwargs=_classroom),
    Route("warmup_recheck", outcomes(L, F, F, R, N), method="post", kwargs=_classroom,
          data=_recheck_data),
]  # fmt: skip
