"""Group plans in tests: a class whose children are likely on M1, a plan for them."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from lessons.models import Classroom, GroupPlan, Student, User
from lessons.plans.services import plan_create
from tests.lessons.reporting.helpers import M1_PLAYS, log_plays
from tests.support.factories import make_student

PARIS = ZoneInfo("Europe/Paris")
# A Monday morning at school: the plan's default days are then Tuesday, Thursday, Monday.
MONDAY = datetime(2026, 11, 2, 10, 0, tzinfo=PARIS)


def m1_children(classroom: Classroom, names: list[str]) -> list[Student]:
    """Add children to the class whose plays make M1 likely."""
    children = []
    for name in names:
        student = make_student(classroom=classroom, display_name=name, pin="1357").student
        log_plays(student, M1_PLAYS)
        children.append(student)
    return children


def plan_m1(teacher: User, classroom: Classroom, children: list[Student]) -> GroupPlan:
    """Plan the M1 group with the default days."""
    return plan_create(teacher=teacher, classroom=classroom, rule="M1", students=children)
