"""A play page whose stream a newer tab replaced (4409, games.realtime.stream_caps) waits: it
says it is reconnecting and does not take the place back at once, so that tabs past the cap
do not end each other's streams for ever (static/js/live-stream.js)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import Server, signed_in
from tests.e2e.browser.test_play_stream import DUO_SEED, DUO_SETUP

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

PER_PLACE = 2  # games.realtime.stream_caps
# Record every status the page's connection line shows from now on (`window.statuses`).
WATCH = """() => {
  window.statuses = [];
  const line = document.getElementById("play-connection");
  new MutationObserver(() => window.statuses.push(line.dataset.status))
    .observe(line, { attributes: true, attributeFilter: ["data-status"] });
}"""


def test_a_replaced_tab_waits_and_the_newer_ones_stay(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice", "Bruno"], setup=DUO_SETUP, seed=DUO_SEED)
    table = world["table"]
    context = signed_in(browser, server, world["students"][0]["session"])
    pages = []
    try:
        for _ in range(PER_PLACE + 1):
            page = context.new_page()
            page.goto(f"{server.url}/tables/{table}/?link=stream")
            expect(page.locator("#play-connection")).to_have_attribute("data-status", "connected")
            page.evaluate(WATCH)
            pages.append(page)
        oldest, *newer = pages
        expect(oldest.locator("#play-connection")).to_have_attribute("data-status", "reconnecting")
        # A page that reopened at once (after 1 s) would end the next oldest, and so on.
        oldest.wait_for_timeout(4000)
        assert "connected" not in oldest.evaluate("window.statuses")
        for page in newer:
            assert page.evaluate("window.statuses") == []  # never left "connected"
    finally:
        context.close()
