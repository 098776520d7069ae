"""Issue 31 §2-3: a group plan's services, and the loop from "found" to "held" (clock moved)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest
import time_machine
from django.core.exceptions import ValidationError

from lessons.diagnosis import classify
from lessons.models import GroupPlan, PlanMember, PracticeAssignment, Student
from lessons.plans import selectors, services
from lessons.practice.services import practice_table_start
from tests.conftest import ClassWorld
from tests.lessons.plans.helpers import MONDAY, PARIS, m1_children, plan_m1
from tests.lessons.practice.helpers import play_one_game
from tests.lessons.reporting.test_held_end_to_end import answer_round, right

pytestmark = pytest.mark.django_db


@pytest.fixture
def monday() -> Any:
    with time_machine.travel(MONDAY, tick=False) as traveller:
        yield traveller


def test_default_days_are_a_day_apart_and_the_re_check_a_week_after() -> None:
    first, second, third, recheck = services.default_dates(date(2026, 11, 2))  # a Monday
    assert (first, second, third) == (date(2026, 11, 3), date(2026, 11, 5), date(2026, 11, 9))
    assert recheck == date(2026, 11, 16) and (recheck - third).days >= 7
    # From a Friday, no game on the weekend.
    days = services.default_dates(date(2026, 11, 6))
    assert all(day.weekday() < 5 for day in days)


def test_a_plan_gives_the_group_three_games_one_a_day(class_a: ClassWorld, monday: Any) -> None:
    children = m1_children(class_a.classroom, ["Chloé", "Dylan"])
    plan = plan_m1(class_a.teacher, class_a.classroom, children)
    assert plan.activity == "line" and plan.found_on == date(2026, 11, 2)
    assignment = plan.assignment
    assert isinstance(assignment, PracticeAssignment)
    assert assignment.games == 3 and assignment.one_a_day
    assert assignment.due_on == plan.game3_on
    assert set(assignment.students.all()) == set(children)
    chloe = children[0]
    play_one_game(chloe, assignment)
    with pytest.raises(ValidationError) as refused:
        practice_table_start(student=chloe, assignment=assignment)
    assert refused.value.code == "played_today"
    monday.shift(timedelta(days=1))
    play_one_game(chloe, assignment)
    assert selectors.games_played(plan, [chloe.pk]) == {chloe.pk: 2}


@pytest.mark.parametrize(
    ("games", "recheck", "code"),
    [
        ([1, 1, 3], 12, "bad_dates"),  # two games the same day
        ([3, 2, 4], 12, "bad_dates"),  # not in order
        ([1, 2, 3], 9, "recheck_too_soon"),  # 6 days after the last game
        ([-1, 2, 3], 12, "past"),
        ([1, 2, 200], 210, "too_far"),
    ],
)
def test_bad_days_are_refused_and_change_nothing(
    class_a: ClassWorld, monday: Any, games: list[int], recheck: int, code: str
) -> None:
    children = m1_children(class_a.classroom, ["Chloé"])
    start = MONDAY.date()
    with pytest.raises(ValidationError) as refused:
        services.plan_create(
            teacher=class_a.teacher,
            classroom=class_a.classroom,
            rule="M1",
            students=children,
            games=[start + timedelta(days=n) for n in games],
            recheck_on=start + timedelta(days=recheck),
        )
    assert refused.value.code == code
    assert not GroupPlan.objects.exists() and not PracticeAssignment.objects.exists()


def test_only_the_class_s_teachers_plan_for_its_children(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    children = [class_a.student.student]
    with pytest.raises(ValidationError) as refused:
        plan_m1(class_b.teacher, class_a.classroom, children)
    assert refused.value.code == "not_teacher"
    with pytest.raises(ValidationError) as refused:
        plan_m1(class_a.teacher, class_a.classroom, [class_b.student.student])
    assert refused.value.code == "not_in_class"
    with pytest.raises(ValidationError) as refused:
        plan_m1(class_a.teacher, class_a.classroom, [])
    assert refused.value.code == "no_members"
    with pytest.raises(ValidationError) as refused:
        services.plan_create(
            teacher=class_a.teacher, classroom=class_a.classroom, rule="M99", students=children
        )
    assert refused.value.code == "unknown_rule"
    assert not GroupPlan.objects.exists()


def test_the_teacher_changes_days_and_children(class_a: ClassWorld, monday: Any) -> None:
    anais, basile = class_a.student.student, class_a.other_student.student
    plan = plan_m1(class_a.teacher, class_a.classroom, [anais])
    start = MONDAY.date()
    days = [start + timedelta(days=n) for n in (2, 4, 6)]
    services.plan_update(
        teacher=class_a.teacher,
        plan=plan,
        students=[anais.pk, basile.pk],
        games=days,
        recheck_on=start + timedelta(days=13),
        activity="strip",
    )
    plan.refresh_from_db()
    assert plan.game_dates == tuple(days) and plan.activity == "strip"
    assert set(plan.members.all()) == {anais, basile}
    assert plan.assignment is not None and plan.assignment.due_on == days[2]
    assert set(plan.assignment.students.all()) == {anais, basile}
    with pytest.raises(ValidationError):
        services.plan_update(
            teacher=class_a.teacher,
            plan=plan,
            students=[anais.pk],
            games=days,
            recheck_on=days[2] + timedelta(days=3),
        )
    plan.refresh_from_db()
    assert plan.members.count() == 2  # refused: nothing changed


def test_the_activity_is_marked_done_between_the_plan_and_today(
    class_a: ClassWorld, monday: Any
) -> None:
    plan = plan_m1(class_a.teacher, class_a.classroom, [class_a.student.student])
    with pytest.raises(ValidationError):
        services.plan_mark_done(
            teacher=class_a.teacher, plan=plan, on=MONDAY.date() + timedelta(days=1)
        )
    with pytest.raises(ValidationError):
        services.plan_mark_done(teacher=class_a.teacher, plan=plan, on="yesterday")
    monday.shift(timedelta(days=2))
    services.plan_mark_done(teacher=class_a.teacher, plan=plan)
    plan.refresh_from_db()
    assert plan.activity_done_on == date(2026, 11, 4)


def test_the_child_reads_the_plan_in_their_words(class_a: ClassWorld, monday: Any) -> None:
    from django.utils import translation

    anais = class_a.student.student
    plan = plan_m1(class_a.teacher, class_a.classroom, [anais])
    with translation.override("fr"):
        (line,) = selectors.pupil_plan_lines(anais)
        assert line["words"] == (
            "3 parties d’ici le 9 novembre (une par jour), puis un petit échauffement le "
            "16 novembre."
        )
        assert not line["recheck_open"]
    with translation.override("en"):
        (line,) = selectors.pupil_plan_lines(anais)
        assert line["words"] == (
            "3 games by 9 November (one a day), then a short warm-up on 16 November."
        )
    # Within the week: the weekday, and the games left.
    play_one_game(anais, plan.assignment)  # type: ignore[arg-type]
    monday.move_to(at(date(2026, 11, 5)))
    with translation.override("fr"):
        (line,) = selectors.pupil_plan_lines(anais)
        assert line["words"] == (
            "2 parties d’ici lundi (une par jour), puis un petit échauffement le 16 novembre."
        )
    monday.move_to(at(plan.recheck_on))
    with translation.override("fr"):
        (line,) = selectors.pupil_plan_lines(anais)
        assert line["recheck_open"] and line["words"] == "Ton petit échauffement t’attend."


def m1_pick(item: dict[str, Any]) -> str:
    """Take an M1 trap when the item offers one."""
    fitting = [
        o
        for o in item["options"]
        if Fraction(o) != Fraction(item["reference"])
        and "M1" in classify(item["reference"], o, "equal")
    ]
    return fitting[0] if fitting else right(item)


def answer(student: Student, round_id: int, pick: Any) -> None:
    """Answer the student's round to its end with `pick`."""
    from lessons.models import WarmupRound
    from lessons.warmup import services as warmup

    warmup.warmup_begin(student=student, warmup_id=round_id)
    for _answered in range(40):
        round_ = WarmupRound.objects.get(pk=round_id)
        if round_.finished_at is not None:
            return
        assert isinstance(round_.item, dict)
        warmup.warmup_answer(
            student=student,
            warmup_id=round_id,
            item_number=round_.answered + 1,
            choice=pick(round_.item),
        )
        if WarmupRound.objects.get(pk=round_id).asking_id is not None:
            warmup.warmup_reason(student=student, warmup_id=round_id, reason=None)
    raise AssertionError("the round did not end")


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 10, 0, tzinfo=PARIS)


def test_from_found_to_held_three_of_four(class_a: ClassWorld, monday: Any) -> None:
    """Plan the M1 group, do the activity, three games on three days, the re-check on its day:
    three clean re-checks read "held 3 of 4", one relapse "still likely"."""
    world = class_a
    children = m1_children(world.classroom, ["Chloé", "Dylan", "Emma", "Farid"])
    plan = plan_m1(world.teacher, world.classroom, children)
    assert plan.assignment is not None
    # The activity with the group, then a first clean re-check the same day (resolved).
    services.plan_mark_done(teacher=world.teacher, plan=plan)
    for child in children:
        answer_round(world, child)
    for day in plan.game_dates:
        assert isinstance(day, date)
        monday.move_to(at(day))
        for child in children:
            play_one_game(child, plan.assignment)
    loop = selectors.plan_loop(plan)
    assert (loop.games_done, loop.games_planned) == (12, 12)
    # The day before the re-check it is not open yet; on its day it is, and the teacher sees
    # who is due.
    monday.move_to(at(plan.recheck_on - timedelta(days=1)))
    with pytest.raises(ValidationError) as refused:
        services.plan_recheck_start(student=children[0], plan=plan)
    assert refused.value.code == "not_yet"
    assert selectors.due_rechecks(world.classroom) == []
    monday.move_to(at(plan.recheck_on))
    assert [s for _plan, s in selectors.due_rechecks(world.classroom)] == sorted(
        children, key=lambda s: s.display_name
    )
    for child in children:
        round_ = services.plan_recheck_start(student=child, plan=plan)
        assert services.plan_recheck_start(student=child, plan=plan) == round_  # the same one
        answer(child, round_.pk, m1_pick if child.display_name == "Farid" else right)
    loop = selectors.plan_loop(plan)
    assert loop.held == 3 and len(loop.members) == 4
    assert [s.display_name for s in loop.still_likely] == ["Farid"]
    assert len(loop.checked) == 4 and loop.last_check == plan.recheck_on and not loop.due
    assert plan.activity_done_on == MONDAY.date() and plan.found_on == MONDAY.date()
    with pytest.raises(ValidationError) as refused:
        services.plan_recheck_start(student=children[0], plan=plan)
    assert refused.value.code == "done"
    assert PlanMember.objects.filter(plan=plan, recheck__isnull=False).count() == 4
    assert selectors.pupil_plan_lines(children[0]) == []


def test_a_child_who_moved_class_no_longer_follows_the_old_plan(class_a: ClassWorld) -> None:
    from lessons.pupils.changes import student_move
    from tests.support.factories import make_classroom

    anais = class_a.student.student
    plan_m1(class_a.teacher, class_a.classroom, [anais])
    assert len(selectors.pupil_plan_lines(anais)) == 1
    student_move(student=anais, to=make_classroom(teacher=class_a.teacher, name="Classe A2"))
    anais.refresh_from_db()
    assert selectors.pupil_plan_lines(anais) == []
