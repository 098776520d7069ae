"""Issue 31 §3: the attempts CSV carries the group plans' marker rows (new columns at the end),
and the offline re-diagnosis of the export still gives the dashboard's statuses."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
import time_machine
from django.urls import reverse

from lessons.diagnosis import diagnose, turns_from_csv
from lessons.evidence.loading import statuses_of, student_rows
from lessons.plans import services
from lessons.reporting.exports import ATTEMPT_HEADER, pseudonym
from tests.conftest import ClassWorld
from tests.lessons.plans.helpers import MONDAY, m1_children, plan_m1
from tests.lessons.plans.test_services import answer
from tests.lessons.reporting.test_held_end_to_end import right
from tests.support.factories import signed_in_client
from tests.support.responses import body_of

pytestmark = pytest.mark.django_db


def _rows(world: ClassWorld, **params: str) -> list[dict[str, str]]:
    response = signed_in_client(world.teacher, "fr").get(
        reverse("export_attempts", args=[world.classroom.pk]), params
    )
    text = body_of(response).decode("utf-8-sig")
    delimiter = ";" if params else ","
    return list(csv.DictReader(io.StringIO(text), delimiter=delimiter))


def test_marker_rows_and_the_same_statuses_offline(class_a: ClassWorld) -> None:
    with time_machine.travel(MONDAY, tick=False):
        chloe, dylan = m1_children(class_a.classroom, ["Chloé", "Dylan"])
        plan = plan_m1(class_a.teacher, class_a.classroom, [chloe, dylan])
        services.plan_mark_done(teacher=class_a.teacher, plan=plan)
        GroupPlanDays.recheck_today(plan)
        round_ = services.plan_recheck_start(student=chloe, plan=plan)
        answer(chloe, round_.pk, right)
        rows = _rows(class_a)
    assert tuple(rows[0]) == ATTEMPT_HEADER
    attempts = [row for row in rows if row["row_kind"] == "attempt"]
    markers = [row for row in rows if row["row_kind"] == "marker"]
    assert len(attempts) + len(markers) == len(rows)
    assert [(m["student_id"], m["marker"], m["marker_rule"]) for m in markers] == [
        (pseudonym("student", chloe.pk), "plan_activity", "M1"),
        (pseudonym("student", dylan.pk), "plan_activity", "M1"),
        (pseudonym("student", chloe.pk), "plan_recheck", "M1"),
    ]
    assert all(m["attempt_id"] == "" and m["card"] == "" and m["at"] for m in markers)
    # The marker rows come after every attempt and change nothing offline.
    assert rows.index(markers[0]) == len(attempts)
    offline = turns_from_csv(rows)
    for child in (chloe, dylan):
        online = {rule: s.status for rule, s in statuses_of(student_rows(child.pk)).items()}
        again = diagnose(offline[pseudonym("student", child.pk)])
        assert {rule: figures["status"] for rule, figures in again.items()} == online
    # The spreadsheet writes the marker in words.
    with time_machine.travel(MONDAY, tick=False):
        sheet = _rows(class_a, **{"for": "spreadsheet"})
    words = [row["repère"] for row in sheet if row["essai ou repère"] == "plan de groupe"]
    assert (
        words[0] == "activité faite avec le groupe" and words[-1] == "revérification du plan faite"
    )


class GroupPlanDays:
    """Move a plan's re-check to today (its days are checked when it is made)."""

    @staticmethod
    def recheck_today(plan: Any) -> None:
        from lessons.models import GroupPlan

        GroupPlan.objects.filter(pk=plan.pk).update(recheck_on=services.today())
        plan.refresh_from_db()
