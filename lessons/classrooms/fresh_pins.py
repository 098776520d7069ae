"""Keep newly issued PINs in the teacher's session for an hour, so login cards can be printed.

Only hashes are stored in the database; the plain PIN exists only here and on paper.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.contrib import messages
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import ngettext

from lessons.classrooms.services import StudentWithPin

SESSION_KEY = "lessons.classrooms.fresh_pins"
KEEP_SECONDS = 60 * 60


def fresh_pins_remember(*, session: SessionBase, issued: Iterable[StudentWithPin]) -> None:
    """Store just-issued PINs so the cards page can show them."""
    now = time.time()
    pins = _fresh(session)
    pins.update({str(item.student.pk): [item.pin, now] for item in issued})
    session[SESSION_KEY] = pins


def fresh_pins_recall(*, session: SessionBase) -> dict[int, str]:
    """Return the PINs issued within the last hour, by student id."""
    return {int(student_id): str(pin) for student_id, (pin, _at) in _fresh(session).items()}


def fresh_pins_forget(*, session: SessionBase) -> None:
    """Drop every remembered PIN (the teacher has printed the cards)."""
    session.pop(SESSION_KEY, None)


def _fresh(session: SessionBase) -> dict[str, list[str | float]]:
    cutoff = time.time() - KEEP_SECONDS
    stored: dict[str, list[str | float]] = session.get(SESSION_KEY, {})
    return {key: value for key, value in stored.items() if float(value[1]) >= cutoff}


def fresh_pins_to_cards(
    request: HttpRequest, *, classroom_id: int, issued: list[StudentWithPin]
) -> HttpResponse:
    """Keep the new students' PINs, say how many were added, and go to the cards to print."""
    fresh_pins_remember(session=request.session, issued=issued)
    messages.success(
        request,
        ngettext(
            "%(count)d student added. Print the login card now.",
            "%(count)d students added. Print their login cards now.",
            len(issued),
        )
        % {"count": len(issued)},
    )
    return redirect("classroom_cards", classroom_id=classroom_id)
