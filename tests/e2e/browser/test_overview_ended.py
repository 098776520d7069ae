"""In chromium over daphne: an overview left open when the session ends says "Ended" (11.13).

Ending the session in another tab broadcasts a last overview; the open page reloads into the
ended page: "Séance de classe terminée", no "En direct", and no socket any more.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, WebSocket, expect

from tests.e2e.browser.conftest import Server, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_an_open_overview_says_ended_when_the_session_ends(
    server: Server, browser: Browser
) -> None:
    world = server.world(students=["Alice", "Bruno"], session=True)
    context = signed_in(browser, server, world["teacher_session"], lang="fr")
    try:
        overview = context.new_page()
        url = f"{server.url}/sessions/{world['session']}/"
        overview.goto(url)
        expect(overview.locator("#overview-connection")).to_have_text(
            "En direct : cette page se met à jour toute seule."
        )
        expect(overview.get_by_role("heading", level=1)).to_have_text("Séance de classe en direct")

        other = context.new_page()
        other.goto(url)
        other.get_by_text("Terminer la séance…").click()
        other.get_by_role("button", name="Terminer la séance").click()
        other.wait_for_load_state()
        other.close()

        # The first tab was not touched: the socket's last overview makes it reload.
        heading = overview.get_by_role("heading", level=1)
        expect(heading).to_have_text("Séance de classe terminée", timeout=15_000)
        expect(overview.locator("#overview-connection")).to_have_count(0)
        expect(overview.get_by_text("En direct")).to_have_count(0)
        opened: list[WebSocket] = []
        overview.on("websocket", lambda socket: opened.append(socket))
        overview.reload()
        expect(heading).to_have_text("Séance de classe terminée")
        overview.wait_for_timeout(1_000)  # real time for a wrongly opened socket to show
        assert opened == []
    finally:
        context.close()
