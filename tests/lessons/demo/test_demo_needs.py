"""The demo class as a new teacher sees it: the weakest pupils are named where help is asked."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from lessons.demo.data import DEMO_TEACHER_PASSWORD, DEMO_TEACHER_USERNAME
from lessons.evidence.loading import by_student, class_rows, evidence_window
from lessons.evidence.reading import LOW_ACCURACY_BELOW, first_claims
from lessons.models import Classroom
from lessons.reporting.class_report import class_dashboard

pytestmark = pytest.mark.django_db


def _section(html: str, marker: str) -> str:
    """Return the <section> from `marker` (an id or class attribute) to its end."""
    start = html.index(marker)
    return html[start : html.index("</section>", start)]


def _weakest(classroom: Classroom) -> dict[str, tuple[int, int]]:
    """Return (right, first claims) of every pupil under the mark, by name."""
    rows = by_student(class_rows(classroom, evidence_window(classroom)))
    names = {s.pk: s.display_name for s in classroom.students.all()}
    weakest = {}
    for student_id, own in rows.items():
        first = first_claims(own)
        right = sum(row.correct for row in first)
        if right < LOW_ACCURACY_BELOW * len(first):
            weakest[names[student_id]] = (right, len(first))
    return weakest


def test_the_weakest_pupils_are_named_on_the_dashboard_and_in_their_report() -> None:
    call_command("demo_data", stdout=io.StringIO())
    classroom = Classroom.objects.get()
    weakest = _weakest(classroom)
    # The demo's struggling and guessing pupils (Rose, 20 of 44; Inès, Emma, Maël about 64 %).
    assert {"Rose", "Inès", "Emma", "Maël"} <= set(weakest)
    with translation.override("fr"):
        dash = class_dashboard(classroom)
    named = {line.student.display_name for line in dash.low_accuracy}
    likely = {s.display_name for group in dash.groups for s in group.likely}
    # Every pupil under the mark is named: for a likely mistake, or else for low accuracy.
    assert set(weakest) <= named | likely
    assert {"Rose", "Inès", "Emma", "Maël"} <= named

    teacher = Client()
    assert teacher.login(username=DEMO_TEACHER_USERNAME, password=DEMO_TEACHER_PASSWORD)
    html = teacher.get(reverse("dashboard_class", args=[classroom.pk])).content.decode()
    help_section = _section(html, 'id="groups-title"')
    for name in ("Rose", "Inès", "Emma", "Maël"):
        right, claims = weakest[name]
        # The name and its own figures, never more: "20 bonnes sur 44 premières tentatives".
        assert re.search(rf">{name}</a> \({right} [^)]*{claims} [^)]*\)", help_section), name

    rose = classroom.students.get(display_name="Rose")
    report = teacher.get(reverse("report_student", args=[classroom.pk, rose.pk])).content.decode()
    focus = _section(report, 'class="report__focus"')
    right, claims = weakest["Rose"]
    assert "Rien de particulier" not in focus and "Nothing stands out" not in focus
    assert re.search(rf"\b{right}\b[^.]*\b{claims}\b", focus)
    page = teacher.get(reverse("dashboard_student", args=[classroom.pk, rose.pk])).content.decode()
    assert re.search(rf"\({right} [^)]*{claims} [^)]*\)", _section(page, 'id="mis-title"'))
