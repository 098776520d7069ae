"""The student's home in a class game (issue 21, point 5), on a phone and a desktop.

One clear next step: the class game comes first, its button is the one big button and the
first one on the screen; practice follows, quieter.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import DESKTOP, PHONE, Server, signed_in

pytestmark = pytest.mark.browser

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
REFRESH_DOCS = bool(os.environ.get("UNOCLASS_SCREENSHOTS"))


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_class_game_is_the_first_and_only_big_step(
    server: Server, browser: Browser, tmp_path: Path, phone: bool
) -> None:
    world = server.world(students=["Alice", "Bruno"], session=True)
    viewport = PHONE if phone else DESKTOP
    context = signed_in(
        browser, server, world["sessions"][0], viewport=viewport, is_mobile=phone, has_touch=phone
    )
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        big = page.locator("main .button--big")
        expect(big).to_have_count(1)
        expect(big).to_have_text("Aller à ma table")
        first_button = page.locator("main .button, main button").first
        expect(first_button).to_have_text("Aller à ma table")
        box = big.bounding_box()
        assert box is not None and box["y"] + box["height"] <= viewport["height"]
        expect(page.locator("main")).not_to_contain_text("Tu as rejoint la partie")
        folder = DOCS_SCREENSHOTS if REFRESH_DOCS and phone else tmp_path
        name = "student-home-phone.png" if phone else "student-home.png"
        page.screenshot(path=str(folder / name), full_page=True)
        big.click()
        expect(page).to_have_url(f"{server.url}/tables/{world['table']}/")
    finally:
        context.close()
