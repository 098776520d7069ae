"""axe-core in Debian's chromium finds no serious or critical problem on the foundation pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.conftest import ClassWorld
from tests.e2e.browser.conftest import accessibility_problems
from tests.e2e.browser.foundation_pages import foundation_pages

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
def test_foundation_pages_have_no_serious_accessibility_violation(
    browser: Any, live_server: Any, class_a: ClassWorld
) -> None:
    pages = foundation_pages(class_a, teacher_more=("classroom_create",))
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
