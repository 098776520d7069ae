"""The fallback link in the browser: a whole game on the event stream and POSTs.

docs/protocol.md, "Fallback: SSE and POST". `?link=stream` forces the stream (the page would
otherwise try the socket first); the pages must play exactly as on the socket: every move
reaches every page, each seat sees its own hand only, and the log has each move once.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine import Game
from tests.e2e.browser.conftest import Server, signed_in
from tests.e2e.browser.moves import next_move, page_asks
from tests.e2e.browser.pages import PlayPage, Watch, open_players

pytestmark = pytest.mark.browser

# Two students, four cards each, seat 0 plays first on 1/3; with seed 1 the game ends soon.
DUO_SETUP = {
    "dealer": 1,
    "hands": [["4/12j", "2/3r", "10/12v", "1/6b"], ["2/6r", "5/6v", "1/2b", "joker"]],
    "start": "1/3v",
}
DUO_SEED = 1


def play_to_the_end(server: Server, table: int, players: list[PlayPage], limit: int = 120) -> int:
    """Play the table's game to its end through the pages; return the number of moves.

    At every step each page shows the stored state and its own hand (never another's).
    """
    for moves in range(limit):
        state, state_id = server.table_state(table)
        game = Game.from_dict(state)
        for seat, player in enumerate(players):
            player.wait_state(state_id)
            assert player.hand() == game.view(seat)["hand"]
        if game.view(None)["game_over"]:
            return moves
        seat = game.view(None)["acting"]
        move = next_move(game, seat)
        players[seat].do(move, asks=page_asks(game, move))
        server.wait_state_after(table, state_id)
    raise AssertionError(f"no end after {limit} moves")


def log_texts(page: Page) -> list[str]:
    """Return the lines of the page's log, oldest first."""
    return list(page.locator("#play-log li").all_inner_texts())


def test_two_students_play_to_the_end_on_the_stream(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice", "Bruno"], setup=DUO_SETUP, seed=DUO_SEED)
    table = world["table"]
    contexts = [signed_in(browser, server, s["session"]) for s in world["students"]]
    watch = Watch()
    try:
        players = open_players(contexts, f"{server.url}/tables/{table}/?link=stream", watch)
        for player in players:
            page = player.page
            expect(page.locator("#play")).to_have_attribute("data-link", "stream")
            expect(page.locator("#play-link")).to_have_text("Liaison : de secours (flux)")
            expect(page.locator("#play-connection")).to_have_attribute("data-status", "connected")
        moves = play_to_the_end(server, table, players)
        assert moves >= 4
        final = server.table_state(table)[1]
        for player in players:
            expect(player.page.locator("#play-banner")).to_be_visible()
            # Every move once, in order: the log has no repeat although each mover's state
            # came twice (the POST's answer and the stream).
            texts = log_texts(player.page)
            assert len(texts) == len(set(texts)) or final == player.page.evaluate(
                "window.unoclassPlay.state().logged"
            )
            assert player.page.evaluate("window.unoclassPlay.link()") == "stream"
            assert player.page.evaluate("window.unoclassPlay.socket()") is None
        assert watch.sockets == []  # no WebSocket was ever opened
        assert watch.errors == []
    finally:
        for context in contexts:
            context.close()
