"""Template tags that put group plans on pages other rooms own, with one line each."""

from __future__ import annotations

from typing import Any

from django import template

from lessons.models import Classroom, Student
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
def group_plan(context: Any, classroom: Classroom, rule_id: str) -> dict[str, Any]:
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
def plans_panel(context: Any, classroom: Classroom) -> dict[str, Any]:
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
def pupil_plans(context: Any, student: Student | None) -> dict[str, Any]:
    """Show a child what was planned for them, in their words."""
    if not isinstance(student, Student):
        return {}
    return {
        "lines": selectors.pupil_plan_lines(student),
        "csrf_token": context.get("csrf_token"),
    }
