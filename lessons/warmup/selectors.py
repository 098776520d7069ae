"""Reads of warm-up rounds, always scoped to who asks (a student: only their own rounds)."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q, QuerySet
from django.utils import timezone

from games.engine.explain import worked_example
from lessons.models import Attempt, ClassSession, Student, WarmupRound
from lessons.warmup.services import reason_choices

# The card colours of the items (colour carries no meaning here: cards look like the game's).
COLOURS = ("r", "j", "v", "b")


def round_for_student(*, student: Student, warmup_id: int) -> WarmupRound | None:
    """Return one of the student's own rounds, or None."""
    return (
        WarmupRound.objects.filter(pk=warmup_id, student=student)
        .select_related("asking", "session")
        .first()
    )


def open_rounds_for_student(*, student: Student | None) -> QuerySet[WarmupRound]:
    """Return the student's rounds still to answer: first the one of a class session still
    going (the home's one big button, "Warm-up"), then those sent outside a session (not past
    due)."""
    if student is None:
        return WarmupRound.objects.none()
    today = timezone.localdate()
    outside = Q(session__isnull=True, assignment__isnull=True)
    in_session = Q(session__isnull=False) & ~Q(session__status=ClassSession.Status.ENDED)
    return (
        WarmupRound.objects.filter(outside | in_session, student=student, finished_at__isnull=True)
        .exclude(due_on__lt=today)
        .order_by(F("session_id").desc(nulls_last=True), "due_on", "id")
    )


def session_round(*, session: ClassSession, student: Student) -> WarmupRound | None:
    """Return the student's round of a class session, or None."""
    return WarmupRound.objects.filter(session=session, student=student).first()


def cards(values: list[str], *, marked: bool = False) -> list[dict[str, Any]]:
    """Return the cards of an item as the page draws them: value, marking, colour, key.

    `marked`: show the UNO Braille marking ("4/6r") under the value, as at an accessible table
    (the play page's rule); elsewhere a child reads it as part of the card, so it stays empty.
    """
    shown = []
    for index, value in enumerate(values):
        colour = COLOURS[index % len(COLOURS)]
        mark = f"{value}{colour}" if marked else ""
        shown.append({"value": value, "colour": colour, "mark": mark, "key": index + 1})
    return shown


def accessible(round_: WarmupRound) -> bool:
    """Tell whether the round belongs to an accessible session (its cards show the markings)."""
    session = round_.session
    return session is not None and bool((session.play_settings or {}).get("accessible"))


def example_for(round_: WarmupRound, lang: str) -> dict[str, Any] | None:
    """Return the worked example of the round's last wrong answer, or None (none wrong)."""
    wrong = (
        Attempt.objects.filter(warmup=round_, outcome=Attempt.Outcome.WRONG).order_by("-id").first()
    )
    if wrong is None or wrong.reference_den is None or wrong.reference_num is None:
        return None
    reference = f"{wrong.reference_num}/{wrong.reference_den}"
    played = f"{wrong.played_num}/{wrong.played_den}"
    return worked_example(reference, played, [str(c) for c in wrong.hand or ()], lang)


def page_state(round_: WarmupRound) -> dict[str, Any]:
    """Return what the student's page shows now: the item, the question, the end, or the start."""
    if round_.asking_id is not None:
        return {"step": "reason", "choices": reason_choices(round_)}
    if round_.finished_at is not None:
        return {"step": "done"}
    item = round_.item
    if isinstance(item, dict):
        return {
            "step": "item",
            "number": round_.answered + 1,
            "top": cards([str(item["reference"])])[0] | {"colour": "none", "mark": ""},
            "options": cards(
                [str(option) for option in item["options"]], marked=accessible(round_)
            ),
        }
    return {"step": "start"}


def sent_rounds(*, classroom: Any, limit: int = 60) -> list[WarmupRound]:
    """Return the class's latest warm-ups sent outside a session (re-checks, assigned)."""
    return list(
        WarmupRound.objects.filter(classroom=classroom, session__isnull=True)
        .select_related("student")
        .order_by("-created_at", "-id")[:limit]
    )


def session_progress(*, session: ClassSession) -> dict[int, WarmupRound]:
    """Return each student's round of the session (for the teacher: progress, no answers)."""
    return {r.student_id: r for r in WarmupRound.objects.filter(session=session)}


__all__ = [
    "accessible",
    "cards",
    "example_for",
    "open_rounds_for_student",
    "page_state",
    "round_for_student",
    "sent_rounds",
    "session_progress",
    "session_round",
]
