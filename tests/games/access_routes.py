"""Rows of the authorisation matrix for the games app (see tests/e2e/security/access_matrix.py)."""

from __future__ import annotations

from typing import Any

from games.services import SeatSpec, table_create
from tests.e2e.security.access_matrix import F, L, N, P, R, Route, outcomes


def _table_of_a(a: Any, b: Any) -> dict[str, Any]:
    """Seat class A's two students at a fractions table."""
    seats = [
        SeatSpec(name=login.student.display_name, user_id=login.user.pk)
        for login in (a.student, a.other_student)
    ]
    return {"table_id": table_create(ruleset="fractions", seats=seats, seed=3).pk}


def _seat_of_a(a: Any, b: Any) -> dict[str, Any]:
    return {**_table_of_a(a, b), "seat_index": 1}


def _seat_of_student_a(a: Any, b: Any) -> dict[str, Any]:
    """The seat of student_a (the pupil the access states move, archive or erase)."""
    return {**_table_of_a(a, b), "seat_index": 0}


ROUTES: list[Route] = [
    Route("games:practice", outcomes(L, P, P, P, P)),
    Route(
        "games:practice",
        outcomes(L, R, R, R, R),
        method="post",
        data=lambda a, b: {"ruleset": "fractions", "bots": 2, "bot": "heuristic"},
    ),
    Route("games:play", outcomes(L, P, N, P, N), kwargs=_table_of_a),
    Route(
        "games:pause",
        outcomes(L, F, N, R, N),
        method="post",
        kwargs=_table_of_a,
        data=lambda a, b: {"paused": "on"},
    ),
    # "Play again": the table's own player only (a game not over yet: back to it).
    Route("games:replay", outcomes(L, R, N, N, N), method="post", kwargs=_table_of_a),
    Route(
        "games:seat_bot",
        outcomes(L, F, N, R, N),
        method="post",
        kwargs=_seat_of_a,
        data=lambda a, b: {"bot": "on"},
    ),
    Route(
        "games:seat_bot",
        outcomes(L, F, N, R, N),
        method="post",
        kwargs=_seat_of_student_a,
        data=lambda a, b: {"bot": "on"},
        label="POST games:seat_bot (student_a's seat)",
    ),
]
