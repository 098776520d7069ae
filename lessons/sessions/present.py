"""Render the live part of the teacher's overview: the page and its socket send the same HTML."""

from __future__ import annotations

import re
from typing import Any

from django.template.loader import render_to_string

from lessons.sessions.overview import IDLE_SECONDS, WRONG_STREAK, Overview
from lessons.warmup.progress import session_warmup


def overview_context(overview: Overview) -> dict[str, Any]:
    """Return what the live part of the overview needs (the page and the socket share it)."""
    return {
        "overview": overview,
        "session": overview.session,
        "wrong_streak": WRONG_STREAK,
        "idle_minutes": IDLE_SECONDS // 60,
        "warmup": session_warmup(session=overview.session),
    }


# A run of ASCII white space (never a no-break space of French typography): the browser
# shows one space for it (the live part has no <pre> and no
# <textarea>), and the template's indentation was a third of a 30-pupil overview frame.
_SPACES = re.compile(r"[ \t\n\r\f]+")


def overview_html(overview: Overview) -> str:
    """Render the live part of the overview, as the socket sends it (in the active language).

    Each run of white space is sent as one space: the page looks the same, and the frame, sent
    on every move of every table, is a third smaller (docs/performance.md, "Slow links").
    """
    html = render_to_string("lessons/sessions/_overview.html", overview_context(overview))
    return _SPACES.sub(" ", html)
