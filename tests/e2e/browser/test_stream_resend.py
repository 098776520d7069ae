"""A move POSTed on the fallback link and cut on the network is sent again, once the stream is
back (static/js/live-stream.js; docs/protocol.md, "Fallback: SSE and POST").

The cut is the browser's own: the POST's connection is reset (Playwright's route), so the
page's fetch rejects for real. In the first test the request has reached the real server,
which applied the move, before its answer is cut: the resend comes back `stale_state` (the
frame's state id) with the stored state, and the child reads no error. In the second every
try is cut before the server: the page says so, in French, and shows the stored state.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Route, expect

from games.engine import Game
from tests.e2e.browser.conftest import Server, signed_in
from tests.e2e.browser.moves import next_move, page_asks
from tests.e2e.browser.pages import PlayPage
from tests.e2e.browser.test_play_stream import DUO_SEED, DUO_SETUP

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

RESENDS = 3  # RESEND_DELAYS_MS in static/js/live-stream.js
LOST_FR = "Ton coup n’est pas arrivé au serveur"


def _open(server: Server, browser: Browser, cut: Any) -> tuple[Any, PlayPage, int, list[Any]]:
    """Open Alice's page on the stream with `cut(route, frame)` on its POSTs; return them all."""
    world = server.world(students=["Alice", "Bruno"], setup=DUO_SETUP, seed=DUO_SEED)
    table = world["table"]
    context = signed_in(browser, server, world["students"][0]["session"])
    page = context.new_page()
    posted: list[Any] = []

    def route(route: Route) -> None:
        frame = json.loads(route.request.post_data or "{}")
        posted.append(frame)
        cut(route, frame)

    page.route(f"**/tables/{table}/frames/", route)
    page.goto(f"{server.url}/tables/{table}/?link=stream")
    expect(page.locator("#play-connection")).to_have_attribute("data-status", "connected")
    return context, PlayPage(page), table, posted


def _wait_for(player: PlayPage, found: Any, what: str) -> None:
    """Let the page run until `found()` is true, within 10 s (the route handlers run meanwhile)."""
    for _ in range(100):
        if found():
            return
        player.page.wait_for_timeout(100)
    raise AssertionError(f"no {what} within 10 s")


def _first_move(server: Server, table: int, player: PlayPage) -> int:
    """Make seat 0's move with the page's controls; return the state it was made on."""
    state, state_id = server.table_state(table)
    player.wait_state(state_id)
    game = Game.from_dict(state)
    move = next_move(game, 0)
    player.do(move, asks=page_asks(game, move))
    return state_id


def test_a_move_whose_answer_is_cut_is_resent_and_applied_once_silently(
    server: Server, browser: Browser
) -> None:
    answers: list[dict[str, Any]] = []
    cut_once: list[dict[str, Any]] = []

    def cut(route: Route, frame: dict[str, Any]) -> None:
        response = route.fetch()  # the real server takes it (and applies the move)
        if frame.get("type") == "action" and not cut_once:
            cut_once.append(frame)
            route.abort("connectionreset")  # its answer never reaches the page
            return
        answers.append({"frame": frame, **response.json()})
        route.fulfill(response=response)

    context, player, table, posted = _open(server, browser, cut)
    try:
        before = _first_move(server, table, player)
        player.wait_state(before + 1)
        _wait_for(player, lambda: len(answers) >= 1 and len(posted) >= 2, "resent action")
        actions = [frame for frame in posted if frame.get("type") == "action"]
        expect(player.page.locator("#play-error")).to_be_hidden()
        # The same frame went twice; the second came back stale_state with the stored state.
        assert len(actions) == 2 and actions[0] == actions[1] == cut_once[0]
        [resent] = [a for a in answers if a["frame"].get("type") == "action"]
        codes = [f.get("code") for f in resent["frames"] if f["type"] == "error"]
        assert codes == ["stale_state"]
        assert any(f["type"] == "state" and f["state_id"] == before + 1 for f in resent["frames"])
        # Applied once: the table is one move on, and stays there (Bruno has not played).
        assert server.table_state(table)[1] == before + 1
        player.page.wait_for_timeout(1000)
        assert server.table_state(table)[1] == before + 1
        expect(player.page.locator("#play-error")).to_be_hidden()
        assert player.page.evaluate("window.unoclassPlay.state().logged") == before + 1
    finally:
        context.close()


def test_a_move_cut_on_every_try_is_said_and_the_page_shows_the_stored_state(
    server: Server, browser: Browser
) -> None:
    def cut(route: Route, frame: dict[str, Any]) -> None:
        if frame.get("type") == "action":
            route.abort("connectionreset")  # never reaches the server
        else:
            route.continue_()

    context, player, table, posted = _open(server, browser, cut)
    try:
        before = _first_move(server, table, player)
        error = player.page.locator("#play-error")
        expect(error).to_be_visible(timeout=20_000)
        expect(error).to_have_attribute("data-code", "lost")
        expect(player.page.locator("#play-error-message")).to_contain_text(LOST_FR)
        actions = [frame for frame in posted if frame.get("type") == "action"]
        assert len(actions) == 1 + RESENDS
        assert all(frame == actions[0] for frame in actions)
        assert server.table_state(table)[1] == before
        # Then it asked for the stored state (a since or sync POST, which got through).
        _wait_for(
            player,
            lambda: any(f.get("type") in {"since", "sync"} for f in posted[len(actions) :]),
            "since or sync after the lost move",
        )
        player.wait_state(before)
    finally:
        context.close()
