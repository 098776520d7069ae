"""Practice ends with "Rejouer" (issue 30, section 1, point 7), in chromium.

The end screen of a practice game offers the same game anew; one tap starts it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import Server, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector

pytestmark = pytest.mark.browser

# Alice's one card goes on 1/3: the game is over at once.
LAST_CARD = {"dealer": 1, "hands": [["2/6j"], ["5/6v", "1/2b", "joker"]], "start": "1/3v"}


def test_the_end_of_a_practice_game_plays_again_in_one_tap(
    server: Server, browser: Browser
) -> None:
    world = server.world(students=["Alice"], bots=1, setup=LAST_CARD)
    context = signed_in(browser, server, world["students"][0]["session"])
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        again = page.get_by_role("button", name="Rejouer")
        expect(again).to_be_hidden()  # not before the end
        page.click(card_selector("2/6j"))
        expect(page.locator("#play")).to_have_attribute("data-game-over", "1")
        expect(again).to_be_visible()
        again.click()
        expect(page).not_to_have_url(f"{server.url}/tables/{world['table']}/")
        expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
        expect(page.locator("#play")).to_have_attribute("data-game-over", "0")
        expect(page.locator("#play-hand button").first).to_be_visible()
        expect(again).to_be_hidden()
    finally:
        context.close()
