"""Live play in the browser: a whole Uno Fractions game, a wrong play, a reconnect."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from games.engine import Game
from tests.e2e.browser.conftest import DESKTOP, PHONE, Server, signed_in
from tests.e2e.browser.moves import next_move, page_asks
from tests.e2e.browser.pages import PlayPage, card_selector, option_selector

pytestmark = pytest.mark.browser

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
# Set to refresh docs/screenshots; otherwise the screenshots go to a temporary folder.
REFRESH_DOCS = bool(os.environ.get("UNOCLASS_SCREENSHOTS"))
# Four students, three cards each: every fraction rule, a question, UNO calls and a Joker.
FOUR_PLAYERS_SETUP = {
    "dealer": 3,
    "hands": [
        ["3/6v", "1/3b", "2/12j"],
        ["5/6b", "2/3v", "8/24r"],
        ["10/12j", "joker", "6/12b"],
        ["4/12r", "8/12v", "16/48j"],
    ],
    "start": "1/2r",
}
# One student (seat 0, plays first on 1/3) and a bot.
DUEL_SETUP: dict[str, Any] = {
    "dealer": 1,
    "hands": [["4/12j", "2/3r", "10/12v", "1/6b"], ["2/6r", "5/6v", "1/2b", "joker"]],
    "start": "1/3v",
}
KEYBOARD_SEAT = 0


def test_four_students_play_uno_fractions_to_the_end(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    names = ["Alice", "Bruno", "Chloé", "Dylan"]
    world = server.world(students=names, setup=FOUR_PLAYERS_SETUP)
    table = world["table"]
    langs = ["fr", "fr", "fr", "en"]
    contexts = [
        signed_in(browser, server, s["session"], lang=lang)
        for s, lang in zip(world["students"], langs, strict=True)
    ]
    players = []
    script_errors: list[str] = []
    for seat, context in enumerate(contexts):
        page = context.new_page()
        page.on("pageerror", lambda error: script_errors.append(str(error)))
        page.goto(f"{server.url}/tables/{table}/")
        players.append(PlayPage(page, keyboard_only=seat == KEYBOARD_SEAT))
    try:
        moves = 0
        for _ in range(80):
            state, state_id = server.table_state(table)
            game = Game.from_dict(state)
            public = game.view(None)
            for player in players:
                player.wait_state(state_id)
            if public["game_over"]:
                break
            seat = public["acting"]
            assert seat is not None
            player = players[seat]
            # The page shows whom the game waits on as the engine's view says (`acting`).
            expect(player.page.locator("#play")).to_have_attribute("data-acting", str(seat))
            assert player.hand() == game.view(seat)["hand"]
            move = next_move(game, seat)
            player.do(move, asks=page_asks(game, move))
            server.wait_state_after(table, state_id)
            moves += 1
            if moves == 4:  # Alice to play, two cards left: the UNO button shows
                folder = DOCS_SCREENSHOTS if REFRESH_DOCS else tmp_path
                _screenshots(browser, server, world, players[KEYBOARD_SEAT], folder)
        assert public["game_over"] and public["winner"] == KEYBOARD_SEAT
        assert moves >= 12
        for seat, player in enumerate(players):
            banner = player.page.locator("#play-banner")
            expect(banner).to_be_visible()
            expect(banner).to_contain_text(names[KEYBOARD_SEAT])
            log = player.page.locator("#play-log")
            expect(log).to_contain_text("plays" if langs[seat] == "en" else "joue")
            expect(player.page.locator("#play-announcer")).not_to_be_empty()
        assert script_errors == []
        # The keyboard player never clicked: everything went through Tab, Enter and shortcuts.
        expect(players[KEYBOARD_SEAT].page.locator("#play-log")).to_contain_text("dit UNO")
    finally:
        for context in contexts:
            context.close()


def _screenshots(
    browser: Browser, server: Server, world: dict[str, Any], player: PlayPage, folder: Path
) -> None:
    """Save the play page mid-game, on a desktop and on a phone."""
    folder.mkdir(parents=True, exist_ok=True)
    player.page.screenshot(path=str(folder / "play.png"), full_page=True)
    phone = signed_in(
        browser,
        server,
        world["students"][1]["session"],
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    try:
        page = phone.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        expect(page.locator("#play-hand button").first).to_be_visible()
        page.screenshot(path=str(folder / "play-phone.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        phone.close()


def test_wrong_equivalence_shows_its_explanation(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    context = signed_in(browser, server, world["students"][0]["session"])
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        player = PlayPage(page)
        player.wait_state(0)
        expect(page.locator("#play-announcer")).to_contain_text("À toi de jouer !")
        # 2/3 on 1/3: same denominator, so the page asks; the student claims "equal".
        page.click(card_selector("2/3r"))
        expect(page.locator("#chooser-title")).to_have_text("Quelle règle utilises-tu ?")
        page.click(option_selector("equal"))
        error = page.locator("#play-error")
        expect(error).to_be_visible()
        expect(error).to_have_attribute("data-code", "not_equivalent")
        expect(page.locator("#play-error-message")).to_contain_text("2/3 n’est pas égale à 1/3")
        explanation = page.locator("#play-error-explanation")
        expect(explanation).to_contain_text("1/3 ≠ 2/3")
        expect(explanation).to_contain_text("même dénominateur")
        assert server.table_state(world["table"])[1] == 0  # nothing changed
        assert player.hand() == DUEL_SETUP["hands"][0]
        # An equal fraction with another denominator is played without a question.
        page.click(card_selector("4/12j"))
        expect(page.locator("#play-chooser")).to_be_hidden()
        expect(page.locator("#play-log")).to_contain_text("4/12 jaune")
        expect(error).to_be_hidden()
    finally:
        context.close()


def test_reconnect_finds_the_same_seat_and_hand(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    table = world["table"]
    context = signed_in(browser, server, world["students"][0]["session"], viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{table}/")
        player = PlayPage(page)
        player.wait_state(0)
        page.click(card_selector("4/12j"))
        server.wait_state_after(table, 0)
        state_id = server.wait_state_after(table, 1)  # the bot answered
        player.wait_state(state_id)
        hand = player.hand()
        assert hand == Game.from_dict(server.table_state(table)[0]).view(0)["hand"]

        page.evaluate("window.unoclassPlay.socket().close()")
        status = page.locator("#play-connection")
        expect(status).to_have_attribute("data-status", "reconnecting")
        expect(status).to_have_text("Reconnexion…")
        expect(status).to_have_attribute("data-status", "connected", timeout=10_000)
        player.wait_state(state_id)
        assert player.hand() == hand

        page.reload()
        player.wait_state(state_id)
        assert player.hand() == hand
        expect(page.locator('.player--me[data-seat="0"]')).to_contain_text("Alice (toi)")
    finally:
        context.close()
