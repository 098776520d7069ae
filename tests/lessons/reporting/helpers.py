"""Write attempts the way the attempt log does (tags, chance rates and skills from diagnosis)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.utils import timezone

from games.engine.fractions import FractionValue
from games.models import Table
from lessons.diagnosis import RULES_VERSION, attempt_evidence, claim_is_correct, skill_tags
from lessons.models import Attempt, ClassSession, MissedEquivalence, Student

# A hand where few cards fit M1 by chance, so four M1 plays make it "likely".
DEFAULT_HAND: tuple[str, ...] = ("1/6", "10/12", "8/48", "16/24", "2/12", "4/24", "32/48")


def log_attempt(
    student: Student,
    reference: FractionValue | None,
    played: FractionValue,
    claim: str = "equal",
    *,
    session: ClassSession | None = None,
    at: datetime | None = None,
    hand: Sequence[str] = DEFAULT_HAND,
    named_denominator: int | None = None,
    response_ms: int = 4000,
    table: Table | None = None,
    turn: int | None = None,
    reason: str | None = None,
    asked: bool = False,
    drew: bool = False,
) -> Attempt:
    """Store one judged play with the evidence the classifier gives it."""
    if reference is None:
        correct = claim == "denominator" and played[1] == named_denominator
        tags: list[str] = [] if correct else ["D1"]
        p0: dict[str, float] = {}
        opportunities: list[str] = []
        skills = ["S1"] if claim == "denominator" else []
    else:
        evidence = attempt_evidence(reference, played, claim, hand)
        correct = claim_is_correct(reference, played, claim)
        tags = list(evidence.tags)
        p0 = dict(evidence.p0)
        opportunities = evidence.as_dict()["opportunities"]  # type: ignore[assignment]
        skills = skill_tags(reference, played)
    outcome = "wrong" if not correct else ("equal" if claim == "equal" else "denominator")
    return Attempt.objects.create(
        classroom=student.classroom,
        student=student,
        session=session,
        created_at=at or timezone.now(),
        reference_num=reference[0] if reference else None,
        reference_den=reference[1] if reference else None,
        named_denominator=named_denominator,
        played_num=played[0],
        played_den=played[1],
        card=f"{played[0]}/{played[1]}r",
        claim=claim,
        outcome=outcome,
        tags=tags,
        p0=p0,
        opportunities=opportunities,
        skills=skills,
        hand=list(hand),
        response_ms=response_ms,
        rules_version=RULES_VERSION,
        table=table,
        turn=turn,
        reason=reason,
        claim_source="asked" if asked else "inferred",
        drew=drew,
    )


def log_plays(
    student: Student,
    plays: Sequence[tuple[FractionValue | None, FractionValue, str]],
    *,
    session: ClassSession | None = None,
    start: datetime | None = None,
    step: timedelta = timedelta(seconds=30),
) -> list[Attempt]:
    """Store several plays, `step` apart, oldest first."""
    moment = start or (timezone.now() - step * len(plays))
    made = []
    for reference, played, claim in plays:
        made.append(log_attempt(student, reference, played, claim, session=session, at=moment))
        moment += step
    return made


def log_miss(student: Student, reference: str, cards: list[str], **kwargs: object) -> None:
    """Store a missed equivalence."""
    MissedEquivalence.objects.create(
        classroom=student.classroom,
        student=student,
        reference=reference,
        equal_cards=cards,
        rules_version=RULES_VERSION,
        **kwargs,
    )


# Wrong plays that fit M1 (additive), on three different top cards (each 1 in 8 by chance
# from DEFAULT_HAND: four make M1 "likely"); right plays.
M1_PLAYS: list[tuple[FractionValue | None, FractionValue, str]] = [
    ((1, 2), (2, 3), "equal"),
    ((2, 3), (5, 6), "equal"),
    ((1, 3), (4, 6), "equal"),
    ((1, 2), (2, 3), "equal"),
]
RIGHT_PLAYS: list[tuple[FractionValue | None, FractionValue, str]] = [
    ((1, 2), (3, 6), "equal"),
    ((2, 3), (8, 12), "equal"),
    ((1, 6), (5, 6), "denominator"),
]
