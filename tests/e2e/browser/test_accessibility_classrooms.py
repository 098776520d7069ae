"""axe-core in Debian's chromium finds no serious or critical problem on the foundation pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.conftest import ClassWorld
from tests.e2e.browser.conftest import accessibility_problems

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
def test_foundation_pages_have_no_serious_accessibility_violation(
    browser: Any, live_server: Any, class_a: ClassWorld
) -> None:
    code = class_a.classroom.join_code
    classroom = [class_a.classroom.pk]
    pages = {
        None: [
            reverse("home"),
            reverse("join"),
            reverse("join_name", args=[code]),
            reverse("join_pin", args=[code, class_a.student.student.pk]),
            reverse("login"),
            reverse("signup"),
        ],
        class_a.teacher: [
            reverse("home"),
            reverse("classroom_create"),
            reverse("classroom_detail", args=classroom),
            reverse("classroom_roster", args=classroom),
            reverse("classroom_cards", args=classroom),
            reverse("password_change"),
        ],
        class_a.student.user: [reverse("home")],
    }
    assert accessibility_problems(browser, live_server, pages) == {}


@pytest.mark.django_db(transaction=True)
def test_skip_link_is_the_first_tab_stop_and_moves_focus_to_main(
    browser: Any, live_server: Any
) -> None:
    page = browser.new_page()
    try:
        page.goto(live_server.url + reverse("home"))
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.getAttribute('href')")
        assert focused == "#main"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "main"
    finally:
        page.context.close()
