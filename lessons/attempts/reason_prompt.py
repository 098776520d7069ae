"""Decide when the play page asks a student why they claimed "equal", and store the answer.

The table socket calls these through games.hooks (registered in lessons.attempts.hooks):
`reason_prompt` right after a refused fraction play, `reason_answer` when the page answers.

When to ask: the table setting `ask_reason` (0-100, games.services) is the percent of refused
"equal" claims that are asked: 100 at a practice table, 0 (never) at a class session's table
unless its settings say otherwise. Only the first claim of a turn is asked (the one the status
model reads as evidence: lessons.diagnosis reads only the first claim of each turn), only a
wrong "equal" claim on a reference fraction, only once. The server decides, never the page:
a generator seeded by the table's seed and the attempt's id draws whether to ask and then the
order of the answers, so the order is fresh for every prompt (the model reads a child who
clicks without reading as choosing each answer with chance 1 / len(REASONS)) and the same
refusal always gets the same prompt. Nothing is stored about the prompt itself: the answer is
accepted while the student's latest attempt at the table is a claim that was asked.
"""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import TableError
from games.hooks import NO_REASON_ASKED
from games.models import Table
from lessons.attempts.reasons import ALREADY_ANSWERED, ReasonError, attempt_set_reason
from lessons.diagnosis import CLAIM_EQUAL, REASON_LABELS, REASONS
from lessons.models import Attempt, Student

NOT_A_STUDENT = _("Only a student answers this question.")
UNKNOWN_REASON = _("This answer is not one of the choices.")
ALREADY_ANSWERED_MESSAGE = _("You have already answered this question.")


def _student(user: Any) -> Student | None:
    if not getattr(user, "is_student", False):
        return None
    return Student.objects.filter(user_id=user.pk).first()


def _rng(table: Table, attempt: Attempt) -> random.Random:
    """Return the prompt's generator: the same refusal always draws the same prompt."""
    return random.Random(f"ask_reason:{table.seed}:{attempt.pk}")


def asks(rate: int, rng: random.Random) -> bool:
    """Tell whether a refused claim is asked at `rate` percent (draws one number from `rng`)."""
    return rng.randrange(100) < rate


def _asked_attempt(student: Student, table: Table) -> Attempt | None:
    """Return the student's latest attempt at the table if it is a claim that is asked."""
    rate = int((table.play_settings or {}).get("ask_reason", 0) or 0)
    if rate <= 0:
        return None
    latest = Attempt.objects.filter(student=student, table_id=table.pk).order_by("-id").first()
    if (
        latest is None
        or latest.turn is None
        or latest.outcome != Attempt.Outcome.WRONG
        or latest.claim != CLAIM_EQUAL
        or latest.reference_den is None
    ):
        return None
    earlier = Attempt.objects.filter(
        student=student, table_id=table.pk, turn=latest.turn, pk__lt=latest.pk
    )
    if earlier.exists():
        return None  # a later try of the turn: the model does not read it
    return latest if asks(rate, _rng(table, latest)) else None


def reason_prompt(table_id: int, user: Any, lang: str) -> dict[str, Any] | None:
    """Return the `ask_reason` prompt for the user's refused play, or None (not asked)."""
    student = _student(user)
    table = Table.objects.filter(pk=table_id).first()
    if student is None or table is None:
        return None
    attempt = _asked_attempt(student, table)
    if attempt is None or attempt.reason is not None:
        return None
    rng = _rng(table, attempt)
    rng.randrange(100)  # the draw that decided to ask (asks): the order comes after it
    codes = list(REASONS)
    rng.shuffle(codes)
    lang = lang if lang in ("fr", "en") else "fr"
    return {"choices": [{"code": code, "label": REASON_LABELS[code][lang]} for code in codes]}


def reason_answer(table_id: int, user: Any, code: object) -> None:
    """Store the student's answer on the claim they were asked about; raise TableError if not."""
    student = _student(user)
    if student is None:
        raise TableError("not_a_student", NOT_A_STUDENT)
    if not isinstance(code, str) or code not in REASONS:
        raise TableError("unknown_reason", UNKNOWN_REASON)
    table = Table.objects.filter(pk=table_id).first()
    attempt = _asked_attempt(student, table) if table is not None else None
    if attempt is None:
        raise TableError("no_reason_asked", NO_REASON_ASKED)
    try:
        attempt_set_reason(student=student, reason=code, attempt_id=attempt.pk)
    except ReasonError as exc:
        if exc.code == ALREADY_ANSWERED:
            raise TableError("already_answered", ALREADY_ANSWERED_MESSAGE) from exc
        raise TableError("no_reason_asked", NO_REASON_ASKED) from exc


__all__ = ["asks", "reason_answer", "reason_prompt"]
