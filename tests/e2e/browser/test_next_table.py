"""After a game of a class session (issue 21, point 2), in chromium on a phone and a desktop.

Two students finish a game; only Alice presses "Next game". Bruno's page still shows the last
game's end. When the teacher ends the session, Bruno's page says so at once and no longer
offers a next game; Alice's new table, where Bruno never came, says so too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import DESKTOP, PHONE, Server, signed_in
from tests.e2e.browser.pages import PlayPage

pytestmark = pytest.mark.browser

# Alice's one card goes on 1/3: the game is over at once.
LAST_CARD_SETUP = {
    "dealer": 2,
    "hands": [["2/6j"], ["5/6v", "1/2b", "joker"], ["3/6v", "4/12r"]],
    "start": "1/3v",
}
FEW_SECONDS = 5_000


def test_every_page_of_the_session_hears_its_end(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    world = server.world(students=["Alice", "Bruno"], bots=1, session=True, setup=LAST_CARD_SETUP)
    table_url = f"{server.url}/tables/{world['table']}/"
    alice = signed_in(browser, server, world["students"][0]["session"], viewport=DESKTOP)
    bruno = signed_in(
        browser,
        server,
        world["students"][1]["session"],
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
    )
    teacher = signed_in(browser, server, world["teacher_session"])
    try:
        a, b = alice.new_page(), bruno.new_page()
        for page in (a, b):
            page.goto(table_url)
            PlayPage(page).wait_state(0)
        a.click('#play-hand button[data-card="2/6j"]')
        for page in (a, b):
            expect(page.locator("#play")).to_have_attribute("data-game-over", "1")
        # Only Alice goes on to the next table; Bruno stays on the end screen.
        a.get_by_role("button", name="Partie suivante").click()
        expect(a).to_have_url(re.compile(r"/tables/\d+/$"))
        expect(a.locator("#play-table-number")).to_have_text("Table 1")  # its number kept
        bruno_next = b.get_by_role("button", name="Partie suivante")
        expect(bruno_next).to_be_visible()

        overview = teacher.new_page()
        overview.goto(f"{server.url}/sessions/{world['session']}/")
        overview.get_by_text("Terminer la séance…").click()
        overview.get_by_role("button", name="Terminer la séance").click()

        # Bruno's end screen hears it: no next game, and the words say why.
        expect(b.locator("#play-banner")).to_contain_text(
            "La séance est terminée", timeout=FEW_SECONDS
        )
        expect(bruno_next).to_be_hidden()
        expect(a.locator("#play-banner")).to_contain_text(
            "La séance est terminée", timeout=FEW_SECONDS
        )
        b.screenshot(path=str(tmp_path / "session-ended-phone.png"), full_page=True)
        a.screenshot(path=str(tmp_path / "session-ended-desktop.png"), full_page=True)
        # A page opened after the end says the same.
        b.reload()
        expect(b.locator("#play-banner")).to_contain_text("La séance est terminée")
        expect(b.get_by_role("button", name="Partie suivante")).to_have_count(0)
    finally:
        for context in (alice, bruno, teacher):
            context.close()
