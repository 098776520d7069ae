"""End to end in chromium over daphne: the teacher's overview updates live after a play.

Named to run last in this package: Playwright's event loop lives for this module only.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import Server, serve, signed_in
from tests.e2e.browser.pages import card_selector
from tests.support.processes import BASE_DIR

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Serve the app with daphne on a fresh SQLite file."""
    db_path = tmp_path_factory.mktemp("sessions") / "sessions.sqlite3"
    # Slow robots: the test plays the students' moves itself.
    with serve(db_path, GAMES_BOT_DELAY="60") as live:
        yield live


@pytest.fixture(scope="module")
def chromium(browser: Browser) -> Browser:
    """Use the package's chromium (one Playwright event loop per package)."""
    return browser


def _world(server: Server) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.session_world"],
        cwd=BASE_DIR,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_overview_shows_a_play_and_an_alert_live(live: Server, chromium: Browser) -> None:
    world = _world(live)
    teacher = signed_in(chromium, live, world["teacher"], lang="en")
    student = signed_in(chromium, live, world["students"][1], lang="en")
    try:
        overview = teacher.new_page()
        overview.goto(f"{live.url}/sessions/{world['session']}/")
        expect(overview.locator("#overview-connection")).to_have_text(
            "Live: this page updates by itself."
        )
        bruno = overview.locator("#overview-live tbody tr", has_text="Bruno")
        expect(bruno.locator("td").nth(1)).to_have_text("0")
        play = student.new_page()
        play.goto(f"{live.url}/tables/{world['table']}/")
        expect(play.locator("#play")).to_have_attribute("data-state-id", "0")
        # 10/12 on 1/3 is not equal: refused, logged, and shown to the teacher without a reload.
        for _ in range(3):
            play.click(card_selector("10/12v"))
            expect(play.locator("#play-error")).to_be_visible()
        expect(bruno.locator("td").nth(1)).to_have_text("3")
        expect(bruno.locator("td").nth(2)).to_have_text("3")
        expect(overview.locator(".overview-alerts")).to_contain_text(
            "Bruno: 3 wrong plays in a row"
        )
        # A right play moves the game on: seat 1's cards left go from 4 to 3.
        play.click(card_selector("4/12j"))
        expect(overview.locator(".overview-seats").first).to_contain_text("3 cards")
    finally:
        teacher.close()
        student.close()
