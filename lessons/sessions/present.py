"""Render the live part of the teacher's overview: the page and its socket send the same HTML."""

from __future__ import annotations

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


def overview_html(overview: Overview) -> str:
    """Render the live part of the overview, as the socket sends it (in the active language)."""
    return render_to_string("lessons/sessions/_overview.html", overview_context(overview))
