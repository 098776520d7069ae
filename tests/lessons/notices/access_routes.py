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
    Route("privacy_pupils", PUBLIC),
    Route("privacy_pupils", NOBODY_POSTS, method="post", label="POST privacy_pupils"),
    Route("processing_record", PUBLIC),
    Route("processing_record", NOBODY_POSTS, method="post", label="POST processing_record"),
    Route("data_flow", PUBLIC),
    Route("data_flow", NOBODY_POSTS, method="post", label="POST data_flow"),
    Route("accessibility", PUBLIC),
    Route(
        "accessibility", NOBODY_POSTS, method="post", label="POST accessibility (read-only page)"
    ),
]
