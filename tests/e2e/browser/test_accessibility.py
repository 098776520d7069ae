"""axe-core finds no serious or critical violation on the practice and play pages."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser.conftest import PHONE, Server, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector, option_selector
from tests.e2e.browser.test_play import DUEL_SETUP

pytestmark = pytest.mark.browser

BLOCKING = {"serious", "critical"}


def blocking_violations(page: Page) -> list[dict[str, Any]]:
    """Run axe-core on the page and return its serious and critical violations."""
    results = Axe().run(page)
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["html"][:160] for n in v["nodes"][:3]],
        }
        for v in results.response["violations"]
        if v.get("impact") in BLOCKING
    ]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_play_page_has_no_serious_violation(server: Server, browser: Browser, lang: str) -> None:
    world = server.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    context = signed_in(browser, server, world["students"][0]["session"], lang=lang)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        assert blocking_violations(page) == []
        # With the rule question open, then with a wrong play's explanation shown.
        page.click(card_selector("2/3r"))
        expect(page.locator("#play-chooser")).to_be_visible()
        assert blocking_violations(page) == []
        page.click(option_selector("equal"))
        expect(page.locator("#play-error")).to_be_visible()
        assert blocking_violations(page) == []
    finally:
        context.close()


def test_play_page_on_a_phone_has_no_serious_violation(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    context = signed_in(
        browser, server, world["students"][0]["session"], viewport=PHONE, is_mobile=True
    )
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        assert blocking_violations(page) == []
        # Nothing is wider than the screen.
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()


def test_practice_page_starts_a_table_and_has_no_serious_violation(
    server: Server, browser: Browser
) -> None:
    world = server.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    context = signed_in(browser, server, world["students"][0]["session"])
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        page.click("main a#free-practice")  # the student home links to practice
        expect(page.locator("h1")).to_have_text("Entraînement")
        assert blocking_violations(page) == []
        page.select_option("#id_ruleset", "classic")
        page.fill("#id_bots", "2")
        page.click(".more-options summary")  # the options a child rarely needs fold away
        page.check("#id_highlight_playable")
        page.click(".practice-form button[type=submit]")
        expect(page).to_have_url(f"{server.url}/tables/{world['table'] + 1}/")
        expect(page.locator("#play-players .player")).to_have_count(3)
        # Quick bots may already have played (even a +2 on the student): the hand is not empty.
        expect(page.locator("#play-hand button").first).to_be_visible()
        assert blocking_violations(page) == []
        # Too many bots for the game: a clear error, no table.
        page.goto(f"{server.url}/practice/")
        page.fill("#id_bots", "5")
        page.click(".practice-form button[type=submit]")
        expect(page.locator(".form-errors")).to_contain_text("de 2 à 5 joueurs")
        assert blocking_violations(page) == []
    finally:
        context.close()


def test_teacher_watches_without_hands_and_lets_a_bot_play(
    server: Server, browser: Browser
) -> None:
    world = server.world(students=["Alice", "Bruno"], setup=None)
    context = signed_in(browser, server, world["teacher_session"])
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        expect(page.locator("#play-hand")).to_have_count(0)
        expect(page.locator("#play-players .player")).to_have_count(2)
        expect(page.locator("#play-players")).to_contain_text("7 cartes")
        assert blocking_violations(page) == []
        bot_button = page.locator('[data-bot-button="0"]')
        expect(bot_button).to_have_text("Faire jouer un robot pour Alice")
        bot_button.click()
        expect(page.locator('[data-bot-button="0"]')).to_have_text("Rendre la place à Alice")
        expect(page.locator('#play-players .player[data-seat="0"]')).to_contain_text(
            "joué par un robot"
        )
        page.locator("[data-pause-button]").click()
        banner = page.locator("#play-banner")
        expect(banner).to_have_text("L’enseignant·e a mis la partie en pause.")
        expect(page.locator("[data-pause-button]")).to_have_text("Reprendre la partie")
    finally:
        context.close()


def test_the_scan_does_report_a_serious_violation(server: Server, browser: Browser) -> None:
    """Guard: a page with an unlabelled button must fail, so the scans above mean something."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content('<html lang="fr"><title>t</title><main><button></button></main></html>')
        assert [v["id"] for v in blocking_violations(page)] == ["button-name"]
    finally:
        context.close()
