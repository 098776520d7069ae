"""Logging filters: a refused request is one log line, a server error keeps its traceback."""

from __future__ import annotations

import logging


class RefusalsWithoutTraceback(logging.Filter):
    """Drop the traceback of a record about a 4xx response (403, 400); keep the line itself.

    Django's request handler logs every PermissionDenied as "Forbidden (Permission denied)"
    with the exception attached, so each refusal printed a full traceback and the real errors
    drowned. Records about a 5xx response, or about no response at all, are left untouched.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Strip the exception from a 4xx record; let every record through."""
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500 and record.exc_info:
            record.exc_info = None
            record.exc_text = None
        return True
