"""The note for a child's family (issue 31 §5): what we work on, five minutes at home, when we
check again, and later the days we checked. In the family's language, for any reader: no rule
code, no percentage, sentences of at most MAX_WORDS words (tests/lessons/plans/test_family.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from math import ceil
from typing import Final

from django.utils import formats, timezone, translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from lessons.diagnosis.evidence import STATUS_HELD, STATUS_RESOLVED
from lessons.diagnosis.rulebook import RULES_BY_ID
from lessons.evidence.loading import RuleStatus, evidence_window, statuses_of, student_rows
from lessons.models import GroupPlan, PlanMember, Student
from lessons.plans.number_lines import parse
from lessons.plans.selectors import equal_partner, wrong_pairs
from lessons.plans.sheet import pair_picture

MAX_WORDS: Final = 20
LANGUAGES: Final = ("fr", "en")


@dataclass(frozen=True)
class FamilyNote:
    """One child's note, its words already in the family's language."""

    student: Student
    lang: str
    title: str
    working_on: list[str]
    at_home: list[str]
    pictures: list[SafeString]  # the pair played as equal, then a really equal pair
    checking: list[str]
    closing: str
    headings: dict[str, str]

    def sentences(self) -> list[str]:
        """Return every sentence of the note (for the length check)."""
        return [*self.working_on, *self.at_home, *self.checking, self.closing]


def _day(day: date) -> str:
    """Return a day in words in the active language ("lundi 16 novembre")."""
    return formats.date_format(day, "l j F")


def _days(days: list[date]) -> str:
    """Return days in words joined as a list ("le lundi 2 novembre et le lundi 16 novembre")."""
    words = [_("on %(date)s") % {"date": _day(day)} for day in days]
    if len(words) == 1:
        return words[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def _pair(plan: GroupPlan, student: Student) -> tuple[str, str]:
    """Return the child's most frequent wrong pair fitting the rule, else the rule's example."""
    pairs = wrong_pairs(plan, [student])
    if pairs:
        return pairs[0][0], pairs[0][1]
    (r, p), *_rest = RULES_BY_ID[plan.rule].examples
    return f"{r[0]}/{r[1]}", f"{p[0]}/{p[1]}"


def _status(plan: GroupPlan, student: Student) -> RuleStatus | None:
    """Return the rule's status for the child over the class's evidence window."""
    window = evidence_window(plan.classroom)
    if window.empty:
        return None
    return statuses_of(student_rows(student.pk, since=window.start)).get(plan.rule)


def _checking(plan: GroupPlan, member: PlanMember, status: RuleStatus | None) -> list[str]:
    """Say when we check again, or the days we checked (the re-checks that passed)."""
    name = member.student.display_name
    passed = status is not None and status.status in (STATUS_RESOLVED, STATUS_HELD)
    days = [check.day for check in status.checks] if status is not None and passed else []
    if days:
        done = _("We checked again %(days)s.") % {"days": _days(days)}
        well = (
            _("Each time, %(name)s avoided this mistake.")
            if len(days) > 1
            else _("%(name)s avoided this mistake.")
        )
        return [done, well % {"name": name}]
    round_ = member.recheck
    if round_ is not None and round_.finished_at is not None:
        checked = timezone.localdate(round_.finished_at)
        return [
            _("We checked again %(days)s.") % {"days": _days([checked])},
            _("We are still working on it in class."),
        ]
    return [
        _("We will check again from %(date)s, with a short warm-up in class.")
        % {"date": _day(plan.recheck_on)}
    ]


def _at_home(first: str, second: str) -> list[str]:
    """Say the five minutes at home: fold two strips, then place both fractions on a line."""
    steps = [_("Cut two paper strips of the same length.")]
    for index, value in enumerate((first, second)):
        top, bottom = value.split("/")
        fold = (
            _("Fold the first strip in %(parts)s equal parts and colour %(shaded)s: that is %(f)s.")
            if index == 0
            else _(
                "Fold the second strip in %(parts)s equal parts and colour %(shaded)s: "
                "that is %(f)s."
            )
        )
        steps.append(fold % {"parts": bottom, "shaded": top, "f": value})
    whole = max(1, ceil(max(parse(first), parse(second), Fraction(0))))
    steps += [
        _("Lay one strip under the other: are the coloured parts the same length?"),
        _("Then draw a line from 0 to %(top)s and place both fractions on it, as below.")
        % {"top": whole},
    ]
    return steps


def family_note(plan: GroupPlan, member: PlanMember, lang: str) -> FamilyNote:
    """Return the note for one child of the plan, in `lang` ("fr" or "en")."""
    student = member.student
    name = student.display_name
    first, second = _pair(plan, student)
    partner = equal_partner(first)
    status = _status(plan, student)
    with translation.override(lang):
        return FamilyNote(
            student=student,
            lang=lang,
            title=_("A note for %(name)s's family") % {"name": name},
            working_on=[
                _("In class, %(name)s is working on equal fractions in a small group.")
                % {"name": name},
                _("Sometimes %(name)s plays %(a)s and %(b)s as if they were equal.")
                % {"name": name, "a": first, "b": second},
                _("On a number line they are not at the same place."),
                _("Equal fractions fall at the same place, like %(a)s and %(c)s.")
                % {"a": first, "c": partner},
            ],
            at_home=_at_home(first, second),
            pictures=[
                pair_picture(first, second, right=False),
                pair_picture(first, partner, right=True),
            ],
            checking=_checking(plan, member, status),
            closing=_("Thank you for your help at home."),
            headings={
                "working_on": _("What we are working on"),
                "at_home": _("Five minutes at home"),
                "checking": _("When we check again"),
            },
        )


def family_notes(plan: GroupPlan, lang: str) -> list[FamilyNote]:
    """Return the note of every child of the plan still in its class, in order."""
    members = (
        plan.memberships.select_related("student", "recheck")
        .filter(student__classroom_id=plan.classroom_id, student__pseudonymised_at__isnull=True)
        .order_by("id")
    )
    return [family_note(plan, member, lang) for member in members]


def plan_member(plan: GroupPlan, student_id: int) -> PlanMember | None:
    """Return the plan's membership of a child still in its class (not moved, not removed)."""
    return (
        plan.memberships.select_related("student", "recheck")
        .filter(
            student_id=student_id,
            student__classroom_id=plan.classroom_id,
            student__pseudonymised_at__isnull=True,
        )
        .first()
    )
