"""A whole game by taps alone on a phone (issue 30, acceptance of §2), chromium at 390×844.

The child's every move is a touch: a card, a rule button on the card, an answer of the
page's question, draw, pass, UNO. The page hears only touch pointers and no key press, every
fraction goes down in one tap (the rule buttons on the card), and the game reaches its end
with the standings shown. (The whole game by keyboard alone is
test_play.py's seat 0.)
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine import Game
from games.engine.cards import KIND
from tests.e2e.browser.conftest import PHONE, Server, signed_in
from tests.e2e.browser.moves import Move, next_move, page_asks_rule
from tests.e2e.browser.pages import BUTTONS, PlayPage, card_selector, option_selector

pytestmark = pytest.mark.browser

# Alice (seat 0) plays first on 1/3: same-denominator cards (the rule buttons), equal
# fractions, a Joker (a question); the robot has seven cards.
TAPS_SETUP = {
    "dealer": 1,
    "hands": [
        ["2/6j", "1/3b", "4/12v", "joker", "2/12r"],
        ["5/6b", "10/12j", "6/12b", "3/6v", "1/2b", "16/24r", "8/12r"],
    ],
    "start": "1/3v",
}
# Every input event the page hears, by kind (an init script: nothing is missed between polls).
WATCH_INPUT = """
window.__inputs = [];
for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, (e) => {
    window.__inputs.push(kind === "pointerdown" ? "pointer:" + e.pointerType : kind);
  }, true);
}
"""
# The page's question is open, or the state moved on past `n` (a card played without one).
ASKED_OR_MOVED = """n => !document.getElementById('play-chooser').hidden
  || Number(document.getElementById('play').dataset.stateId) > n"""


def _tap_move(page: Page, game: Game, move: Move, state_id: int) -> int:
    """Make the move with taps only (the rule button on the card, or the card then its
    answer); return the number of taps it took."""
    if move.kind != "card":
        page.tap(BUTTONS[move.kind])
        return 1
    assert move.card is not None
    rule = page.locator(f'[data-for="{move.card}"][data-card-rule="{move.answer}"]')
    if KIND[move.card] == "frac" and page_asks_rule(game, move.card):
        rule.tap()  # both rules fit by its looks: the child's rule, on the card itself
        return 1
    page.tap(card_selector(move.card))
    page.wait_for_function(ASKED_OR_MOVED, arg=state_id, timeout=10_000)
    if page.locator("#play-chooser").is_hidden():
        return 1
    page.tap(option_selector(move.answer or ""))
    return 2


def test_a_whole_game_by_taps_alone(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice"], bots=1, setup=TAPS_SETUP)
    table = world["table"]
    context = signed_in(
        browser, server, world["students"][0]["session"], viewport=PHONE, is_mobile=True,
        has_touch=True,
    )  # fmt: skip
    try:
        page = context.new_page()
        page.add_init_script(WATCH_INPUT)
        page.goto(f"{server.url}/tables/{table}/")
        player = PlayPage(page)
        taps: dict[str, list[int]] = {"frac": [], "other": []}
        for _ in range(150):
            state, state_id = server.table_state(table)
            game = Game.from_dict(state)
            public = game.view(None)
            if public["game_over"]:
                break
            if public["acting"] != 0:
                server.wait_state_after(table, state_id)
                continue
            player.wait_state(state_id)
            assert player.hand() == game.view(0)["hand"]
            move = next_move(game, 0)
            count = _tap_move(page, game, move, state_id)
            server.wait_state_after(table, state_id)
            frac = move.kind == "card" and KIND[move.card or ""] == "frac"
            taps["frac" if frac else "other"].append(count)
        else:
            raise AssertionError("the game did not end in 150 moves")
        player.wait_state(server.table_state(table)[1])
        expect(page.locator("#play")).to_have_attribute("data-game-over", "1")
        expect(page.locator("#play-standings li")).to_have_count(2)
        assert len(taps["frac"]) >= 3, taps
        # Every fraction went down in one tap (§1.5: no rule question on the touch path).
        assert set(taps["frac"]) == {1}, taps
        inputs = page.evaluate("window.__inputs")
        # Touch only: no key, and every pointer a finger (a tap's compatibility mouse
        # events make no pointer events of their own).
        assert set(inputs) == {"pointer:touch"}, set(inputs)
    finally:
        context.close()
