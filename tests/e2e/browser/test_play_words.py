"""What a child reads at the table (issue 21, points 1, 3 and 4), on a phone and a desktop.

- "You can play" says what may go on the pile from the engine's facts: after a Reverse at the
  start, any fraction (not "colour yellow" alone).
- Cards: no marking under the face (outside the accessible mode), the Reverse says its name in
  the page's language, and no value clips, the big top card's included; the hand follows the
  pile closely on a phone.
- The denominator chooser does not answer when Enter is pressed twice; phones are never told
  to press Escape.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.browser.conftest import DESKTOP, PHONE, Server, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector

pytestmark = pytest.mark.browser

# Alice plays first on a yellow Reverse; her hand holds the long values and both specials.
REVERSE_SETUP = {
    "dealer": 1,
    "hands": [["32/48r", "40/48v", "24/48b", "joker", "rev b", "+02j"], ["2/6r", "5/6v", "1/2b"]],
    "start": "rev j",
}
# The same hand on a long top card (the big card must not clip it).
LONG_TOP_SETUP = {**REVERSE_SETUP, "start": "32/48j"}
PHONE_OPTIONS: dict[str, Any] = {
    "viewport": PHONE,
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}

CLIPPED = """() => [...document.querySelectorAll('.card__value, .card__name')].filter((value) => {
  const card = value.closest('.card').getBoundingClientRect();
  const box = value.getBoundingClientRect();
  return value.scrollWidth > value.clientWidth + 1 || box.left < card.left - 0.5
    || box.right > card.right + 0.5;
}).map((value) => value.textContent)"""


def _open(
    browser: Browser, server: Server, setup: dict[str, Any], lang: str, phone: bool
) -> tuple[BrowserContext, Page, dict[str, Any]]:
    world = server.world(students=["Alice"], bots=1, setup=setup)
    options: dict[str, Any] = PHONE_OPTIONS if phone else {"viewport": DESKTOP}
    context = signed_in(browser, server, world["students"][0]["session"], lang=lang, **options)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{world['table']}/")
    PlayPage(page).wait_state(0)
    return context, page, world


def _check_cards(page: Page) -> None:
    assert page.evaluate(CLIPPED) == []
    expect(page.locator(".card__mark")).to_have_count(0)


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_you_can_play_says_any_fraction_after_a_reverse(
    server: Server, browser: Browser, tmp_path: Path, phone: bool
) -> None:
    context, page, _world = _open(browser, server, REVERSE_SETUP, "fr", phone)
    try:
        items = page.locator("#play-to-play li")
        expect(items.first).to_have_text("n’importe quelle fraction")
        expect(page.locator("#play-match")).to_contain_text("un +2 jaune ou une Inversion jaune")
        expect(page.locator(".play-facts")).to_contain_text("Tu peux poser")
        # The Reverse says its name, in French; no card carries its code under the face.
        expect(page.locator('#play-top [data-card="rev j"] .card__name')).to_have_text("Inversion")
        expect(page.locator(f"{card_selector('rev b')} .card__name")).to_have_text("Inversion")
        expect(page.locator(f"{card_selector('rev b')}")).not_to_contain_text("rev")
        _check_cards(page)
        if phone:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            # The hand follows the pile: no blank screen between them.
            gap = page.evaluate(
                """() => document.querySelector('#hand-title').getBoundingClientRect().top
                - document.querySelector('.play-pile').getBoundingClientRect().bottom"""
            )
            assert gap < 90, gap
        name = "to-play-phone.png" if phone else "to-play.png"
        page.screenshot(path=str(tmp_path / name), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_long_values_never_clip_and_english_names_the_cards(
    server: Server, browser: Browser, tmp_path: Path, phone: bool
) -> None:
    context, page, _world = _open(browser, server, LONG_TOP_SETUP, "en", phone)
    try:
        expect(page.locator("#play-to-play li").first).to_have_text(
            "a fraction equal to 32/48 or with 48 at the bottom"
        )
        expect(page.locator('#play-top [data-card="32/48j"] .card__value')).to_have_text("32/48")
        expect(page.locator(f"{card_selector('rev b')} .card__name")).to_have_text("Reverse")
        expect(page.locator(f"{card_selector('joker')} .card__value")).to_have_text("Joker")
        _check_cards(page)
        page.screenshot(path=str(tmp_path / f"long-{'phone' if phone else 'desktop'}.png"))
    finally:
        context.close()


def test_enter_twice_does_not_name_a_denominator(server: Server, browser: Browser) -> None:
    context, page, world = _open(browser, server, REVERSE_SETUP, "fr", False)
    try:
        player = PlayPage(page, keyboard_only=True)
        player.tab_to(card_selector("+02j"))
        page.keyboard.press("Enter")
        expect(page.locator("#play-chooser")).to_be_visible()
        expect(page.locator("#chooser-title")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#play-chooser")).to_be_visible()
        assert server.table_state(world["table"])[1] == 0  # nothing was played
        page.keyboard.press("Tab")
        expect(page.locator("#chooser-options button").first).to_be_focused()
    finally:
        context.close()


def test_phones_are_told_to_touch_not_to_press_escape(server: Server, browser: Browser) -> None:
    context, page, _world = _open(browser, server, REVERSE_SETUP, "fr", True)
    try:
        page.evaluate(
            """() => { document.getElementById('play-reason').hidden = false;
                       document.getElementById('play-example').hidden = false; }"""
        )
        for selector in ("#play-reason-help", ".example__help"):
            text = page.locator(selector).inner_text()
            assert "Échap" not in text and "Touche" in text, text
    finally:
        context.close()
    context, page, _world = _open(browser, server, REVERSE_SETUP, "fr", False)
    try:
        page.evaluate("() => { document.getElementById('play-reason').hidden = false; }")
        assert "Échap" in page.locator("#play-reason-help").inner_text()
    finally:
        context.close()
