"""Store a warm-up answer as an attempt (source "probe"), and the reason given after it.

A warm-up item (lessons.warmup) shows a top card and a few cards; the student picks the one
they think is equal. The answer is an "equal" claim the student was asked for, on the item's
reference, with the cards shown as its hand: lessons.diagnosis reads it as a probe turn
(turns_from_attempts). Its tags, chance rates and opportunities come from the same
attempt_figures as a game's play, so the exports and `rediagnose` read both alike.
"""

from __future__ import annotations

from django.utils import timezone

from games.engine.fractions import parse_fraction
from lessons.attempts.log import attempt_figures
from lessons.diagnosis import CLAIM_EQUAL, RULES_VERSION, claim_is_correct
from lessons.models import Attempt, Student, WarmupRound


def probe_attempt_create(
    *,
    warmup: WarmupRound,
    student: Student,
    reference: str,
    options: list[str],
    chosen: str,
    item_number: int,
    response_ms: int | None = None,
) -> Attempt:
    """Store one answer of a warm-up round (the caller checked it and holds the round's lock)."""
    ref, played = parse_fraction(reference), parse_fraction(chosen)
    right = claim_is_correct(ref, played, CLAIM_EQUAL)
    tags, p0, opportunities, skills = attempt_figures(
        ref, 0, played, CLAIM_EQUAL, list(options), not right
    )
    return Attempt.objects.create(
        classroom_id=student.classroom_id,
        student=student,
        session=None,
        table=None,
        created_at=timezone.now(),
        reference_num=ref[0],
        reference_den=ref[1],
        named_denominator=None,
        played_num=played[0],
        played_den=played[1],
        card=chosen,
        claim=CLAIM_EQUAL,
        claim_source=Attempt.ClaimSource.ASKED,
        outcome=Attempt.Outcome.EQUAL if right else Attempt.Outcome.WRONG,
        tags=[] if right else tags,
        p0=p0,
        opportunities=opportunities,
        skills=skills,
        hand=list(options),
        response_ms=response_ms,
        rules_version=RULES_VERSION,
        turn=item_number,
        source=Attempt.Source.PROBE,
        warmup=warmup,
    )


def probe_attempt_set_reason(*, attempt: Attempt, reason: str | None) -> None:
    """Store the reason given after a warm-up answer (None: skipped); the caller checked it."""
    if reason is not None:
        Attempt.objects.filter(pk=attempt.pk, source=Attempt.Source.PROBE).update(reason=reason)


__all__ = ["probe_attempt_create", "probe_attempt_set_reason"]
