"""The reason prompt in the browser, keyboard only: asked after a refused "equal" claim."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.browser.conftest import Server, serious_violations, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector

pytestmark = pytest.mark.browser

# One student (seat 0, plays first on 1/3) and a bot. 10/12 has another denominator than 1/3:
# the page infers the claim "equal" without a question, and the server refuses it.
DUEL_SETUP = {
    "dealer": 1,
    "hands": [["4/12j", "2/3r", "10/12v", "1/6b"], ["2/6r", "5/6v", "1/2b", "joker"]],
    "start": "1/3v",
}
# Alice and a bot at a table that asks after every refused "equal" claim.
ASKED_WORLD: dict[str, Any] = {
    "students": ["Alice"],
    "bots": 1,
    "setup": DUEL_SETUP,
    "settings": {"ask_reason": 100},
}
QUESTION_FR = "Pourquoi as-tu pensé qu’elles étaient égales ?"
QUESTION_EN = "Why did you think they were equal?"


def stored_reasons(server: Server, table: int) -> list[str | None]:
    """Read the reasons stored on the table's attempts (read-only), oldest first."""
    uri = f"file:{server.app.db_path}?mode=ro"
    with sqlite3.connect(uri, uri=True, timeout=10) as db:
        rows = db.execute(
            "SELECT reason FROM lessons_attempt WHERE table_id = ? ORDER BY id", (table,)
        ).fetchall()
    return [row[0] for row in rows]


def _wrong_equal_claim(
    server: Server, browser: Browser, lang: str
) -> tuple[Page, int, BrowserContext]:
    """Open the play page and play 10/12 on 1/3 with the keyboard; return the page."""
    world = server.world(**ASKED_WORLD)
    context = signed_in(browser, server, world["students"][0]["session"], lang=lang)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{world['table']}/")
    claim_wrongly(PlayPage(page, keyboard_only=True))
    return page, int(world["table"]), context


def claim_wrongly(player: PlayPage) -> None:
    """Play 10/12 on 1/3 (claimed equal) at state 0: refused, and asked why."""
    player.wait_state(0)
    expect(player.page.locator("#play-reason")).to_be_hidden()
    player.press(card_selector("10/12v"))
    expect(player.page.locator("#play-error")).to_have_attribute("data-code", "not_equivalent")


def test_the_student_answers_with_one_key(server: Server, browser: Browser) -> None:
    page, table, context = _wrong_equal_claim(server, browser, "fr")
    try:
        prompt = page.locator("#play-reason")
        expect(prompt).to_be_visible()
        expect(prompt).to_have_attribute("role", "group")
        expect(page.locator("#play-reason-question")).to_have_text(QUESTION_FR)
        choices = page.locator("#play-reason-choices button")
        expect(choices).to_have_count(4)
        expect(choices.first).to_be_focused()  # focus moves to the first answer
        expect(page.locator("#play-announcer")).to_contain_text(QUESTION_FR)
        expect(choices.nth(1)).to_contain_text("2")
        assert serious_violations(page) == []
        second = choices.nth(1).get_attribute("data-code")
        assert second in {"added_same", "same_top", "same_bottom", "guessed"}

        page.keyboard.press("2")

        expect(prompt).to_be_hidden()
        expect(page.locator("#play-announcer")).to_contain_text("Merci")  # reason_saved
        assert stored_reasons(server, table) == [second]
        assert server.table_state(table)[1] == 0  # the game did not move: still Alice's turn
    finally:
        context.close()


def test_escape_closes_the_prompt_without_an_answer(server: Server, browser: Browser) -> None:
    page, table, context = _wrong_equal_claim(server, browser, "en")
    try:
        expect(page.locator("#play-reason-question")).to_have_text(QUESTION_EN)
        expect(page.locator("#play-reason-choices button").first).to_be_focused()
        page.keyboard.press("Escape")
        expect(page.locator("#play-reason")).to_be_hidden()
        # The focus goes back to the hand (the card played, or the hand's title).
        assert page.evaluate(
            "() => !!document.activeElement.closest('#play-hand') "
            "|| document.activeElement.id === 'hand-title'"
        )
        # The game goes on: a right card. The socket handles frames in order, so a reason
        # sent on Escape would be stored before this play moves the table.
        PlayPage(page, keyboard_only=True).press(card_selector("4/12j"))
        server.wait_state_after(table, 0)
        assert stored_reasons(server, table) == [None, None]
    finally:
        context.close()
