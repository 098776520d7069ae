"""The class picture after a warm-up, in words: who shares which likely misconception.

Every status comes from the one diagnosis every page reads (lessons.evidence.loading
.statuses_of over the class's evidence window: game turns and warm-up answers together), so
the picture says what the dashboard and the reports say. Three groups, in this order: students
grouped by a likely misconception (a student likely on two rules is in both groups), "not
sure yet" (a rule emerging: a hint, not a finding), and "no sign of a misconception" (answered,
nothing likely or emerging). Students who have not answered anything yet are listed apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import get_language

from lessons.aiming.rules import student_result
from lessons.diagnosis import RULES_BY_ID, STATUS_EMERGING, STATUS_LIKELY
from lessons.diagnosis.decks import rules_possible
from lessons.diagnosis.model import TESTED_RULES
from lessons.models import Student


@dataclass
class RuleGroup:
    """Students with one rule likely, with the rule's words for the teacher."""

    rule: str
    name: str
    teacher: str
    try_this: str
    students: list[Student] = field(default_factory=list)


@dataclass
class ClassPicture:
    """The class picture: groups by likely rule, not sure yet, no sign, not answered."""

    groups: list[RuleGroup]
    not_sure: list[tuple[Student, list[str]]]  # each with the names of its emerging rules
    no_sign: list[Student]
    not_answered: list[Student]

    @property
    def empty(self) -> bool:
        """Tell whether nobody has answered anything yet."""
        return not (self.groups or self.not_sure or self.no_sign)


def _lang() -> str:
    return "en" if (get_language() or "fr").startswith("en") else "fr"


def likely_rules(result: dict[str, dict[str, Any]], level: str) -> list[str]:
    """Return the rules the level can show that are likely, in RULE_IDS order."""
    possible = rules_possible(level)
    return [
        rule
        for rule in TESTED_RULES
        if rule in possible and result.get(rule, {}).get("status") == STATUS_LIKELY
    ]


def class_picture(
    students: Iterable[Student], *, answered: dict[int, int], level: str
) -> ClassPicture:
    """Return the class picture of these students (`answered`: items answered per student)."""
    lang = _lang()
    possible = rules_possible(level)
    groups: dict[str, RuleGroup] = {}
    not_sure: list[tuple[Student, list[str]]] = []
    no_sign: list[Student] = []
    not_answered: list[Student] = []
    for student in students:
        result = student_result(student)
        likely = likely_rules(result, level)
        for rule in likely:
            if rule not in groups:
                texts = RULES_BY_ID[rule]
                groups[rule] = RuleGroup(
                    rule, texts.name[lang], texts.teacher[lang], texts.try_this[lang]
                )
            groups[rule].students.append(student)
        if likely:
            continue
        emerging = [
            RULES_BY_ID[rule].name[lang]
            for rule in TESTED_RULES
            if rule in possible and result.get(rule, {}).get("status") == STATUS_EMERGING
        ]
        if emerging:
            not_sure.append((student, emerging))
        elif answered.get(student.pk, 0):
            no_sign.append(student)
        else:
            not_answered.append(student)
    ordered = sorted(groups.values(), key=lambda g: (-len(g.students), TESTED_RULES.index(g.rule)))
    return ClassPicture(ordered, not_sure, no_sign, not_answered)


__all__ = ["ClassPicture", "RuleGroup", "class_picture", "likely_rules"]
