"""In chromium over daphne: a teacher signed out in another tab sees it on the live overview.

The overview's socket is closed with 4401 at its next refresh; the page says so in its live
region, links to the sign-in page, and never opens another socket. The page's clock is
Playwright's: the test jumps over the 20 s sync and the retry delays instead of waiting.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, WebSocket, expect

from tests.e2e.browser.conftest import Server, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIGNED_OUT = {
    "en": ("You are signed out: this page no longer updates.", "Sign in again", "Sign out"),
    "fr": (
        "Vous n’êtes plus connecté·e : cette page ne se met plus à jour.",
        "Se reconnecter",
        "Se déconnecter",
    ),
}
LIVE = {
    "en": "Live: this page updates by itself.",
    "fr": "En direct : cette page se met à jour toute seule.",
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_signed_out_overview_says_so_and_stops_reconnecting(
    server: Server, browser: Browser, lang: str
) -> None:
    message, sign_in, sign_out = SIGNED_OUT[lang]
    world = server.world(students=["Alice", "Bruno"], session=True)
    context = signed_in(browser, server, world["teacher_session"], lang=lang)
    try:
        overview = context.new_page()
        opened: list[WebSocket] = []
        overview.on("websocket", lambda socket: opened.append(socket))
        overview.clock.install()
        path = f"/sessions/{world['session']}/"
        overview.goto(f"{server.url}{path}")
        status = overview.locator("#overview-connection")
        expect(status).to_have_text(LIVE[lang])
        assert len(opened) == 1

        # Sign out in another tab of the same browser: the session row is gone.
        other = context.new_page()
        other.goto(f"{server.url}/")
        other.get_by_role("button", name=sign_out).click()
        other.wait_for_load_state()
        other.close()

        # The page's next sync (every 20 s) finds the socket's session gone: 4401.
        overview.clock.fast_forward(21_000)
        expect(status).to_have_attribute("data-status", "signed_out")
        expect(overview.get_by_role("status")).to_contain_text(message)
        link = status.get_by_role("link", name=sign_in)
        expect(link).to_have_attribute("href", f"/login/?next={path}")

        # Longer than any retry delay (30 s at most), twice: no socket opens again.
        overview.clock.fast_forward(61_000)
        overview.clock.fast_forward(61_000)
        overview.wait_for_timeout(1_500)  # real time for a wrongly opened socket to show
        assert len(opened) == 1, [ws.url for ws in opened]
        expect(status).to_contain_text(message)

        # The link leads to the sign-in page, back to this overview afterwards.
        link.click()
        expect(overview).to_have_url(f"{server.url}/login/?next={path}")
    finally:
        context.close()
