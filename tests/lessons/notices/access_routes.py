"""Rows of the authorisation matrix for the public notices (tests/e2e/security/access_matrix.py).

Everyone, signed in or not, reads the privacy notice and the accessibility statement; they are
read-only pages, so a POST gets 405 whoever sends it.
"""

from __future__ import annotations

from tests.e2e.security.access_matrix import PUBLIC, Outcome, Route, outcomes

NOBODY_POSTS = outcomes(*[Outcome.NOT_ALLOWED] * 5)

ROUTES: list[Route] = [
    Route("privacy", PUBLIC),
    Route("privacy", NOBODY_POSTS, method="post", label="POST privacy (read-only page)"),
    Route("accessibility", PUBLIC),
    Route(
        "accessibility", NOBODY_POSTS, method="post", label="POST accessibility (read-only page)"
    ),
]
