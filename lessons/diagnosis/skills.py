"""Tag each fraction claim with the skills it exercises, and rate each skill's state.

Skills: S1 same denominator; S2 equal fractions within 2, 3, 6; S3 with 12; S4 with 24 or 48;
S5 simplifying (the played card has the smaller denominator); S6 fractions of 1 or more.
A skill's state reads its last WINDOW opportunities, Khan/IXL style; the cut-offs are module
constants so reports can print them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType
from typing import Final

from games.engine.fractions import FractionValue, parse_fraction

SKILL_IDS: Final = ("S1", "S2", "S3", "S4", "S5", "S6")
SMALL_DENOMINATORS: Final = frozenset({2, 3, 6})


@dataclass(frozen=True)
class Skill:
    """A skill: names and description in fr/en, and the standards it serves."""

    id: str
    name: dict[str, str]
    description: dict[str, str]
    ccss: tuple[str, ...]
    france: dict[str, str]


SKILLS: Final[Mapping[str, Skill]] = MappingProxyType(
    {
        "S1": Skill(
            "S1",
            {"fr": "Même dénominateur", "en": "Same denominator"},
            {
                "fr": "Reconnaître que deux fractions ont le même dénominateur, et qu’elles "
                "ne sont égales que si les numérateurs le sont aussi.",
                "en": "Spot two fractions with the same denominator, and know they are equal "
                "only when the numerators match too.",
            },
            ("3.NF.A.3d",),
            {
                "fr": "Cycle 3 (CM1) : comparer des fractions qui ont le même dénominateur.",
                "en": "Cycle 3 (CM1): compare fractions that share a denominator.",
            },
        ),
        "S2": Skill(
            "S2",
            {"fr": "Égalités avec 2, 3 et 6", "en": "Equal fractions with 2, 3 and 6"},
            {
                "fr": "Reconnaître des fractions égales en demis, tiers et sixièmes "
                "(1/2 = 3/6, 2/3 = 4/6).",
                "en": "Recognise equal fractions in halves, thirds and sixths "
                "(1/2 = 3/6, 2/3 = 4/6).",
            },
            ("3.NF.A.3b",),
            {
                "fr": "Cycle 3 : connaître des égalités entre fractions courantes.",
                "en": "Cycle 3: know equalities between common fractions.",
            },
        ),
        "S3": Skill(
            "S3",
            {"fr": "Égalités avec 12", "en": "Equal fractions with 12"},
            {
                "fr": "Trouver des fractions égales quand l’une est en douzièmes (2/3 = 8/12).",
                "en": "Find equal fractions when one is in twelfths (2/3 = 8/12).",
            },
            ("4.NF.A.1",),
            {
                "fr": "Cycle 3 (6e) : une fraction ne change pas si l’on multiplie son "
                "numérateur et son dénominateur par un même nombre.",
                "en": "Cycle 3 (6e): a fraction keeps its value when numerator and denominator "
                "are multiplied by the same number.",
            },
        ),
        "S4": Skill(
            "S4",
            {"fr": "Égalités avec 24 et 48", "en": "Equal fractions with 24 and 48"},
            {
                "fr": "Trouver des fractions égales avec de grands dénominateurs (5/6 = 40/48).",
                "en": "Find equal fractions with large denominators (5/6 = 40/48).",
            },
            ("4.NF.A.1 (extended)", "5.NF.A.1 (readiness)"),
            {
                "fr": "Cycle 3 (6e) : fractions égales, au-delà des dénominateurs usuels.",
                "en": "Cycle 3 (6e): equal fractions, beyond the usual denominators.",
            },
        ),
        "S5": Skill(
            "S5",
            {"fr": "Simplifier", "en": "Simplifying"},
            {
                "fr": "Trouver une fraction égale avec un plus petit dénominateur (8/12 = 2/3).",
                "en": "Find an equal fraction with a smaller denominator (8/12 = 2/3).",
            },
            ("4.NF.A.1",),
            {
                "fr": "Cycle 3 (6e) : fractions égales, en divisant numérateur et "
                "dénominateur par un même nombre.",
                "en": "Cycle 3 (6e): equal fractions, dividing numerator and denominator by "
                "the same number.",
            },
        ),
        "S6": Skill(
            "S6",
            {"fr": "Fractions de 1 ou plus", "en": "Fractions of 1 or more"},
            {
                "fr": "Travailler avec des fractions au moins égales à 1 (9/6 = 1 + 3/6).",
                "en": "Work with fractions worth 1 or more (9/6 = 1 + 3/6).",
            },
            ("3.NF.A.3c", "MA 4.NF.A.1"),
            {
                "fr": "Cycle 3 : écrire une fraction comme un entier plus une fraction "
                "plus petite que 1.",
                "en": "Cycle 3: write a fraction as a whole number plus a fraction less than 1.",
            },
        ),
    }
)
STANDARDS_NOTE: Final = {
    "fr": "Correspondances indicatives, à vérifier avec le texte officiel en vigueur "
    "(programmes de cycle 3 de 2025, Common Core).",
    "en": "Indicative mapping, to be checked against the official texts in force "
    "(2025 French cycle 3 programme, Common Core).",
}

WINDOW: Final = 10
FAMILIAR_MIN_ACCURACY: Final = 0.70
PROFICIENT_MIN_ACCURACY: Final = 0.90
PROFICIENT_MIN_STREAK: Final = 3
MASTERED_MIN_DAYS: Final = 2
SKILL_CUTOFFS: Final[Mapping[str, float]] = MappingProxyType(
    {
        "window": WINDOW,
        "familiar_min_accuracy": FAMILIAR_MIN_ACCURACY,
        "proficient_min_accuracy": PROFICIENT_MIN_ACCURACY,
        "proficient_min_streak": PROFICIENT_MIN_STREAK,
        "mastered_min_days": MASTERED_MIN_DAYS,
    }
)

SKILL_CUTOFFS_TEXT: Final[Mapping[str, str]] = MappingProxyType(
    {
        "fr": f"Sur les {WINDOW} dernières occasions : Essayé sous "
        f"{FAMILIAR_MIN_ACCURACY * 100:.0f} % de réussite ; Familiarisé à partir de "
        f"{FAMILIAR_MIN_ACCURACY * 100:.0f} % ; Compétent à partir de "
        f"{PROFICIENT_MIN_ACCURACY * 100:.0f} % "
        f"avec les {PROFICIENT_MIN_STREAK} dernières réussies ; Maîtrisé : Compétent lors "
        f"d’au moins {MASTERED_MIN_DAYS} séances, des jours différents. Une erreur fait "
        "redescendre.",
        "en": f"Over the last {WINDOW} chances: Attempted below {FAMILIAR_MIN_ACCURACY:.0%} "
        f"correct; Familiar from {FAMILIAR_MIN_ACCURACY:.0%}; Proficient from "
        f"{PROFICIENT_MIN_ACCURACY:.0%} with the last {PROFICIENT_MIN_STREAK} right; "
        f"Mastered: Proficient in at least {MASTERED_MIN_DAYS} sessions on different days. "
        "A miss moves the state down.",
    }
)

NOT_STARTED: Final = "not_started"
ATTEMPTED: Final = "attempted"
FAMILIAR: Final = "familiar"
PROFICIENT: Final = "proficient"
MASTERED: Final = "mastered"
STATES: Final = (NOT_STARTED, ATTEMPTED, FAMILIAR, PROFICIENT, MASTERED)
STATE_LABELS: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {
        NOT_STARTED: {"fr": "Pas commencé", "en": "Not started"},
        ATTEMPTED: {"fr": "Essayé", "en": "Attempted"},
        FAMILIAR: {"fr": "Familiarisé", "en": "Familiar"},
        PROFICIENT: {"fr": "Compétent", "en": "Proficient"},
        MASTERED: {"fr": "Maîtrisé", "en": "Mastered"},
    }
)


def skill_tags(reference: FractionValue, played: FractionValue) -> list[str]:
    """Return the skills a claim of `played` on `reference` exercises, in SKILL_IDS order.

    S2-S4 need deck denominators (games.engine.cards.DENOMINATORS) and differing denominators.
    """
    a, b = parse_fraction(reference)
    c, d = parse_fraction(played)
    tags = []
    if b == d:
        tags.append("S1")
    elif {b, d} <= SMALL_DENOMINATORS:
        tags.append("S2")
    elif max(b, d) == 12 and min(b, d) in SMALL_DENOMINATORS:
        tags.append("S3")
    elif max(b, d) in (24, 48) and min(b, d) in SMALL_DENOMINATORS | {12, 24}:
        tags.append("S4")
    if d < b:
        tags.append("S5")
    if a >= b or c >= d:
        tags.append("S6")
    return tags


def factor(reference: FractionValue, played: FractionValue) -> float:
    """Return k = max(b, d) / min(b, d), the scale between the two denominators."""
    b, d = parse_fraction(reference)[1], parse_fraction(played)[1]
    return max(b, d) / min(b, d)


def standards_tags(reference: FractionValue, played: FractionValue) -> list[str]:
    """Return the CCSS codes of the skills the claim exercises, without repeats."""
    codes: list[str] = []
    for skill in skill_tags(reference, played):
        codes.extend(code for code in SKILLS[skill].ccss if code not in codes)
    return codes


@dataclass(frozen=True)
class Opportunity:
    """One claim that exercised a skill: was it right, in which session, on which day."""

    correct: bool
    session: Hashable
    day: date


@dataclass(frozen=True)
class SkillProgress:
    """A skill's state for one student, with the figures behind it."""

    state: str
    accuracy: float | None
    window: int
    streak: int
    opportunities: int
    proficient_sessions: tuple[tuple[Hashable, date], ...] = ()
    reached: Mapping[str, date] = field(default_factory=dict)


def _window_state(recent: deque[bool], streak: int) -> str:
    accuracy = sum(recent) / len(recent)
    if accuracy >= PROFICIENT_MIN_ACCURACY and streak >= PROFICIENT_MIN_STREAK:
        return PROFICIENT
    if accuracy >= FAMILIAR_MIN_ACCURACY:
        return FAMILIAR
    return ATTEMPTED


def _mastered(proficient: dict[Hashable, set[date]]) -> bool:
    """Tell whether enough sessions, held on different days, reached proficiency.

    With a minimum of 2, at least 2 sessions and 2 days always yield two sessions on
    different days.
    """
    days = {day for session_days in proficient.values() for day in session_days}
    return len(proficient) >= MASTERED_MIN_DAYS and len(days) >= MASTERED_MIN_DAYS


def skill_progress(opportunities: Iterable[Opportunity]) -> SkillProgress:
    """Rate one skill from its opportunities, oldest first.

    Proficient needs PROFICIENT_MIN_ACCURACY over the last WINDOW and the last
    PROFICIENT_MIN_STREAK correct; Mastered needs Proficient now and in two sessions held on
    different days. A miss demotes the state; `reached` keeps the first day of each state.
    """
    recent: deque[bool] = deque(maxlen=WINDOW)
    streak = count = 0
    state = NOT_STARTED
    proficient: dict[Hashable, set[date]] = {}
    reached: dict[str, date] = {}
    for opportunity in opportunities:
        count += 1
        recent.append(bool(opportunity.correct))
        streak = streak + 1 if opportunity.correct else 0
        state = _window_state(recent, streak)
        if state == PROFICIENT:
            proficient.setdefault(opportunity.session, set()).add(opportunity.day)
            if _mastered(proficient):
                state = MASTERED
        for earned in STATES[1 : STATES.index(state) + 1]:
            reached.setdefault(earned, opportunity.day)
    return SkillProgress(
        state=state,
        accuracy=sum(recent) / len(recent) if recent else None,
        window=len(recent),
        streak=streak,
        opportunities=count,
        proficient_sessions=tuple(
            (session, day) for session, days in proficient.items() for day in sorted(days)
        ),
        reached=reached,
    )


def progress_by_skill(
    claims: Iterable[tuple[FractionValue, FractionValue, bool, Hashable, date]],
) -> dict[str, SkillProgress]:
    """Rate every skill from one student's claims (reference, played, correct, session, day).

    Claims come oldest first; skills never exercised are "not_started".
    """
    per_skill: dict[str, list[Opportunity]] = {skill: [] for skill in SKILL_IDS}
    for reference, played, correct, session, day in claims:
        for skill in skill_tags(reference, played):
            per_skill[skill].append(Opportunity(correct, session, day))
    return {skill: skill_progress(per_skill[skill]) for skill in SKILL_IDS}
