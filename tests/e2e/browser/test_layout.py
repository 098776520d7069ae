"""Layout (issue 21, point 9), on a phone and a desktop, with screenshots.

Wide pages (dashboards, the play page) line up with the header; on the class page the
co-teacher and hand-over forms are two boxes with full inputs; the practice form's date field
is a box like the others; /school/ lists its teachers in a styled table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from games.models import Table
from games.services import SeatSpec, table_create
from lessons.demo.data import demo_classroom_ensure
from lessons.models import User
from tests.e2e.browser.conftest import PHONE, live_server_sign_in
from tests.support.factories import make_teacher

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDE = {"width": 1600, "height": 1000}
LEFT_EDGES = """() => {
  const header = document.querySelector('.site-header__inner').getBoundingClientRect();
  const main = document.querySelector('main');
  const style = getComputedStyle(main);
  const content = main.getBoundingClientRect().left + parseFloat(style.paddingLeft);
  const headerContent = header.left
    + parseFloat(getComputedStyle(document.querySelector('.site-header__inner')).paddingLeft);
  return [headerContent, content];
}"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "desktop"])
def test_pages_line_up_and_forms_are_boxes(
    browser: Any, live_server: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    demo = demo_classroom_ensure()
    classroom, teacher = demo.classroom, demo.teacher
    student = classroom.students.order_by("display_name").first()
    assert student is not None
    table = table_create(
        ruleset="fractions",
        seats=[
            SeatSpec(name=student.display_name, user_id=student.user_id),
            SeatSpec(name="Robot 1", bot="heuristic"),
        ],
        kind=Table.Kind.PRACTICE,
    )
    admin = make_teacher(username="direction_layout")
    User.objects.filter(pk=admin.pk).update(is_staff=True)
    phone = viewport is PHONE
    options = {"is_mobile": True, "has_touch": True} if phone else {}
    teacher_context = browser.new_context(viewport=viewport, locale="fr-FR", **options)
    live_server_sign_in(teacher_context, live_server, teacher)
    student_context = browser.new_context(viewport=viewport, locale="fr-FR", **options)
    live_server_sign_in(student_context, live_server, student.user)
    admin_context = browser.new_context(viewport=viewport, locale="fr-FR", **options)
    live_server_sign_in(admin_context, live_server, User.objects.get(pk=admin.pk))
    try:
        page = teacher_context.new_page()
        shots = {
            "dashboard": reverse("dashboard_class", args=[classroom.pk]),
            "class": reverse("classroom_detail", args=[classroom.pk]),
            "practice-form": reverse("practice_assignment_new", args=[classroom.pk]),
        }
        for name, url in shots.items():
            page.goto(live_server.url + url)
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], url
            if name == "dashboard":
                header, main = page.evaluate(LEFT_EDGES)
                assert abs(header - main) <= 2, (header, main)
            if name == "class":
                add = page.locator("#co-teacher-username")
                hand = page.locator("#transfer-username")
                for box in (add.bounding_box(), hand.bounding_box()):
                    assert box is not None and box["width"] >= 150 and box["height"] >= 40
                forms = page.locator("form:has(input[name='username'])")
                first, second = forms.nth(0).bounding_box(), forms.nth(1).bounding_box()
                assert first is not None and second is not None
                assert second["y"] - (first["y"] + first["height"]) >= 8  # two boxes, apart
            if name == "practice-form":
                date = page.locator("input[type='date']")
                box = date.bounding_box()
                assert box is not None and box["height"] >= 40
                assert date.evaluate("e => getComputedStyle(e).borderTopWidth") == "2px"
            page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)

        play = student_context.new_page()
        play.goto(f"{live_server.url}/tables/{table.pk}/")
        header, main = play.evaluate(LEFT_EDGES)
        assert abs(header - main) <= 2, (header, main)
        play.screenshot(path=str(tmp_path / "play.png"), full_page=True)

        school = admin_context.new_page()
        school.goto(live_server.url + reverse("school_admin"))
        cell = school.locator("table td").first
        assert cell.evaluate("e => getComputedStyle(e).borderBottomStyle") == "solid"
        assert school.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        school.screenshot(path=str(tmp_path / "school.png"), full_page=True)
    finally:
        for context in (teacher_context, student_context, admin_context):
            context.close()
