"""The game leaves the site's chrome (issue 30 §2): the links, the language and signing out
wait in one menu over the table, opened by a tap or by keyboard; the legal links stay below."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page, expect

from tests.e2e.browser.conftest import Server

pytestmark = pytest.mark.browser

SETUP = {"dealer": 1, "hands": [["2/3r", "1/3b"], ["5/6b", "2/3v"]], "start": "1/3v"}


def test_the_site_menu_waits_closed_over_the_table(
    server: Server, table_page: Callable[..., Page]
) -> None:
    world = server.world(students=["Alice"], bots=1, setup=SETUP)
    page = table_page(world, is_mobile=True, has_touch=True)
    sign_out = page.get_by_role("button", name="Se déconnecter")
    toggle = page.locator("#table-menu > summary")
    # Closed: no site link, no language button, no sign-out in the table's first screen.
    expect(sign_out).to_be_hidden()
    expect(page.locator(".site-nav")).to_be_hidden()
    expect(page.locator(".lang-switch")).to_be_hidden()
    expect(toggle).to_have_text("Menu")
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 60
    box = toggle.bounding_box()
    assert box is not None and box["width"] >= 24 and box["height"] >= 24
    # By keyboard: the menu's toggle opens it; the sign-out is then there, over the table.
    toggle.focus()
    page.keyboard.press("Enter")
    expect(sign_out).to_be_visible()
    expect(page.get_by_role("link", name="Ma classe")).to_be_visible()
    expect(page.locator(".lang-switch")).to_be_visible()
    assert [v["id"] for v in Axe().run(page).response["violations"]] == []
    # A tap closes it again; the table played on underneath.
    toggle.click()
    expect(sign_out).to_be_hidden()
    expect(page.locator("#play-turn")).to_be_visible()
    # The legal links stay at the foot of the page, without the site's tagline.
    footer = page.locator("footer.site-footer")
    expect(footer.get_by_role("link", name="Données personnelles")).to_be_attached()
    expect(footer).not_to_contain_text("Fonctionne hors ligne")
