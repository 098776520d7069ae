"""The compare question in the browser, keyboard only: after a refused trap at a practice table
the number line, "Laquelle est au même endroit que la carte du talon ?", one key, then the
principle; the answer is stored. A class session's table never asks."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.browser.conftest import Server, serious_violations, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector

pytestmark = pytest.mark.browser

# Alice (seat 0) plays first on 1/2. 2/3 has another denominator: the page infers "equal", the
# server refuses it, and 1/2 → 2/3 adds 1 on top and bottom (M1): a trap. She holds 3/6.
TRAP_SETUP = {
    "dealer": 1,
    "hands": [["3/6j", "2/3r", "5/6v", "1/6b"], ["2/6r", "5/6b", "1/3b", "joker"]],
    "start": "1/2b",
}
PRACTICE: dict[str, Any] = {"kind": "practice", "settings": {"ask_reason": 0}}


def _answers(server: Server, world: dict[str, Any]) -> object:
    """Return the world's child's logged compare questions: variant, choices, equal, answer."""
    (child,) = world["students"]
    return server.app.script(
        "import json\n"
        "from lessons.models import CompareAnswer\n"
        "print(json.dumps([[r.variant, r.choices, r.equal, r.answer] for r in"
        f" CompareAnswer.objects.filter(student_id={child['id']}).order_by('id')]))\n"
    )


def _trap(
    server: Server, browser: Browser, name: str, lang: str, **spec: Any
) -> tuple[dict[str, Any], BrowserContext, Page]:
    """Seat the child at the world's table and play the trap 2/3 on 1/2 by keyboard."""
    world = server.world(students=[name], bots=1, setup=TRAP_SETUP, **spec)
    context = signed_in(browser, server, world["students"][0]["session"], lang=lang)
    page = context.new_page()
    player = PlayPage(page, keyboard_only=True)
    page.goto(f"{server.url}/tables/{world['table']}/")
    player.wait_state(0)
    player.press(card_selector("2/3r"))
    expect(page.locator("#play-error")).to_have_attribute("data-code", "not_equivalent")
    return world, context, page


def test_a_trap_at_practice_asks_to_compare_by_keyboard(server: Server, browser: Browser) -> None:
    world, context, page = _trap(server, browser, "Alice", "fr", **PRACTICE)
    try:
        # The number line with both fractions, then the question, its first choice focused.
        expect(page.locator("#play-example-figure .example__label")).to_have_text(["1/2", "2/3"])
        question = page.locator("#play-example-compare-question")
        expect(question).to_have_text("Laquelle est au même endroit que la carte du talon\u202f?")
        expect(page.locator("#play-announcer")).to_contain_text(
            "Laquelle est au même endroit que la carte du talon"
        )
        choices = page.locator("#play-example-compare-choices button")
        expect(choices).to_have_count(2)
        texts = choices.all_text_contents()
        assert sorted(texts) == ["2/3", "3/6"]
        expect(choices.first).to_be_focused()
        assert serious_violations(page) == []
        # The keyboard: Tab to 3/6 if it is second, then Enter.
        if texts[0] != "3/6":
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        result = page.locator("#play-example-compare-result")
        expect(result).to_contain_text("Oui\u202f: 3/6 est au même endroit que 1/2.")
        expect(result.locator(".example__principle")).to_have_text(
            "Deux fractions égales tombent au même endroit sur la droite graduée."
        )
        expect(page.locator("#play-announcer")).to_contain_text("Deux fractions égales")
        # One action at most: the other choice is locked; the focus is on OK, Enter closes.
        expect(choices.filter(has_text="2/3")).to_be_disabled()
        expect(page.locator("#play-example-ok")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#play-example")).to_be_hidden()
        # Stored: the order shown (the variant) and the answer.
        variant = "equal_first" if texts[0] == "3/6" else "played_first"
        expect(page.locator("#play-example-compare")).to_be_hidden()
        assert _answers(server, world) == [[variant, texts, "3/6", "3/6"]]
    finally:
        context.close()


def test_escape_dismisses_the_question_unanswered(server: Server, browser: Browser) -> None:
    world, context, page = _trap(server, browser, "Bea", "en", **PRACTICE)
    try:
        expect(page.locator("#play-example-compare-question")).to_have_text(
            "Which one is at the same place as the pile's card?"
        )
        page.keyboard.press("Escape")
        expect(page.locator("#play-example")).to_be_hidden()
        rows = _answers(server, world)
        assert isinstance(rows, list) and [row[3] for row in rows] == [None]  # shown, unanswered
    finally:
        context.close()


def test_a_class_session_table_never_asks(server: Server, browser: Browser) -> None:
    world, context, page = _trap(server, browser, "Chloé", "fr", session=True)
    try:
        expect(page.locator("#play-example")).to_be_hidden()
        expect(page.locator("#play-example-compare")).to_be_hidden()
        assert _answers(server, world) == []
    finally:
        context.close()
