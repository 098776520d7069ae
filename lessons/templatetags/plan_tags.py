"""Template tags that put group plans on pages other rooms own, with one line each."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import template
from django.utils import formats, timezone
from django.utils.html import format_html_join
from django.utils.translation import gettext as _

from lessons.models import Classroom, GroupPlan, PlanMember, Student
from lessons.plans import selectors

register = template.Library()


def _latest(context: Any, classroom: Classroom) -> dict[str, Any]:
    """Return the class's latest plan per rule, read once per page (not once per group)."""
    plans = context.render_context.get("group_plans")
    if plans is None:
        plans = selectors.latest_plans(classroom)
        context.render_context["group_plans"] = plans
    return dict(plans)


@register.inclusion_tag("lessons/plans/_group_plan.html", takes_context=True)
def group_plan(context: Any, classroom: object, rule_id: str) -> dict[str, Any]:
    """Show "Plan" on a misconception group, or its latest plan's loop."""
    if not isinstance(classroom, Classroom):
        return {}  # a page drawn from figures alone (template tests): no plans to read
    plan = _latest(context, classroom).get(rule_id)
    return {
        "classroom": classroom,
        "rule_id": rule_id,
        "plan": plan,
        "can_plan": classroom.archived_at is None,
    }


@register.inclusion_tag("lessons/plans/_plans_panel.html", takes_context=True)
def plans_panel(context: Any, classroom: object) -> dict[str, Any]:
    """Show every group's latest plan and its loop, and the children whose re-check is due."""
    if not isinstance(classroom, Classroom):
        return {}
    plans = sorted(_latest(context, classroom).values(), key=lambda p: p.rule)
    if not plans:
        return {}  # a class without plans: one query in all
    return {
        "classroom": classroom,
        "loops": [selectors.plan_loop(plan) for plan in plans],
        "due": selectors.due_rechecks(classroom),
    }


@register.inclusion_tag("lessons/plans/_pupil_plans.html", takes_context=True)
def pupil_plans(context: Any, student: object) -> dict[str, Any]:
    """Show a child what was planned for them, in their words."""
    if not isinstance(student, Student):
        return {}
    return {
        "lines": selectors.pupil_plan_lines(student),
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag(takes_context=True)
def plan_week_markers(
    context: Any, classroom: object, rule_id: str, week_starts: list[Any], index: int
) -> str:
    """Mark a rule's week on the weekly bars: ▲ the plan's activity, ◆ its re-check day."""
    if not isinstance(classroom, Classroom) or not 0 <= index < len(week_starts):
        return ""
    plan = _latest(context, classroom).get(rule_id)
    if plan is None:
        return ""
    # The weeks run back from the window's last play: a week holds the days from its start to
    # the next week's start; the last one holds its seventh day too (the last play's).
    start = timezone.localdate(week_starts[index])
    last = index + 1 == len(week_starts)
    end = start + timedelta(days=8 if last else 7)
    if not last:
        end = timezone.localdate(week_starts[index + 1])
    marks = []
    if plan.activity_done_on is not None and start <= plan.activity_done_on < end:
        marks.append(("▲", _("activity done with the group on %(day)s"), plan.activity_done_on))
    if start <= plan.recheck_on < end and plan.recheck_on <= timezone.localdate():
        marks.append(("◆", _("the plan's re-check, from %(day)s"), plan.recheck_on))
    return format_html_join(
        " ",
        '<span class="plan-marker" title="{1}"><span aria-hidden="true">{0}</span>'
        '<span class="visually-hidden">{1}</span></span>',
        (
            (symbol, words % {"day": formats.date_format(day, "j F")})
            for symbol, words, day in marks
        ),
    )


@register.inclusion_tag("lessons/plans/_strip_markers.html")
def plan_strip_markers(student: object) -> dict[str, Any]:
    """Under a pupil's strip of claims: their plans' days (▲ activity, ◆ re-check)."""
    if not isinstance(student, Student):
        return {}
    members = (
        PlanMember.objects.filter(student=student)
        .select_related("plan", "recheck")
        .order_by("-plan__created_at", "-id")
    )
    return {
        "student": student,
        "lines": [
            {
                "plan": member.plan,
                # The note for the family, while the child is in the plan's class.
                "family": member.plan.classroom_id == student.classroom_id
                and student.pseudonymised_at is None,
                "rechecked_on": (
                    timezone.localdate(member.recheck.finished_at)
                    if member.recheck is not None and member.recheck.finished_at is not None
                    else None
                ),
            }
            for member in members
        ],
    }


def _present(members: list[PlanMember], classroom_id: int) -> list[Student]:
    """Return the children of the memberships still in the class (a note follows the child)."""
    return [
        m.student
        for m in members
        if m.student.classroom_id == classroom_id and m.student.pseudonymised_at is None
    ]


@register.inclusion_tag("lessons/plans/_family_links.html")
def plan_family_links(plan: object) -> dict[str, Any]:
    """On a group's panel: the note for each child's family, and all of them as one PDF."""
    if not isinstance(plan, GroupPlan):
        return {}
    students = _present(selectors.members_of(plan), plan.classroom_id)
    return {"plan": plan, "students": students, "all": True} if students else {}


@register.inclusion_tag("lessons/plans/_pupil_family_links.html")
def pupil_family_links(student: object) -> dict[str, Any]:
    """On a pupil's report: the note for their family, one per plan of theirs (the pupil's
    page has them in its strip markers, read with them)."""
    if not isinstance(student, Student) or student.pseudonymised_at is not None:
        return {}
    plans = GroupPlan.objects.filter(
        memberships__student=student, classroom_id=student.classroom_id
    ).order_by("-created_at", "-id")
    return {"student": student, "plans": list(plans)}
