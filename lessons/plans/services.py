"""Group plans: plan a misconception group's activity, games and re-check; mark what was done.

Every function takes keyword-only arguments and raises ValidationError with a translated
message when the request cannot be honoured; nothing changes then. Only a teacher of the class
(owner or co-teacher) plans or changes a plan; only a child of the plan starts its re-check.

The three games are a practice assignment (lessons.practice) for the plan's children, due on
the last game's day and played at most one a day (PracticeAssignment.one_a_day): spaced
practice, not three games in one sitting. The re-check is a warm-up round each child may start
from the re-check day, which is at least HELD_MIN_DAYS after the last game: a clean round then
is the delayed check that can show the habit "held" (lessons.diagnosis).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from datetime import date, timedelta
from typing import Any, Final

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lessons.classrooms.grade_decks import FULL_DECK, deck_for_grade
from lessons.classrooms.selectors import teacher_teaches
from lessons.diagnosis import HELD_MIN_DAYS
from lessons.diagnosis.decks import rules_possible
from lessons.diagnosis.rulebook import RULES_BY_ID
from lessons.evidence.loading import evidence_window, student_rows
from lessons.models import Classroom, GroupPlan, PlanMember, Student, User, WarmupRound
from lessons.plans.activities import ACTIVITIES, activity_for
from lessons.practice.services import assignment_create

GAMES: Final = 3
# The furthest ahead a plan's days may go.
MAX_DAYS_AHEAD: Final = 90
# Saturday and Sunday: the days the default dates skip.
WEEKEND: Final = (5, 6)

NOT_YOUR_CLASS = _("You do not teach this class.")
CLASSROOM_ARCHIVED = _("This class is archived: it can be read but not changed.")
UNKNOWN_RULE = _("This misconception is not one the diagnosis knows.")
UNKNOWN_ACTIVITY = _("Choose one of the activities.")
NO_MEMBERS = _("Choose at least one child of this class.")
NOT_IN_CLASS = _("Choose children of this class only.")
BAD_DATES = _("Give three game days, each later than the one before (one game a day).")
DATE_PAST = _("A new date cannot be in the past: choose today or a later day.")
TOO_FAR = _("Choose days within the next %(days)d days.")
RECHECK_TOO_SOON = _(
    "The re-check must come at least %(days)d days after the last game, so that it shows what "
    "stayed."
)
DONE_BAD_DAY = _("The activity was done between the plan's first day and today.")
NOT_YOURS = _("This plan is not for you.")
RECHECK_NOT_YET = _("The warm-up opens on its day.")
RECHECK_DONE = _("You have done this warm-up already.")


def today() -> date:
    """Return today's date in the school's time zone."""
    return timezone.localdate()


def _refuse(message: Any, code: str, **params: Any) -> ValidationError:
    return ValidationError(message, code=code, params=params or None)


def _next_school_day(day: date) -> date:
    while day.weekday() in WEEKEND:
        day += timedelta(days=1)
    return day


def default_dates(start: date) -> tuple[date, date, date, date]:
    """Return three game days a day apart or more (school days) and the re-check a week after.

    The first game the next school day, each next one at least two days after the one before;
    the re-check the first school day at least HELD_MIN_DAYS after the last game.
    """
    first = _next_school_day(start + timedelta(days=1))
    second = _next_school_day(first + timedelta(days=2))
    third = _next_school_day(second + timedelta(days=2))
    return first, second, third, _next_school_day(third + timedelta(days=HELD_MIN_DAYS))


def _check_teacher(teacher: User, classroom: Classroom) -> None:
    if not teacher_teaches(teacher=teacher, classroom=classroom):
        raise _refuse(NOT_YOUR_CLASS, "not_teacher")
    if classroom.archived_at is not None:
        raise _refuse(CLASSROOM_ARCHIVED, "archived")


def _members(classroom: Classroom, students: Iterable[Student | int]) -> list[Student]:
    ids: set[int] = set()
    for value in students:
        pk = value.pk if isinstance(value, Student) else value
        if not isinstance(pk, int) or isinstance(pk, bool):
            raise _refuse(NOT_IN_CLASS, "not_in_class")
        ids.add(pk)
    if not ids:
        raise _refuse(NO_MEMBERS, "no_members")
    chosen = list(
        Student.objects.filter(classroom=classroom, pk__in=ids, pseudonymised_at__isnull=True)
    )
    if len(chosen) != len(ids):
        raise _refuse(NOT_IN_CLASS, "not_in_class")
    return chosen


def _check_dates(
    games: Sequence[object], recheck_on: object, *, before: Sequence[date] = ()
) -> tuple[date, date, date, date]:
    """Check three increasing game days and a re-check a week after the last; return them.

    `before`: the plan's days so far; a day left as it was may be in the past, a changed one
    may not.
    """
    if len(games) != GAMES or not all(isinstance(day, date) for day in (*games, recheck_on)):
        raise _refuse(BAD_DATES, "bad_dates")
    days: list[date] = [day for day in games if isinstance(day, date)]
    assert isinstance(recheck_on, date)
    if any(later <= earlier for earlier, later in zip(days, days[1:], strict=False)):
        raise _refuse(BAD_DATES, "bad_dates")
    now = today()
    for day in (*days, recheck_on):
        if day < now and day not in before:
            raise _refuse(DATE_PAST, "past")
        if day > now + timedelta(days=MAX_DAYS_AHEAD):
            raise _refuse(TOO_FAR, "too_far", days=MAX_DAYS_AHEAD)
    if recheck_on < days[-1] + timedelta(days=HELD_MIN_DAYS):
        raise _refuse(RECHECK_TOO_SOON, "recheck_too_soon", days=HELD_MIN_DAYS)
    return days[0], days[1], days[2], recheck_on


def plan_deck(classroom: Classroom, rule: str) -> str:
    """Return the deck the plan's games use: the class's grade's, if it can show the rule."""
    deck = deck_for_grade(classroom.grade)
    return deck if rule in rules_possible(deck) else FULL_DECK


def found_on(classroom: Classroom, rule: str, members: Sequence[Student]) -> date | None:
    """Return the day of the first wrong claim fitting the rule among the members (window)."""
    window = evidence_window(classroom)
    if window.empty:
        return None
    days = [
        row.day
        for student in members
        for row in student_rows(student.pk, since=window.start, full=True)
        if not row.correct and rule in row.tags
    ]
    return min(days) if days else None


def plan_create(
    *,
    teacher: User,
    classroom: Classroom,
    rule: object,
    students: Iterable[Student | int],
    activity: object = None,
    games: Sequence[object] | None = None,
    recheck_on: object = None,
) -> GroupPlan:
    """Plan a group's activity, three games (one a day at most) and its re-check.

    Without `activity`, the one proposed for the rule; without days, default_dates().
    """
    _check_teacher(teacher, classroom)
    if not isinstance(rule, str) or rule not in RULES_BY_ID:
        raise _refuse(UNKNOWN_RULE, "unknown_rule")
    key = activity_for(rule).key if activity is None else activity
    if not isinstance(key, str) or key not in ACTIVITIES:
        raise _refuse(UNKNOWN_ACTIVITY, "unknown_activity")
    members = _members(classroom, students)
    if games is None or recheck_on is None:
        *default_games, default_recheck = default_dates(today())
        games = default_games if games is None else games
        recheck_on = default_recheck if recheck_on is None else recheck_on
    first, second, third, recheck = _check_dates(games, recheck_on)
    deck = plan_deck(classroom, rule)
    with transaction.atomic():
        assignment = assignment_create(
            teacher=teacher,
            classroom=classroom,
            games=GAMES,
            deck=deck,
            due_on=third,
            students=members,
        )
        assignment.one_a_day = True
        assignment.save(update_fields=["one_a_day"])
        plan = GroupPlan.objects.create(
            classroom=classroom,
            rule=rule,
            activity=key,
            deck=deck,
            game1_on=first,
            game2_on=second,
            game3_on=third,
            recheck_on=recheck,
            found_on=found_on(classroom, rule, members),
            assignment=assignment,
            created_by=teacher,
        )
        PlanMember.objects.bulk_create(PlanMember(plan=plan, student=s) for s in members)
    return plan


def plan_update(
    *,
    teacher: User,
    plan: GroupPlan,
    students: Iterable[Student | int],
    games: Sequence[object],
    recheck_on: object,
    activity: object = None,
) -> GroupPlan:
    """Change a plan's children, days or activity; its games' assignment follows."""
    classroom = plan.classroom
    _check_teacher(teacher, classroom)
    key = plan.activity if activity is None else activity
    if not isinstance(key, str) or key not in ACTIVITIES:
        raise _refuse(UNKNOWN_ACTIVITY, "unknown_activity")
    members = _members(classroom, students)
    before = (plan.game1_on, plan.game2_on, plan.game3_on, plan.recheck_on)
    first, second, third, recheck = _check_dates(games, recheck_on, before=before)
    with transaction.atomic():
        plan.activity = key
        plan.game1_on, plan.game2_on, plan.game3_on = first, second, third
        plan.recheck_on = recheck
        plan.save(update_fields=["activity", "game1_on", "game2_on", "game3_on", "recheck_on"])
        keep = {s.pk for s in members}
        PlanMember.objects.filter(plan=plan).exclude(student_id__in=keep).delete()
        have = set(PlanMember.objects.filter(plan=plan).values_list("student_id", flat=True))
        PlanMember.objects.bulk_create(
            PlanMember(plan=plan, student=s) for s in members if s.pk not in have
        )
        assignment = plan.assignment
        if assignment is not None:
            assignment.due_on = third
            assignment.save(update_fields=["due_on"])
            assignment.students.set(members)
    return plan


def plan_mark_done(*, teacher: User, plan: GroupPlan, on: object = None) -> GroupPlan:
    """Mark the plan's activity done with the group on `on` (default today)."""
    _check_teacher(teacher, plan.classroom)
    day = today() if on is None else on
    first = timezone.localdate(plan.created_at)
    if not isinstance(day, date) or not first <= day <= today():
        raise _refuse(DONE_BAD_DAY, "done_bad_day")
    plan.activity_done_on = day
    plan.save(update_fields=["activity_done_on"])
    return plan


def plan_recheck_start(*, student: Student, plan: GroupPlan) -> WarmupRound:
    """Open the child's re-check round of the plan (from its day), or return the open one."""
    with transaction.atomic():
        member = (
            PlanMember.objects.select_for_update(of=("self",))
            .select_related("recheck")
            .filter(plan=plan, student=student)
            .first()
        )
        if member is None or student.pseudonymised_at is not None:
            raise _refuse(NOT_YOURS, "not_member")
        if plan.classroom.archived_at is not None:
            raise _refuse(CLASSROOM_ARCHIVED, "archived")
        if plan.recheck_on > today():
            raise _refuse(RECHECK_NOT_YET, "not_yet")
        if member.recheck is not None:
            if member.recheck.finished_at is not None:
                raise _refuse(RECHECK_DONE, "done")
            return member.recheck
        round_ = WarmupRound.objects.create(
            classroom_id=plan.classroom_id,
            student=student,
            kind=WarmupRound.Kind.RECHECK,
            level=plan.deck,
            seed=random.SystemRandom().randrange(1 << 31),
            created_by=plan.created_by,
            created_at=timezone.now(),
        )
        member.recheck = round_
        member.save(update_fields=["recheck"])
        return round_
