"""End to end in chromium over daphne: the teacher's overview updates live after a play.

Its own daphne (robots that never move on their own); the package's Playwright and chromium.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import SETTINGS, Server, serve, signed_in
from tests.e2e.browser.pages import card_selector
from tests.games.helpers import FRACTIONS_SETUP

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Serve the app with daphne on a fresh SQLite file."""
    directory = tmp_path_factory.mktemp("sessions")
    # Slow robots: the test plays the students' moves itself.
    with serve(directory, settings_module=SETTINGS, GAMES_BOT_DELAY="60") as live:
        yield live


@pytest.mark.parametrize("link", ["socket", "stream"])
def test_overview_shows_plays_live_as_the_diagnosis_counts_them(
    live: Server, browser: Browser, link: str
) -> None:
    """On either link (the socket, or the fallback stream and POSTs) the overview counts the
    turn as the session page and the class dashboard do (issue 31 §6)."""
    # A class session of two whose table is scripted: Bruno (seat 1) plays first on 1/3.
    world = live.world(students=["Alice", "Bruno"], session=True, seed=7, setup=FRACTIONS_SETUP)
    teacher = signed_in(browser, live, world["teacher_session"], lang="en")
    student = signed_in(browser, live, world["students"][1]["session"], lang="en")
    try:
        overview = teacher.new_page()
        overview.goto(f"{live.url}/sessions/{world['session']}/?link={link}")
        expect(overview.locator("#overview-live")).to_have_attribute("data-link", link)
        expect(overview.locator("#overview-connection")).to_have_text(
            "Live: this page updates by itself."
        )
        bruno = overview.locator("#overview-live tbody tr", has_text="Bruno")
        expect(bruno.locator("td").nth(1)).to_have_text("0")
        play = student.new_page()
        play.goto(f"{live.url}/tables/{world['table']}/?link={link}")
        expect(play.locator("#play")).to_have_attribute("data-link", link)
        expect(play.locator("#play")).to_have_attribute("data-state-id", "0")
        # 10/12 on 1/3 is not equal: refused, logged, and shown to the teacher without a reload.
        play.click(card_selector("10/12v"))
        expect(play.locator("#play-error")).to_be_visible()
        expect(bruno.locator("td").nth(1)).to_have_text("1")
        expect(bruno.locator("td").nth(2)).to_have_text("1")
        # The same card tried twice more in the same turn, then a right card.
        for _ in range(2):
            play.click(card_selector("10/12v"))
            expect(play.locator("#play-error")).to_be_visible()
        # A right play moves the game on: seat 1's cards left go from 4 to 3.
        play.click(card_selector("4/12j"))
        expect(overview.locator(".overview-seats").first).to_contain_text("3 cards")
        # That update holds every try of the turn: still one play, one wrong, as the diagnosis
        # counts them (the first claim of a turn), so no "wrong plays in a row" alert.
        expect(bruno.locator("td").nth(1)).to_have_text("1")
        expect(bruno.locator("td").nth(2)).to_have_text("1")
        expect(overview.locator(".overview-alerts")).to_have_count(0)
        # The session page and the class dashboard count the same turn the same way: one
        # claim, wrong (0 right), two tries (the card tried again was refused unlogged).
        room, session = world["classroom"], world["session"]
        pages = teacher.new_page()
        pages.goto(f"{live.url}/classrooms/{room}/dashboard/sessions/{session}/")
        lesson = pages.locator("table.data tbody tr", has_text="Bruno").first
        expect(lesson.locator("td").nth(0)).to_have_text("1")
        expect(pages.locator("main")).to_contain_text("1 claim, 0 % right · 2 tries")
        pages.goto(f"{live.url}/classrooms/{room}/dashboard/")
        row = pages.locator("#all-figures table.data tbody tr", has_text="Bruno").first
        assert (row.locator("td").nth(0).text_content() or "").strip() == "1"
        assert "0" in (row.locator("td").nth(1).text_content() or "")
    finally:
        teacher.close()
        student.close()
