"""Rows of the authorisation matrix for class sessions (see tests/e2e/security/access_matrix.py).

Targets belong to class A: teacher B gets 404 (the session is not theirs), students get 403
on teacher pages, and student B gets 404 on class A's session.
"""

from __future__ import annotations

from typing import Any

from lessons.sessions.services import session_join, session_start
from tests.e2e.security.access_matrix import (
    PUBLIC,
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

TEACHER_OF_A_POST = outcomes(L, F, F, R, N)


def _classroom(a: Any, b: Any) -> dict[str, Any]:
    return {"classroom_id": a.classroom.pk}


def _session(a: Any, b: Any) -> dict[str, Any]:
    session = session_start(teacher=a.teacher, classroom=a.classroom)
    session_join(session=session, student=a.other_student.student)
    return {"session_id": session.pk}


ROUTES: list[Route] = [
    Route("session_new", TEACHER_OF_A, kwargs=_classroom),
    Route(
        "session_new",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_classroom,
        data=lambda a, b: {"ruleset": "fractions", "table_size": 4, "turn_timer": 0},
    ),
    Route("session_overview", TEACHER_OF_A, kwargs=_session),
    Route(
        "session_pause",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_session,
        data=lambda a, b: {"paused": "on"},
    ),
    Route("session_end", TEACHER_OF_A_POST, method="post", kwargs=_session),
    Route("session_seat", TEACHER_OF_A_POST, method="post", kwargs=_session),
    Route(
        "session_move",
        TEACHER_OF_A_POST,
        method="post",
        kwargs=_session,
        data=lambda a, b: {"student": a.other_student.student.pk, "table": ""},
    ),
    # Student A has not joined: the page (a read) offers the join button (200).
    Route("session_play", outcomes(L, P, N, F, F), kwargs=_session),
    # Joining (or asking for a table) is a POST: student A is sent on to the play page.
    Route("session_join", outcomes(L, R, N, F, F), method="post", kwargs=_session),
    Route(
        "session_join",
        outcomes(L, Outcome.NOT_ALLOWED, Outcome.NOT_ALLOWED, F, F),
        kwargs=_session,
        label="GET session_join",
    ),
    Route("diagnosis", PUBLIC),
]
