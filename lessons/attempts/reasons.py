"""Store the student's own reason for a wrong "equal" claim (the play page's reason prompt).

After a refused "equal" claim the play page may ask "Why did you think they were equal?"
(lessons.diagnosis.REASONS). The answer is stored on the attempt it explains, through
attempt_set_reason() only: the status model reads it as direct evidence, so a reason must
belong to the student who answers and to a claim it can explain.
"""

from __future__ import annotations

from typing import Final

from django.db import transaction

from lessons.diagnosis import CLAIM_EQUAL, REASONS
from lessons.models import Attempt, Student

UNKNOWN_REASON: Final = "unknown_reason"
NO_ATTEMPT: Final = "no_attempt"
NOT_A_WRONG_EQUAL_CLAIM: Final = "not_a_wrong_equal_claim"
ALREADY_ANSWERED: Final = "already_answered"
BAD_TARGET: Final = "bad_target"


class ReasonError(ValueError):
    """A reason that cannot be stored; `code` says why (nothing was changed)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _target(
    student: Student, attempt_id: int | None, table_id: int | None, turn: int | None
) -> Attempt | None:
    """Return the student's attempt the reason is for (locked), or None."""
    own = Attempt.objects.select_for_update().filter(student=student)
    if attempt_id is not None:
        return own.filter(pk=attempt_id).first()
    if table_id is None or turn is None:
        return None
    # The turn's latest refused "equal" claim: the one the prompt follows.
    return (
        own.filter(table_id=table_id, turn=turn, outcome=Attempt.Outcome.WRONG, claim=CLAIM_EQUAL)
        .order_by("-id")
        .first()
    )


def attempt_set_reason(
    *,
    student: Student,
    reason: object,
    attempt_id: int | None = None,
    table_id: int | None = None,
    turn: int | None = None,
) -> Attempt:
    """Store `reason` (a code of REASONS) on one of the student's wrong "equal" claims.

    Name the attempt by `attempt_id`, or by `table_id` and `turn` (then the turn's latest
    refused "equal" claim). Raise ReasonError (nothing changed) for an unknown code, an
    attempt that is not the student's or does not exist (the same answer for both, so
    nobody learns which ids exist), a claim that is not a wrong "equal" claim on a
    reference fraction, or a second, different answer; the same answer again is accepted.
    """
    if not isinstance(reason, str) or reason not in REASONS:
        raise ReasonError(
            UNKNOWN_REASON, f"unknown reason {reason!r}; expected one of {list(REASONS)}"
        )
    by_id = attempt_id is not None
    by_turn = table_id is not None and turn is not None
    if by_id == by_turn or (by_id and (table_id is not None or turn is not None)):
        raise ReasonError(BAD_TARGET, "name the attempt by attempt_id, or by table_id and turn")
    for value in (attempt_id, table_id, turn):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise ReasonError(BAD_TARGET, f"ids are integers, not {value!r}")
    with transaction.atomic():
        attempt = _target(student, attempt_id, table_id, turn)
        if attempt is None:
            raise ReasonError(NO_ATTEMPT, "no such attempt of this student")
        if (
            attempt.outcome != Attempt.Outcome.WRONG
            or attempt.claim != CLAIM_EQUAL
            or attempt.reference_den is None
        ):
            raise ReasonError(
                NOT_A_WRONG_EQUAL_CLAIM, "a reason explains a wrong 'equal' claim only"
            )
        if attempt.reason is not None and attempt.reason != reason:
            raise ReasonError(ALREADY_ANSWERED, "this claim already has the student's reason")
        if attempt.reason != reason:
            attempt.reason = reason
            attempt.save(update_fields=["reason"])
    return attempt


__all__ = [
    "ALREADY_ANSWERED",
    "BAD_TARGET",
    "NOT_A_WRONG_EQUAL_CLAIM",
    "NO_ATTEMPT",
    "UNKNOWN_REASON",
    "ReasonError",
    "attempt_set_reason",
]
