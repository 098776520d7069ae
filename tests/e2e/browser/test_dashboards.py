"""Open the dashboards and the report in Debian's chromium, check them, take screenshots.

The demo class (three simulated lessons) is loaded, so the screenshots show real figures.
axe-core must find no serious or critical problem on any of these pages. With
UNOCLASS_SCREENSHOTS=1 the screenshots refresh docs/screenshots/ (as the other browser tests
do); otherwise they go to a temporary folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from lessons.demo.data import demo_classroom_ensure, demo_history_ensure
from tests.e2e.browser.conftest import live_server_sign_in, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
REFRESH_DOCS = bool(os.environ.get("UNOCLASS_SCREENSHOTS"))


@pytest.mark.django_db(transaction=True)
def test_dashboards_and_report_in_chromium(browser: Any, live_server: Any, tmp_path: Path) -> None:
    demo = demo_classroom_ensure()
    sessions = demo_history_ensure(demo)
    classroom = demo.classroom
    student = classroom.students.order_by("display_name")[1]  # an "additive" profile
    pages = [
        ("dashboard-class.png", reverse("dashboard_class", args=[classroom.pk]), "Tilleuls"),
        (
            "dashboard-student.png",
            reverse("dashboard_student", args=[classroom.pk, student.pk]),
            student.display_name,
        ),
        (
            "dashboard-session.png",
            reverse("dashboard_session", args=[classroom.pk, sessions[-1].pk]),
            student.display_name,
        ),
        (
            "report.png",
            reverse("report_student", args=[classroom.pk, student.pk]),
            "Choses à travailler",
        ),
    ]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    live_server_sign_in(context, live_server, demo.teacher)
    page = context.new_page()
    folder = DOCS_SCREENSHOTS if REFRESH_DOCS else tmp_path
    for filename, url, expected in pages:
        response = page.goto(live_server.url + url)
        assert response is not None and response.status == 200, url
        assert expected in page.inner_text("main"), url
        # Every chart has a text alternative.
        assert page.locator("svg:not([role='img'])").count() == 0, url
        assert serious_violations(page) == [], url
        page.screenshot(path=str(folder / filename), full_page=True)
        assert (folder / filename).stat().st_size > 10_000
    # On a phone nothing scrolls the page sideways: wide tables scroll inside their own box.
    page.set_viewport_size({"width": 390, "height": 844})
    for _filename, url, _expected in pages:
        page.goto(live_server.url + url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, url
    # The printed report keeps the content and drops the site's header and buttons.
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    assert page.locator(".report").is_visible()
    context.close()
