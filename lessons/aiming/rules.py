"""Aim a student's practice at their misconception, from the same diagnosis as every dashboard.

The statuses come from the pupil's one evidence object (lessons.evidence.evidence
.window_evidence: diagnose() over the class's evidence window), so the practice aims at what
the teacher's dashboard and the student's report show. lessons.diagnosis.decks turns a
"likely" (else "emerging") rule into the engine's options; a rule the chosen deck can never
show is left out first, so a student likely on M8 (improper fractions only) and emerging on M1
still gets M1 aimed at on the full deck.
"""

from __future__ import annotations

from typing import Any

from lessons.diagnosis.decks import DECK_LEVELS, aim_rule, practice_options, rules_possible
from lessons.evidence.evidence import window_evidence
from lessons.models import Student

Result = dict[str, dict[str, Any]]


def student_result(student: Student) -> Result:
    """Return the student's diagnosis as decks.aim_rule reads it: status and p-value per rule."""
    return {
        rule: {"status": figures.status, "p_value": figures.p_value}
        for rule, figures in window_evidence(student).statuses.items()
    }


def shown_by(result: Result, level: str) -> Result:
    """Keep the rules of the result that the deck level can show."""
    possible = rules_possible(level)
    return {rule: figures for rule, figures in result.items() if rule in possible}


def focus_rule(student: Student) -> str | None:
    """Return the rule the student should practise next (likely, else emerging), or None."""
    return aim_rule(student_result(student))


def aimed_options(user: Any, deck_level: str) -> dict[str, Any]:
    """Return the aim options ("aim_pairs", "aim_seat") of a student's practice table, or {}.

    The games app's practice hook: anyone but a student of a class, an unknown deck level, or a
    diagnosis with nothing likely or emerging that the deck can show gets {} (an ordinary deal).
    """
    student = getattr(user, "student", None) if getattr(user, "is_student", False) else None
    if not isinstance(student, Student) or deck_level not in DECK_LEVELS:
        return {}
    options = practice_options(shown_by(student_result(student), deck_level), deck_level)
    return {key: value for key, value in options.items() if key != "deck"}
