"""A child who is there keeps the seat; the next game waits for its children (issue 30, 1.1, 1.7).

In chromium, on a server of this module's own whose presence and arrival waits are short
(GAMES_PRESENT_FOR, SESSIONS_ARRIVAL_WAIT: the product's are 90 s and 45 s). "Temps par tour :
0": no turn timer. A child thinks well past both waits after a wrong play and a "why?" answer,
and keeps the seat with no countdown; so does a child after "Partie suivante"; the next game
waits for a child still on the end screen, and gives a robot to one who has left.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser.conftest import Server, quick_server, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

# Seconds, this module's server (the product: 90 and 45). An open page gives a sign every
# PRESENT_FOR / 3 (2 s here): three in a row would have to be lost for a child who is there to
# count as gone, so the short wait still tests the product's rule on a loaded machine.
PRESENT_FOR = 6
ARRIVAL_WAIT = 2
# A child thinking, without a tap: well past the arrival wait and PRESENT_FOR both.
THINK_MS = int(1.5 * PRESENT_FOR * 1000)
# Alice (seat 0) plays first on 1/3; 10/12 is refused as "equal" and asked about.
DUEL_SETUP = {
    "dealer": 1,
    "hands": [["4/12j", "2/3r", "10/12v", "1/6b"], ["2/6r", "5/6v", "1/2b", "joker"]],
    "start": "1/3v",
}
# What a session's table is set to (lessons.sessions.services), with this server's wait.
SESSION_TABLE = {"arrival_wait": ARRIVAL_WAIT, "gather": True, "ask_reason": 100}
# Alice's one card goes on 1/3: the game is over at once (with Bruno, or with a robot).
LAST_CARD_DUO = {"dealer": 1, "hands": [["2/6j"], ["5/6v", "1/2b", "joker"]], "start": "1/3v"}
LAST_CARD_TRIO = {
    "dealer": 2,
    "hands": [["2/6j"], ["5/6v", "1/2b", "joker"], ["3/6v", "4/12r"]],
    "start": "1/3v",
}
YOUR_TURN = "À toi de jouer !"
YOUR_ANSWER = "On attend ta réponse."


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Serve the app with short presence and arrival waits."""
    with quick_server(
        tmp_path_factory.mktemp("presence"),
        GAMES_PRESENT_FOR=str(PRESENT_FOR),
        SESSIONS_ARRIVAL_WAIT=str(ARRIVAL_WAIT),
    ) as live:
        yield live


def _takeovers(server: Server, table: int) -> list[int]:
    """Read the seats of students that robots play at a table (read-only)."""
    uri = f"file:{server.app.db_path}?mode=ro"
    with sqlite3.connect(uri, uri=True, timeout=10) as db:
        rows = db.execute(
            'SELECT "index" FROM games_seat WHERE table_id = ? AND bot_takeover', (table,)
        ).fetchall()
    return sorted(int(row[0]) for row in rows)


def _seat_of(server: Server, table: int, user: int) -> int:
    uri = f"file:{server.app.db_path}?mode=ro"
    with sqlite3.connect(uri, uri=True, timeout=10) as db:
        row = db.execute(
            'SELECT "index" FROM games_seat WHERE table_id = ? AND user_id = ?', (table, user)
        ).fetchone()
    return int(row[0])


def _table_of(page: Page) -> int:
    found = re.search(r"/tables/(\d+)/$", page.url)
    assert found is not None, page.url
    return int(found.group(1))


def _keeps_the_seat(server: Server, page: Page, table: int, state_id: int) -> None:
    """The child's page and the table say the seat is the child's, with no countdown."""
    expect(page.locator("#play-timer-row")).to_be_hidden()
    expect(page.locator("#play-takeback")).to_be_hidden()  # "Un robot joue pour toi…"
    expect(page.locator("#play-turn")).to_have_text(YOUR_TURN)
    assert _takeovers(server, table) == []
    assert server.table_state(table)[1] == state_id  # nobody played for them


def test_a_child_who_thinks_after_a_wrong_play_and_why_keeps_the_seat(
    server: Server, browser: Browser
) -> None:
    world = server.world(
        students=["Alice"], bots=1, session=True, setup=DUEL_SETUP, settings=SESSION_TABLE
    )
    table = int(world["table"])
    context = signed_in(browser, server, world["students"][0]["session"])
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{table}/")
        player = PlayPage(page)
        player.wait_state(0)
        expect(page.locator("#play-turn")).to_have_text(YOUR_TURN)
        expect(page.locator("#play-timer-row")).to_be_hidden()  # "Temps par tour : 0"
        page.click(card_selector("10/12v"))  # 10/12 claimed equal to 1/3: refused
        expect(page.locator("#play-error")).to_have_attribute("data-code", "not_equivalent")
        choices = page.locator("#play-reason-choices button")
        expect(choices.first).to_be_visible()
        choices.first.click()  # "why?" answered
        expect(page.locator("#play-reason")).to_be_hidden()
        page.wait_for_timeout(THINK_MS)  # reading the explanation, thinking: no tap
        _keeps_the_seat(server, page, table, 0)
        page.click(card_selector("4/12j"))  # then a right card: the turn is still hers
        server.wait_state_after(table, 0)
    finally:
        context.close()


def test_after_next_game_the_child_still_has_the_seat(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice"], bots=1, session=True, setup=LAST_CARD_DUO)
    context = signed_in(browser, server, world["students"][0]["session"])
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        page.click(card_selector("2/6j"))
        expect(page.locator("#play")).to_have_attribute("data-game-over", "1")
        page.get_by_role("button", name="Partie suivante").click()
        expect(page.locator("#play-table-number")).to_have_text("Table 1")  # its number kept
        table = _table_of(page)
        # Her turn comes (at once, or after the robot's); she thinks without a tap.
        expect(page.locator("#play-turn")).to_have_text(YOUR_TURN)
        state_id = server.table_state(table)[1]
        expect(page.locator("#play-timer-row")).to_be_hidden()
        page.wait_for_timeout(THINK_MS)
        _keeps_the_seat(server, page, table, state_id)
    finally:
        context.close()


def test_the_next_game_waits_for_the_end_screen_and_not_for_who_left(
    server: Server, browser: Browser
) -> None:
    world = server.world(students=["Alice", "Bruno"], bots=1, session=True, setup=LAST_CARD_TRIO)
    alice = signed_in(browser, server, world["students"][0]["session"])
    bruno = signed_in(browser, server, world["students"][1]["session"])
    try:
        a, b = alice.new_page(), bruno.new_page()
        for page in (a, b):
            page.goto(f"{server.url}/tables/{world['table']}/")
            PlayPage(page).wait_state(0)
        a.click(card_selector("2/6j"))
        for page in (a, b):
            expect(page.locator("#play")).to_have_attribute("data-game-over", "1")
        a.get_by_role("button", name="Partie suivante").click()
        expect(a.locator("#play-table-number")).to_have_text("Table 1")  # its number kept
        table = _table_of(a)
        # Bruno reads the end screen, his page open: the robot does not start without him,
        # nobody plays his seat, and nobody counts down.
        expect(b.get_by_role("button", name="Partie suivante")).to_be_visible()
        a.wait_for_timeout(THINK_MS)
        assert server.table_state(table)[1] == 0
        assert _takeovers(server, table) == []
        expect(a.locator("#play-timer-row")).to_be_hidden()
        # Bruno leaves: after PRESENT_FOR without a sign, a robot plays his seat.
        bruno.close()
        bruno_seat = _seat_of(server, table, world["students"][1]["pk"])
        wait_until(
            lambda: _takeovers(server, table) == [bruno_seat],
            60,  # PRESENT_FOR after his last sign, generous for a loaded machine
            "a robot on the seat of the student who left",
        )
        expect(a.locator("#play-players")).to_contain_text("joué par un robot")
        # The game goes on without him: the robots play up to Alice's turn (the deal is new:
        # a robot's +4 may first ask her to answer, which is her move too).
        either = "|".join(r"\s+".join(map(re.escape, t.split())) for t in (YOUR_TURN, YOUR_ANSWER))
        expect(a.locator("#play-turn")).to_have_text(re.compile(rf"^\s*({either})\s*$"))
        assert _takeovers(server, table) == [bruno_seat]  # Alice keeps hers
    finally:
        alice.close()
        bruno.close()
