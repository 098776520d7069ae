"""Reads of group plans, scoped to who asks: the loop per group, a child's plan in their words."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Count, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Table
from lessons.classrooms.selectors import classroom_for_teacher
from lessons.evidence.loading import RuleStatus, evidence_window, statuses_of, student_rows
from lessons.models import Classroom, GroupPlan, PlanMember, PracticeTable, Student, User
from lessons.plans.services import GAMES, today

# The most frequent wrong pairs a plan draws.
PAIRS_SHOWN = 3


def plan_for_teacher(*, teacher: User, classroom_id: int, plan_id: int) -> GroupPlan | None:
    """Return a plan of a class the teacher teaches (owner or co-teacher), or None."""
    classroom = classroom_for_teacher(teacher=teacher, classroom_id=classroom_id)
    if classroom is None:
        return None
    return GroupPlan.objects.filter(pk=plan_id, classroom=classroom).first()


def latest_plans(classroom: Classroom) -> dict[str, GroupPlan]:
    """Return each rule's latest plan in the class."""
    out: dict[str, GroupPlan] = {}
    for plan in GroupPlan.objects.filter(classroom=classroom).order_by("-created_at", "-id"):
        out.setdefault(plan.rule, plan)
    return out


def members_of(plan: GroupPlan) -> list[PlanMember]:
    """Return the plan's memberships with their child and re-check round, in order."""
    return list(plan.memberships.select_related("student", "recheck").order_by("id"))


def games_played(plan: GroupPlan, students: list[int]) -> dict[int, int]:
    """Return the plan's games each child finished (at most GAMES)."""
    if plan.assignment_id is None:
        return {}
    rows = (
        PracticeTable.objects.filter(
            assignment_id=plan.assignment_id,
            student_id__in=students,
            table__status=Table.Status.FINISHED,
        )
        .values_list("student_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {student: min(n, GAMES) for student, n in rows}


def wrong_pairs(plan: GroupPlan, members: list[Student]) -> list[tuple[str, str, int]]:
    """Return the group's most frequent wrong pairs fitting the rule: (reference, played, n)."""
    window = evidence_window(plan.classroom)
    if window.empty:
        return []
    counts: Counter[tuple[str, str]] = Counter()
    for student in members:
        for row in student_rows(student.pk, since=window.start):
            if row.correct or plan.rule not in row.tags or row.reference is None:
                continue
            ref = f"{row.reference[0]}/{row.reference[1]}"
            counts[(ref, f"{row.played[0]}/{row.played[1]}")] += 1
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [(ref, played, n) for (ref, played), n in ranked[:PAIRS_SHOWN]]


def equal_partner(reference: str) -> str:
    """Return a fraction equal to `reference` with twice its parts (1/2 → 2/4): a right pair."""
    top, bottom = (int(n) for n in reference.split("/"))
    return f"{top * 2}/{bottom * 2}"


@dataclass(frozen=True)
class MemberLoop:
    """One child of a plan: games played, the re-check, the rule's status now."""

    student: Student
    played: int
    status: RuleStatus | None
    recheck_day: date | None  # the day their plan's re-check round ended
    recheck_open: bool  # started, not finished
    due: bool  # the re-check day has come and they have not done it

    @property
    def held(self) -> bool:
        """Tell whether the rule is "held" for the child."""
        return self.status is not None and self.status.status == "held"

    @property
    def likely(self) -> bool:
        """Tell whether the rule is still "likely" for the child."""
        return self.status is not None and self.status.status == "likely"

    @property
    def clean(self) -> bool:
        """Tell whether the rule was not likely after the child's re-check."""
        return self.recheck_day is not None and not self.likely


@dataclass(frozen=True)
class Loop:
    """What happened since a group was found: worked on, checked again, held."""

    plan: GroupPlan
    members: list[MemberLoop]

    @property
    def games_done(self) -> int:
        """Return the games the children played of those planned."""
        return sum(line.played for line in self.members)

    @property
    def games_planned(self) -> int:
        """Return the games planned for the group."""
        return GAMES * len(self.members)

    @property
    def checked(self) -> list[MemberLoop]:
        """Return the children whose re-check is over."""
        return [line for line in self.members if line.recheck_day is not None]

    @property
    def last_check(self) -> date | None:
        """Return the day of the latest re-check."""
        days = [line.recheck_day for line in self.checked if line.recheck_day]
        return max(days) if days else None

    @property
    def held(self) -> int:
        """Return how many children hold the result ("held")."""
        return sum(1 for line in self.members if line.held)

    @property
    def still_likely(self) -> list[Student]:
        """Return the children for whom the habit is still likely."""
        return [line.student for line in self.members if line.likely]

    @property
    def due(self) -> list[Student]:
        """Return the children whose re-check day has come and who have not done it."""
        return [line.student for line in self.members if line.due]


def plan_loop(plan: GroupPlan, *, day: date | None = None) -> Loop:
    """Return the plan's loop as of `day` (default today)."""
    now = today() if day is None else day
    memberships = members_of(plan)
    played = games_played(plan, [m.student_id for m in memberships])
    window = evidence_window(plan.classroom)
    lines = []
    for member in memberships:
        statuses = {}
        if not window.empty:
            statuses = statuses_of(student_rows(member.student_id, since=window.start))
        round_ = member.recheck
        finished = round_.finished_at if round_ is not None else None
        lines.append(
            MemberLoop(
                student=member.student,
                played=played.get(member.student_id, 0),
                status=statuses.get(plan.rule),
                recheck_day=None if finished is None else formats_day(finished),
                recheck_open=round_ is not None and finished is None,
                due=plan.recheck_on <= now and finished is None,
            )
        )
    return Loop(plan=plan, members=lines)


def formats_day(moment: Any) -> date:
    """Return a stored time's day in the school's time zone."""
    return timezone.localdate(moment)


def due_rechecks(
    classroom: Classroom, *, day: date | None = None
) -> list[tuple[GroupPlan, Student]]:
    """Return (plan, child) whose plan re-check day has come and who have not finished it."""
    now = today() if day is None else day
    members = (
        PlanMember.objects.filter(plan__classroom=classroom, plan__recheck_on__lte=now)
        .exclude(recheck__finished_at__isnull=False)
        .select_related("plan", "student")
        .order_by("plan__recheck_on", "student__display_name", "id")
    )
    return [(m.plan, m.student) for m in members if m.student.pseudonymised_at is None]


def plans_for_student(*, student: Student | None) -> QuerySet[GroupPlan]:
    """Return the plans a child belongs to whose re-check they have not finished."""
    if student is None:
        return GroupPlan.objects.none()
    open_ids = (
        # A plan of a class the child has left is not theirs to follow any more.
        PlanMember.objects.filter(student=student, plan__classroom_id=student.classroom_id)
        .exclude(recheck__finished_at__isnull=False)
        .values("plan_id")
    )
    return GroupPlan.objects.filter(pk__in=open_ids).order_by("recheck_on", "id")


def _when(day: date, now: date) -> tuple[str, bool]:
    """Return a day as a child reads it: its weekday within the week (True), else its date."""
    if 0 <= (day - now).days < 7:
        return formats.date_format(day, "l"), True
    return formats.date_format(day, "j F"), False


def child_words(plan: GroupPlan, played: int, *, day: date | None = None) -> str:
    """Return the plan in a child's words: "3 parties d’ici vendredi (une par jour), puis un
    petit échauffement le 16 novembre"."""
    now = today() if day is None else day
    if plan.recheck_on <= now:
        return _("Your short warm-up is waiting for you.")
    left = max(0, GAMES - played)
    when, weekday = _when(plan.recheck_on, now)
    if left and plan.game3_on >= now:
        by, by_weekday = _when(plan.game3_on, now)
        games = (
            ngettext(
                "%(n)d game by %(day)s (one a day)", "%(n)d games by %(day)s (one a day)", left
            )
            if by_weekday
            else ngettext(
                "%(n)d game by %(date)s (one a day)", "%(n)d games by %(date)s (one a day)", left
            )
        ) % {"n": left, "day": by, "date": by}
        then = (
            _("then a short warm-up on %(day)s.")
            if weekday
            else _("then a short warm-up on %(date)s.")
        ) % {"day": when, "date": when}
        return _("%(games)s, %(then)s") % {"games": games, "then": then}
    return (_("A short warm-up on %(day)s.") if weekday else _("A short warm-up on %(date)s.")) % {
        "day": when,
        "date": when,
    }


def pupil_plan_lines(student: Student | None, *, day: date | None = None) -> list[dict[str, Any]]:
    """Return what was planned for the child: the words, and whether the re-check is open."""
    if student is None:
        return []
    now = today() if day is None else day
    plans = list(plans_for_student(student=student))
    lines = []
    for plan in plans:
        played = games_played(plan, [student.pk]).get(student.pk, 0)
        lines.append(
            {
                "plan": plan,
                "words": child_words(plan, played, day=now),
                "recheck_open": plan.recheck_on <= now,
                "played": played,
            }
        )
    return lines


__all__ = [
    "Loop",
    "MemberLoop",
    "child_words",
    "due_rechecks",
    "equal_partner",
    "latest_plans",
    "plan_for_teacher",
    "plan_loop",
    "pupil_plan_lines",
    "wrong_pairs",
]


def likely_students(classroom: Classroom, rule: str) -> list[Student]:
    """Return the class's present children for whom the rule is likely (the group)."""
    window = evidence_window(classroom)
    if window.empty:
        return []
    out = []
    for student in classroom.students.filter(pseudonymised_at__isnull=True).order_by("pk"):
        figures = statuses_of(student_rows(student.pk, since=window.start)).get(rule)
        if figures is not None and figures.status == "likely":
            out.append(student)
    return out
