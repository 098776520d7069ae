"""The class PDF's first page: the groups, their plans, the loop and the dates (issue 31 §7).

The pupils' reports follow it; a pupil's report still prints alone (report_student_pdf).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone

from lessons.diagnosis import RULES_BY_ID
from lessons.models import Classroom, GroupPlan
from lessons.plans import selectors
from lessons.plans.activities import ACTIVITIES
from lessons.reporting.class_report import class_dashboard
from lessons.reporting.present import short_date


def class_page_context(classroom: Classroom, lang: str) -> dict[str, Any]:
    """Return what the class page shows: the groups, each rule's latest plan and its loop."""
    dash = class_dashboard(classroom)
    plans = selectors.latest_plans(classroom)
    groups = [
        {
            "id": panel.rule.id,
            "name": panel.rule.name[lang],
            "students": [s.display_name for s in panel.likely],
            "try_this": panel.rule.try_this[lang],
            "planned": panel.rule.id in plans,
        }
        for panel in dash.groups
    ]
    loops = []
    for rule in sorted(plans):
        plan = plans[rule]
        activity = ACTIVITIES.get(plan.activity)
        loops.append(
            {
                "loop": selectors.plan_loop(plan),
                "name": dash_rule_name(rule, lang),
                "activity": activity.text(lang)["title"] if activity is not None else "",
                "games": (plan.game1_on, plan.game2_on, plan.game3_on),
            }
        )
    return {
        "classroom": classroom,
        "window_start": short_date(dash.window.start),
        "window_end": short_date(dash.window.end),
        "groups": groups,
        "low_accuracy": [line.student.display_name for line in dash.low_accuracy],
        "loops": loops,
        "due": selectors.due_rechecks(classroom),
    }


def dash_rule_name(rule: str, lang: str) -> str:
    """Return a rule's name for the class page (its code for a rule the rules no longer have)."""
    known = RULES_BY_ID.get(rule)
    return known.name[lang] if known is not None else rule


def class_page(request: HttpRequest, classroom: Classroom, lang: str) -> str:
    """Return the class page as an HTML fragment, printed before the pupils' reports."""
    return render_to_string(
        "lessons/reports/_class_page.html", class_page_context(classroom, lang), request=request
    )


def plans_version(classroom: Classroom) -> str:
    """Return a string that changes whenever the class page's plans would (one query)."""
    rows = GroupPlan.objects.filter(classroom=classroom).values_list(
        "pk", "rule", "game1_on", "game2_on", "game3_on", "recheck_on", "activity_done_on"
    )
    # The loop says who is due: a new day may change it.
    return repr([timezone.localdate(), *rows.order_by("pk")])
