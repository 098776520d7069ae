"""Answer 503 "try again in a moment" while the database restarts, never a 500.

The session and the signed-in user are read lazily, in the view: a database that is away
raises OperationalError (or InterfaceError) there. The page is static (templates/503.html,
in both languages) and reads neither the session nor the user, which are what failed. A live
link's POSTed frame (docs/protocol.md, "Fallback: SSE and POST") gets the JSON answer the page
reads instead, an `unavailable` error frame, with the same status.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from games import jsontext

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 10
# The routes that take a live link's POSTed frames: they answer JSON frames, never a page.
FRAME_ROUTES = frozenset({"frames", "session_frames"})


class DatabaseUnavailableMiddleware:
    """Turn a database outage met by a view into a 503 page (one log line, no traceback)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Pass the request on."""
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """Answer 503 for a database that does not answer; leave every other error alone."""
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.warning("database unavailable: 503 for %s %s", request.method, request.path)
        match = request.resolver_match
        if match is not None and match.url_name in FRAME_ROUTES:
            response = HttpResponse(
                jsontext.dumps({"frames": [unavailable_frame()]}),
                content_type="application/json",
                status=503,
            )
        else:
            response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["Cache-Control"] = "no-store"
        return response


def unavailable_frame() -> dict[str, str]:
    """Build the `error` frame a live link sends while the database is away (active language)."""
    from games.realtime.link import DATABASE_UNAVAILABLE  # a link's own words, loaded late

    return {"type": "error", "code": "unavailable", "message": str(DATABASE_UNAVAILABLE)}
