"""What breaks a lesson at the table, in the browser (issue 30 §1.2, §1.3, §1.8).

- Every deck level's denominator chooser offers only the denominators its cards have (a
  "jusqu'à 12" deck offered 24 and 48: after "+4. Dénominateur : 24" nobody could play).
- A +2 that cannot go on the pile is refused at once: no chooser first.
- "Tu peux poser" never shows "–" after a refused card (its catch-up state), a Joker or a +4.
- A refused card shows as already tried, and trying it again is refused unjudged.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.browser.conftest import DESKTOP, Server, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector, option_selector

pytestmark = pytest.mark.browser

# Alice (dealer 1: she plays first) on a yellow 1/6; every card is in every deck level.
SETUP = {
    "dealer": 1,
    "hands": [["joker", "1/2r", "2/6v", "+02j", "+02r"], ["1/3b", "4/6v", "5/6j"]],
    "start": "1/6j",
}
CHOICES = {
    "sixths": ["2", "3", "6"],
    "twelfths": ["2", "3", "6", "12"],
    "improper": ["2", "3", "6", "12"],
    "full": ["2", "3", "6", "12", "24", "48"],
}


def _open(
    browser: Browser, server: Server, options: dict[str, object] | None = None
) -> tuple[BrowserContext, Page, dict[str, Any]]:
    world = server.world(students=["Alice"], bots=1, setup=SETUP, options=options)
    context = signed_in(browser, server, world["students"][0]["session"], viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{world['table']}/")
    PlayPage(page).wait_state(0)
    return context, page, world


@pytest.mark.parametrize("level", list(CHOICES))
def test_every_deck_levels_chooser_offers_its_denominators(
    server: Server, browser: Browser, level: str
) -> None:
    context, page, world = _open(browser, server, {"deck": level})
    try:
        page.click(card_selector("joker"))
        expect(page.locator("#play-chooser")).to_be_visible()
        values = page.locator("#chooser-options button").evaluate_all(
            "(buttons) => buttons.map((b) => b.dataset.value)"
        )
        assert values == [*CHOICES[level], ""], values  # "" names no denominator
        assert server.table_state(world["table"])[1] == 0
    finally:
        context.close()


def test_a_plus2_that_does_not_fit_is_refused_without_a_question(
    server: Server, browser: Browser
) -> None:
    context, page, world = _open(browser, server)
    try:
        page.click(card_selector("+02r"))  # red on yellow
        error = page.locator("#play-error")
        expect(error).to_be_visible()
        expect(error).to_have_attribute("data-code", "no_match")
        expect(page.locator("#play-chooser")).to_be_hidden()
        # The yellow +2 fits: it asks for a denominator, as ever.
        page.click(card_selector("+02j"))
        expect(page.locator("#play-chooser")).to_be_visible()
        assert server.table_state(world["table"])[1] == 0
    finally:
        context.close()


def test_a_refused_card_is_marked_and_the_hint_never_goes_blank(
    server: Server, browser: Browser
) -> None:
    context, page, world = _open(browser, server)
    try:
        hint = page.locator("#play-to-play li").first
        expect(hint).to_have_text("une fraction égale à 1/6 ou avec 6 en bas")
        # 1/2 on 1/6, claimed "equal" (other denominator: no question): refused.
        page.click(card_selector("1/2r"))
        error = page.locator("#play-error")
        expect(error).to_have_attribute("data-code", "not_equivalent")
        # The state sent after the refusal (a catch-up) marks the card and keeps the hint.
        tried = page.locator(f"{card_selector('1/2r')}.card--tried")
        expect(tried).to_be_visible()
        expect(tried).to_have_attribute("aria-label", "1/2 rouge, déjà essayée")
        expect(hint).to_have_text("une fraction égale à 1/6 ou avec 6 en bas")
        # Again: refused without being judged (the page's question, if any, is not asked).
        page.click(card_selector("1/2r"))
        expect(error).to_have_attribute("data-code", "already_refused")
        expect(page.locator("#play-error-message")).to_contain_text("Tu as déjà essayé 1/2 rouge")
        expect(hint).not_to_have_text("–")
        assert server.table_state(world["table"])[1] == 0
        # A Joker naming 6: the hint says what the Joker asks for, never "–".
        page.click(card_selector("joker"))
        page.click(option_selector("6"))
        server.wait_state_after(world["table"], 0)
        expect(page.locator(f"{card_selector('1/2r')}.card--tried")).to_have_count(0)
        expect(page.locator("#play-to-play li").first).not_to_have_text("–")
        expect(page.locator("#play-to-play")).to_contain_text("en bas")
    finally:
        context.close()


# Alice's only fitting card on a yellow 1/6 is the +4 (fractions never fit by colour).
PLUS4 = {"dealer": 1, "hands": [["+04", "1/2r", "2/3b"], ["1/3b", "4/6v", "5/6j"]], "start": "1/6j"}


def test_the_hint_never_goes_blank_after_a_plus4(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice"], bots=1, setup=PLUS4)
    context = signed_in(browser, server, world["students"][0]["session"], viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        page.click(card_selector("+04"))
        page.click(option_selector("6"))
        server.wait_state_after(world["table"], 0)
        # The robot takes the four cards (or challenges and loses): Alice's turn again, on the
        # +4 or on the robot's sixth; either way the hint names the sixths, never "–".
        page.wait_for_function(
            "() => { const r = document.getElementById('play');"
            " return Number(r.dataset.stateId) >= 2 && r.dataset.acting === '0'; }",
            timeout=15_000,
        )
        hint = page.locator("#play-to-play li").first
        expect(hint).not_to_have_text("–")
        expect(page.locator("#play-to-play")).to_contain_text("6 en bas")
    finally:
        context.close()
