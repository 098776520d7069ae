"""Issue 31 §7 in chromium: the class dashboard's first two screens are the groups, their plan
and its loop; the grids and the cards are one click (or one key) away.

The demo class (three simulated lessons, 24 pupils) with one group planned, at 1280 × 900: the
page's height is printed (docs/dashboards.md states it, before and after).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from lessons.demo.data import demo_classroom_ensure, demo_history_ensure
from lessons.plans.selectors import likely_students
from lessons.plans.services import plan_create
from lessons.reporting.class_report import class_dashboard
from tests.e2e.browser.conftest import live_server_sign_in, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VIEWPORT = {"width": 1280, "height": 900}
# Whatever the page holds, nothing of the details should push the groups' loop below the
# second screen: the figure the issue measured was 8,842 px with all of it open.
TWO_SCREENS = 2 * VIEWPORT["height"]


def _top(page: Any, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return float(box["y"])


@pytest.mark.django_db(transaction=True)
def test_the_groups_and_their_loop_come_first_the_grids_one_key_away(
    browser: Any, live_server: Any
) -> None:
    demo = demo_classroom_ensure()
    demo_history_ensure(demo)
    classroom = demo.classroom
    groups = class_dashboard(classroom).groups
    assert groups, "the demo class has a misconception group"
    rule = groups[0].rule.id
    plan_create(
        teacher=demo.teacher,
        classroom=classroom,
        rule=rule,
        students=likely_students(classroom, rule),
    )
    context = browser.new_context(viewport=VIEWPORT, locale="fr-FR")
    live_server_sign_in(context, live_server, demo.teacher)
    page = context.new_page()
    response = page.goto(live_server.url + reverse("dashboard_class", args=[classroom.pk]))
    assert response is not None and response.status == 200
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"class dashboard height at 1280x900, demo data, one plan: {height} px (closed)")
    # The groups, then the plans' loop, both within the first two screens.
    assert _top(page, "#groups-title") < VIEWPORT["height"]
    assert _top(page, "#plans-title") < TWO_SCREENS
    assert page.locator(f"#loop-{rule}").is_visible()
    # The grids and the cards are there, but folded away.
    heatmap = page.locator("#heat-m-title")
    assert heatmap.count() == 1 and not heatmap.is_visible()
    assert not page.locator("#panel-title").is_visible()
    assert height < 3 * VIEWPORT["height"]
    # One key opens them: the disclosure is a real <summary>, reached by the keyboard.
    summary = page.locator("#all-figures > summary")
    summary.focus()
    page.keyboard.press("Enter")
    assert heatmap.is_visible()
    assert page.locator("#panel-title").is_visible()
    assert page.locator("#heat-s-title").is_visible()
    opened = page.evaluate("document.documentElement.scrollHeight")
    print(f"class dashboard height at 1280x900, demo data, one plan: {opened} px (opened)")
    assert opened > height
    # The same key folds them again; the summary says what is inside for a screen reader.
    page.keyboard.press("Enter")
    assert not heatmap.is_visible()
    assert "grille" in summary.inner_text().lower()
    assert serious_violations(page) == []
    # A link to a section inside the disclosure opens it.
    page.goto(live_server.url + reverse("dashboard_class", args=[classroom.pk]) + "#heat-s-title")
    assert page.locator("#heat-s-title").is_visible()
    # Printed, the page holds every figure, folded on screen or not.
    page.emulate_media(media="print")
    assert heatmap.is_visible() and page.locator("#panel-title").is_visible()
    context.close()
