"""Seat by need: students sharing a likely misconception play together at aimed tables.

A group is the students whose first likely rule (decks.aim_rule over their likely rules the
deck can show) is the same, two students at least; its tables get that rule's aim options
(decks.practice_options: the engine's aimed dealing, games.engine.aim). The engine aims at one
seat per table (the first student of the table); the others at it still meet the rule's traps
more often than at an ordinary table, since the pairs sit in the dealt hands and on the pile.
Everyone else (a rule shared with nobody, nothing likely) is seated as usual, together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from lessons.aiming.rules import student_result
from lessons.diagnosis.decks import aim_rule, practice_options
from lessons.models import Student
from lessons.warmup.picture import likely_rules

# The table options seating by need adds (kept when a table's students get their next game).
AIM_OPTIONS: Final = ("aim_pairs", "aim_seat")
GROUP_MIN: Final = 2


@dataclass
class NeedGroup:
    """Students to seat together, and the table options that aim at their rule (or none)."""

    rule: str | None
    students: list[Student] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)


def groups_by_need(students: Sequence[Student], *, level: str) -> list[NeedGroup]:
    """Split the students into groups by shared likely rule; the rest last, not aimed."""
    by_rule: dict[str, NeedGroup] = {}
    others = NeedGroup(None)
    for student in students:
        result = student_result(student)
        likely = {rule: result[rule] for rule in likely_rules(result, level)}
        rule = aim_rule(likely) if likely else None
        if rule is None:
            others.students.append(student)
            continue
        by_rule.setdefault(rule, NeedGroup(rule)).students.append(student)
    groups: list[NeedGroup] = []
    for rule, group in by_rule.items():
        if len(group.students) < GROUP_MIN:
            others.students.extend(group.students)
            continue
        options = practice_options({rule: {"status": "likely", "p_value": 0.0}}, level)
        group.options = {key: value for key, value in options.items() if key in AIM_OPTIONS}
        groups.append(group)
    if others.students:
        groups.append(others)
    return groups


__all__ = ["AIM_OPTIONS", "NeedGroup", "groups_by_need"]
