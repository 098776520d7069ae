"""The page moves to the fallback link by itself when no WebSocket gets through.

A second daphne of the browser package serves with REFUSE_WEBSOCKETS=1: it refuses every
WebSocket handshake for real, as a filtering proxy that does not forward `Upgrade` does (the
socket closes with 1006, never opened). The pages try the socket first, say "direct", then
move to the event stream within a few seconds (static/js/live-link.js) and play the game to
its end there, without a reload.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from games.engine import Game
from tests.e2e.browser.conftest import Server, quick_server, signed_in
from tests.e2e.browser.moves import next_move, page_asks
from tests.e2e.browser.pages import PlayPage, Watch, open_players, skip_open_timeout
from tests.e2e.browser.test_overview_move import place_of, submit_move
from tests.e2e.browser.test_play import DUEL_SETUP
from tests.e2e.browser.test_play_stream import DUO_SEED, DUO_SETUP, play_to_the_end

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def refusing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Serve the app with every WebSocket handshake refused, its CSRF cookie HttpOnly."""
    with quick_server(
        tmp_path_factory.mktemp("no-sockets"),
        REFUSE_WEBSOCKETS="1",
        # As in production: the CSRF cookie out of the scripts' reach (the page's token posts).
        CSRF_COOKIE_HTTPONLY="1",
    ) as live:
        yield live


def test_refused_sockets_move_the_pages_to_the_stream_and_the_game_ends(
    refusing: Server, browser: Browser
) -> None:
    world = refusing.world(students=["Alice", "Bruno"], setup=DUO_SETUP, seed=DUO_SEED)
    table = world["table"]
    contexts = [signed_in(browser, refusing, s["session"]) for s in world["students"]]
    watch = Watch()
    try:
        for context in contexts:
            context.clock.install()
        players = open_players(contexts, f"{refusing.url}/tables/{table}/", watch)
        for player in players:
            root = player.page.locator("#play")
            # The socket is tried first and refused; within a few seconds the stream takes over.
            skip_open_timeout(player.page)
            expect(root).to_have_attribute("data-link", "stream", timeout=20_000)
            expect(player.page.locator("#play-link")).to_have_text("Liaison : de secours (flux)")
            expect(player.page.locator("#play-connection")).to_have_attribute(
                "data-status", "connected"
            )
            # The quiet status is not a live region: nothing is announced about the link.
            assert player.page.locator("#play-link").get_attribute("aria-live") == "off"
        assert watch.sockets and all("/ws/table/" in url for url in watch.sockets)
        assert play_to_the_end(refusing, table, players) >= 4
        for player in players:
            expect(player.page.locator("#play-banner")).to_be_visible()
            assert player.page.evaluate("window.unoclassPlay.link()") == "stream"
        assert watch.errors == []
    finally:
        for context in contexts:
            context.close()


def test_the_overview_moves_to_the_stream_and_follows_a_move(
    refusing: Server, browser: Browser
) -> None:
    world = refusing.world(
        students=["Alice", "Bruno"], setup=DUO_SETUP, seed=DUO_SEED, session=True
    )
    table = world["table"]
    teacher = signed_in(browser, refusing, world["teacher_session"])
    alice = signed_in(browser, refusing, world["sessions"][0])
    try:
        overview = teacher.new_page()
        overview.clock.install()
        overview.goto(f"{refusing.url}/sessions/{world['session']}/")
        skip_open_timeout(overview)
        box = overview.locator("#overview-live")
        expect(box).to_have_attribute("data-link", "stream", timeout=20_000)
        expect(overview.locator("#overview-connection")).to_have_attribute("data-status", "live")
        expect(overview.locator("#overview-link")).to_have_text("Liaison : de secours (flux)")
        attempts = box.locator("tr", has=overview.locator("th", has_text="Alice")).locator("td")
        expect(attempts.nth(1)).to_have_text("0")

        page = alice.new_page()
        page.goto(f"{refusing.url}/tables/{table}/?link=stream")
        player = PlayPage(page)
        state, state_id = refusing.table_state(table)
        player.wait_state(state_id)
        game = Game.from_dict(state)
        move = next_move(game, 0)
        player.do(move, asks=page_asks(game, move))
        refusing.wait_state_after(table, state_id)
        # The move reaches the overview through its stream: Alice's fraction play is counted.
        assert move.kind == "card"
        expect(attempts.nth(1)).to_have_text("1")
        # The live part was replaced by the stream's frames: the move form's token still holds.
        box.get_by_role("button", name="Déplacer Alice").click()
        overview.locator("#move-table").select_option(value="")  # the waiting list
        submit_move(overview, "Déplacer", "L’élève a changé de place.")
        alice_id = world["students"][0]["id"]
        assert place_of(refusing, world["session"], alice_id) == (True, None)
    finally:
        teacher.close()
        alice.close()


def test_sockets_cut_twice_within_seconds_move_the_page_to_the_stream(
    server: Server, browser: Browser
) -> None:
    # Between the page and the server, every socket is cut once its first frame has passed, as
    # a filter that kills the connections it does not like does (Playwright's WebSocket route:
    # the browser's own network stack, the server's real socket behind it).
    world = server.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    table = world["table"]
    context = signed_in(browser, server, world["students"][0]["session"])
    opened: list[str] = []

    def cut_soon(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        opened.append(ws.url)

        def forward_then_cut(message: str | bytes) -> None:
            ws.send(message)
            ws.close(code=1001)
            upstream.close()

        upstream.on_message(forward_then_cut)

    try:
        page = context.new_page()
        page.route_web_socket(re.compile(r"/ws/table/"), cut_soon)
        page.goto(f"{server.url}/tables/{table}/")
        root = page.locator("#play")
        expect(root).to_have_attribute("data-link", "stream", timeout=20_000)
        assert len(opened) == 2  # the second cut within 10 s moved it; no third socket
        player = PlayPage(page)
        state, state_id = server.table_state(table)
        player.wait_state(state_id)
        game = Game.from_dict(state)
        move = next_move(game, 0)
        player.do(move, asks=page_asks(game, move))
        server.wait_state_after(table, state_id)
        player.wait_state(server.table_state(table)[1])
        page.wait_for_timeout(1_500)
        assert len(opened) == 2
    finally:
        context.close()


@pytest.fixture(scope="module")
def restartable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Serve the app on a daphne of this module's own, which a test may kill and restart."""
    with quick_server(tmp_path_factory.mktemp("restart")) as live:
        yield live


def test_a_server_restart_keeps_the_page_on_its_socket(
    restartable: Server, browser: Browser
) -> None:
    # Sockets that cannot reopen after one that did are a server away, not a network that
    # blocks them: the page retries the socket and never moves to the stream.
    world = restartable.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    context = signed_in(browser, restartable, world["students"][0]["session"])
    try:
        page = context.new_page()
        # The page's clock is the test's (its timers still run as time passes): the retries
        # come when the test moves it on, not after seconds of waiting.
        page.clock.install()
        page.goto(f"{restartable.url}/tables/{world['table']}/")
        status = page.locator("#play-connection")
        expect(status).to_have_attribute("data-status", "connected")
        expect(page.locator("#play")).to_have_attribute("data-link", "socket")
        restartable.daphne.kill()
        expect(status).to_have_attribute("data-status", "reconnecting")
        # Three tries fail, 1 s, 2 s and 4 s apart: longer than the 5 s a first socket gets to
        # open, and two closes within the 10 s that make two cuts.
        for delay in (1_000, 2_000, 4_000):
            page.evaluate("window.before = window.unoclassPlay.socket()")
            page.clock.fast_forward(delay)
            page.wait_for_function(
                "() => { const s = window.unoclassPlay.socket(); return s === null"
                " || (s !== window.before && s.readyState === WebSocket.CLOSED); }",
                polling=100,
            )
        expect(page.locator("#play")).to_have_attribute("data-link", "socket")
        restartable.daphne.start()
        page.clock.fast_forward(15_000)  # past the longest retry delay: the next try now
        expect(status).to_have_attribute("data-status", "connected")
        expect(page.locator("#play")).to_have_attribute("data-link", "socket")
        expect(page.locator("#play-link")).to_have_text("Liaison : directe")
    finally:
        context.close()
