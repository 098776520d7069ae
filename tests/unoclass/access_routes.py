"""Rows of the authorisation matrix for the project's own URLs (see
tests/e2e/security/access_matrix.py): the load balancer's health check is public and read-only.
"""

from __future__ import annotations

from tests.e2e.security.access_matrix import PUBLIC, Outcome, Route, outcomes

ROUTES: list[Route] = [
    Route("healthz", PUBLIC),
    Route(
        "healthz",
        outcomes(*[Outcome.NOT_ALLOWED] * 5),
        method="post",
        label="POST healthz (read-only check)",
    ),
]
