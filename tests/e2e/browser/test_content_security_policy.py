"""The Content-Security-Policy holds in Debian's chromium: no page breaks it (issue 32, point 13).

Every browser test runs under the policy, so a script it blocked would break that test's page;
these count the violations themselves, which a blocked style or a silent handler would not show:
each page, and the play page with its socket and its chooser, must report none.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.conftest import ClassWorld
from tests.e2e.browser.conftest import Server, live_server_sign_in, signed_in
from tests.e2e.browser.foundation_pages import foundation_pages
from tests.e2e.browser.pages import PlayPage, card_selector
from tests.e2e.browser.test_play import DUEL_SETUP

pytestmark = pytest.mark.browser

# Runs before any script of the page (Playwright's init scripts are outside the policy).
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__csp.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample || ""}`);
});
"""


def _watch(context: BrowserContext) -> list[str]:
    """Record the policy's violations on every page of `context`; return the console's."""
    context.add_init_script(LISTEN)
    console: list[str] = []
    context.on(
        "console",
        lambda message: (
            console.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return console


def _violations(page: Page) -> list[str]:
    page.wait_for_load_state("load")
    return list(page.evaluate("window.__csp || []"))


@pytest.mark.django_db(transaction=True)
def test_no_page_breaks_the_policy(browser: Any, live_server: Any, class_a: ClassWorld) -> None:
    pages = foundation_pages(class_a, visitor_more=("privacy", "accessibility", "network_check"))
    found: dict[str, list[str]] = {}
    for user, urls in pages.items():
        context = browser.new_context(locale="fr-FR")
        try:
            console = _watch(context)
            if user is not None:
                live_server_sign_in(context, live_server, user)
            page = context.new_page()
            for url in urls:
                page.goto(live_server.url + url)
                if seen := _violations(page):
                    found[f"{url} as {user or 'visitor'}"] = seen
            if console:
                found[f"console as {user or 'visitor'}"] = console
        finally:
            context.close()
    assert found == {}


def test_the_play_page_runs_under_the_policy(server: Server, browser: Any) -> None:
    world = server.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    context = signed_in(browser, server, world["students"][0]["session"])
    try:
        console = _watch(context)
        page = context.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)  # the modules ran and the socket brought the state
        page.click(card_selector("2/3r"))
        expect(page.locator("#play-chooser")).to_be_visible()
        assert _violations(page) == []
        assert console == []
    finally:
        context.close()
