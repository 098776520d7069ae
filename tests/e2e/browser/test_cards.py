"""The page names every card as the engine does, and never shows colour alone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from games.engine import card_name
from games.engine.cards import ALL_CODES
from tests.e2e.browser.conftest import Server, signed_in
from tests.e2e.browser.pages import PlayPage
from tests.e2e.browser.test_play import DUEL_SETUP

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_card_names_match_the_engine(server: Server, browser: Browser, lang: str) -> None:
    world = server.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    context = signed_in(browser, server, world["students"][0]["session"], lang=lang)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        names = page.evaluate(
            "codes => codes.map(c => window.unoclassPlay.cardName(c))", list(ALL_CODES)
        )
        assert names == [card_name(code, lang) for code in ALL_CODES]
        # Each card of the hand: its value and colour letter in text, a spoken name; the
        # marking ("2/3r") only at an accessible table (a child read it as part of the card).
        card = page.locator('#play-hand button[data-card="2/3r"]')
        expect(card).to_have_attribute("aria-label", card_name("2/3r", lang))
        expect(card.locator(".card__value")).to_have_text("2/3")
        expect(card.locator(".card__mark")).to_have_count(0)
        expect(card.locator(".card__corner")).to_have_text("▲ r")
    finally:
        context.close()
