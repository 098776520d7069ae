"""What a plan's page and its A4 sheet show: the activity, the children, the days, the pairs."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from lessons.diagnosis.rulebook import RULES_BY_ID
from lessons.models import GroupPlan, Student
from lessons.plans.activities import ACTIVITIES
from lessons.plans.number_lines import pair_svg
from lessons.plans.selectors import equal_partner, members_of, wrong_pairs


def pair_picture(reference: str, played: str, *, right: bool) -> SafeString:
    """Return the pair drawn to scale (lessons.plans.number_lines), described as right or not."""
    label = (
        _("%(a)s and %(b)s to scale: the same place on the line")
        if right
        else _("%(a)s and %(b)s to scale: not the same place on the line")
    ) % {"a": reference, "b": played}
    # pair_svg escapes every text it writes.
    return mark_safe(pair_svg(reference, played, label=label))  # noqa: S308


def sheet_context(
    plan: GroupPlan,
    lang: str,
    *,
    members: list[Student] | None = None,
    pairs: list[tuple[str, str, int]] | None = None,
) -> dict[str, Any]:
    """Return the plan's words and pictures for its page and its PDF.

    `members` and `pairs`: given, they are not read from the database (bench/plan_sheet.py).
    """
    rule = RULES_BY_ID[plan.rule]
    if members is None:
        members = [m.student for m in members_of(plan)]
    if pairs is None:
        pairs = wrong_pairs(plan, members)
    from_class = bool(pairs)
    if not pairs:
        # Nothing played yet in the window: the rule's own examples.
        pairs = [(f"{r[0]}/{r[1]}", f"{p[0]}/{p[1]}", 0) for r, p in rule.examples[:2]]
    drawn = []
    for reference, played, count in pairs:
        partner = equal_partner(reference)
        drawn.append(
            {
                "reference": reference,
                "played": played,
                "count": count,
                "wrong": pair_picture(reference, played, right=False),
                "partner": partner,
                "right": pair_picture(reference, partner, right=True),
            }
        )
    return {
        "plan": plan,
        "rule": {"id": rule.id, "name": rule.name[lang], "teacher": rule.teacher[lang]},
        "activity": ACTIVITIES[plan.activity].text(lang),
        "members": members,
        "pairs": drawn,
        "pairs_from_class": from_class,
        "games": plan.game_dates,
    }
