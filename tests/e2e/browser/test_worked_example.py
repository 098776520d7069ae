"""The worked example in the browser, keyboard only: after a wrong play at a practice table."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.browser.conftest import Server, serious_violations, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector

pytestmark = pytest.mark.browser

# One student (seat 0, plays first on 1/3) and a bot. 10/12 has another denominator than 1/3:
# the page infers the claim "equal" and the server refuses it. Alice holds 4/12, equal to 1/3;
# the bot holds 2/6, equal too, which must never show on Alice's page.
DUEL_SETUP = {
    "dealer": 1,
    "hands": [["4/12j", "2/3r", "10/12v", "1/6b"], ["2/6r", "5/6v", "1/2b", "joker"]],
    "start": "1/3v",
}


def _wrong_play(
    server: Server, browser: Browser, lang: str, ask: int
) -> tuple[Page, BrowserContext]:
    """Open a practice table and play 10/12 on 1/3 with the keyboard; return the page."""
    world = server.world(
        students=["Alice"],
        bots=1,
        setup=DUEL_SETUP,
        kind="practice",
        settings={"ask_reason": ask},
    )
    context = signed_in(browser, server, world["students"][0]["session"], lang=lang)
    page = context.new_page()
    player = PlayPage(page, keyboard_only=True)
    page.goto(f"{server.url}/tables/{world['table']}/")
    player.wait_state(0)
    expect(page.locator("#play-example")).to_be_hidden()
    player.press(card_selector("10/12v"))
    expect(page.locator("#play-error")).to_have_attribute("data-code", "not_equivalent")
    return page, context


def test_the_example_shows_the_own_equal_card_and_escape_closes_it(
    server: Server, browser: Browser
) -> None:
    page, context = _wrong_play(server, browser, "en", ask=0)
    try:
        example = page.locator("#play-example")
        expect(example).to_be_visible()
        expect(page.locator("#play-reason")).to_be_hidden()
        # 1/3 → 10/12 is a trap: the compare question (test_compare_question.py) takes the focus.
        expect(page.locator("#play-example-compare-choices button").first).to_be_focused()
        words = page.locator("#play-example-words")
        expect(words).to_contain_text("1/3 and 10/12 are not equal: 10/12 is more.")
        expect(words).to_contain_text("Your card 4/12 is equal to 1/3.")
        expect(page.locator("#play-example .example__card")).to_have_attribute("data-card", "4/12j")
        assert "2/6" not in (example.text_content() or "")  # never the bot's card
        # The figure: both fractions labelled, to scale, with a text alternative.
        figure = page.locator("#play-example-figure svg")
        expect(figure).to_have_attribute("role", "img")
        expect(figure).to_have_attribute(
            "aria-label",
            "A number line from 0 to 1: the triangle above the line is 1/3, "
            "the square below the line is 10/12.",
        )
        expect(figure.locator(".example__label")).to_have_text(["1/3", "10/12"])
        path = figure.locator("path.example__mark-a").get_attribute("d") or ""
        third = float(path.split(",")[0][1:])
        marks = figure.locator("rect.example__mark-b")
        tenth = float(marks.get_attribute("x") or "0") + 6
        # x = 20 + value * 380: 1/3 at 146.7, 10/12 at 336.7 (the triangle's path starts 7 left).
        assert abs(third + 7 - (20 + 380 / 3)) < 0.2
        assert abs(tenth - (20 + 380 * 10 / 12)) < 0.2
        expect(page.locator("#play-announcer")).to_contain_text("Your card 4/12 is equal to 1/3.")
        assert serious_violations(page) == []

        page.keyboard.press("Escape")

        expect(example).to_be_hidden()
        assert page.evaluate(
            "() => !!document.activeElement.closest('#play-hand') "
            "|| document.activeElement.id === 'hand-title'"
        )
        # Play goes on with the keyboard: the right card.
        PlayPage(page, keyboard_only=True).press(card_selector("4/12j"))
        expect(page.locator("#play-example")).to_be_hidden()
    finally:
        context.close()


def test_the_reason_prompt_comes_first_then_the_example_in_french(
    server: Server, browser: Browser
) -> None:
    page, context = _wrong_play(server, browser, "fr", ask=100)
    try:
        expect(page.locator("#play-reason")).to_be_visible()
        expect(page.locator("#play-example")).to_be_hidden()  # never two panels at once
        page.keyboard.press("Escape")  # skip the question
        expect(page.locator("#play-reason")).to_be_hidden()
        expect(page.locator("#play-example")).to_be_visible()
        expect(page.locator("#play-example-title")).to_have_text("Un exemple")
        words = page.locator("#play-example-words")
        expect(words).to_contain_text("1/3 et 10/12 ne sont pas égales : 10/12 est plus grande.")
        expect(words).to_contain_text("Ta carte 4/12 est égale à 1/3.")
        expect(page.locator("#play-announcer")).to_contain_text("Ta carte 4/12 est égale à 1/3.")
        # The focus stays in the hand the prompt gave it back to; Escape closes the example.
        assert page.evaluate(
            "() => !!document.activeElement.closest('#play-hand') "
            "|| document.activeElement.id === 'hand-title'"
        )
        page.keyboard.press("Escape")
        expect(page.locator("#play-example")).to_be_hidden()
    finally:
        context.close()


def test_enter_on_ok_closes_and_each_wrong_play_gets_its_example(
    server: Server, browser: Browser
) -> None:
    page, context = _wrong_play(server, browser, "en", ask=0)
    try:
        example = page.locator("#play-example")
        # The trap's compare question has the focus; past its two choices, OK.
        expect(page.locator("#play-example-compare-choices button").first).to_be_focused()
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        expect(page.locator("#play-example-ok")).to_be_focused()
        page.keyboard.press("Enter")  # "OK"
        expect(example).to_be_hidden()
        PlayPage(page, keyboard_only=True).press(card_selector("1/6b"))
        expect(example).to_be_visible()
        expect(page.locator("#play-example-words")).to_contain_text(
            "1/3 and 1/6 are not equal: 1/6 is a bit less."
        )
        expect(page.locator("#play-example-figure .example__label")).to_have_text(["1/3", "1/6"])
        page.locator("#play-example-ok").click()
        expect(example).to_be_hidden()
    finally:
        context.close()
