"""Rows of the authorisation matrix for the project's own URLs (see
tests/e2e/security/access_matrix.py): the load balancer's health check is public and read-only;
the network check is public (it shows only the server's own address, for the school's IT staff
as much as for teachers) and rate-limited (tests/unoclass/test_network_check.py).
"""

from __future__ import annotations

from typing import Any

from tests.e2e.security.access_matrix import PUBLIC, Outcome, Route, outcomes

NOT_ALLOWED = outcomes(*[Outcome.NOT_ALLOWED] * 5)


def _echo(a: Any, b: Any) -> dict[str, Any]:
    """An echo: it comes back in the answer, for anyone."""
    return {"type": "echo", "n": 1}


ROUTES: list[Route] = [
    Route("healthz", PUBLIC),
    Route("healthz", NOT_ALLOWED, method="post", label="POST healthz (read-only check)"),
    Route("network_check", PUBLIC),
    Route("network_check", NOT_ALLOWED, method="post", label="POST network_check (a page)"),
    Route("network_check_echo", NOT_ALLOWED, label="GET network_check_echo (POST only)"),
    Route("network_check_echo", PUBLIC, method="post", data=_echo, json_body=True),
]
