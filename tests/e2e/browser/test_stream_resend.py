"""A move POSTed on the fallback link and cut on the network is sent again, once the stream is
back (static/js/live-stream.js; docs/protocol.md, "Fallback: SSE and POST").

The cut is the browser's own: the POST's connection is reset (Playwright's route), so the
page's fetch rejects for real. In the first test the request has reached the real server,
which applied the move, before its answer is cut: the resend comes back `stale_state` (the
frame's state id) with the stored state, and the child reads no error. In the second every
try is cut before the server: the page says so, in French, and shows the stored state. The
same two cuts of an answer to the reason prompt: a stored answer resent comes back
`reason_saved` (no error); an answer lost on every try is said and asked again.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Route, expect

from games.engine import Game
from tests.e2e.browser.conftest import Server, serious_violations, signed_in
from tests.e2e.browser.moves import next_move, page_asks
from tests.e2e.browser.pages import PlayPage, card_selector
from tests.e2e.browser.test_play_stream import DUO_SEED, DUO_SETUP
from tests.e2e.browser.test_reason_prompt import ASKED_WORLD, claim_wrongly, stored_reasons

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

RESENDS = 3  # RESEND_DELAYS_MS in static/js/live-stream.js
LOST_FR = "Ton coup n’est pas arrivé au serveur"
REASON_LOST_FR = "Ta réponse n’est pas arrivée au serveur\u202f: réponds encore une fois."
REASON_LATE_FR = "Ta réponse à la question n’est pas arrivée au serveur, et la partie a continué."
DUO_WORLD: dict[str, Any] = {"students": ["Alice", "Bruno"], "setup": DUO_SETUP, "seed": DUO_SEED}


def _open(
    server: Server, browser: Browser, cut: Any, world_args: dict[str, Any] = DUO_WORLD
) -> tuple[Any, PlayPage, int, list[Any]]:
    """Open Alice's page on the stream with `cut(route, frame)` on its POSTs; return them all."""
    world = server.world(**world_args)
    table = world["table"]
    context = signed_in(browser, server, world["students"][0]["session"])
    page = context.new_page()
    posted: list[Any] = []

    def route(route: Route) -> None:
        frame = json.loads(route.request.post_data or "{}")
        if frame.get("type") == "ping":
            route.continue_()  # the page's heartbeat (docs/protocol.md, "ping"): not cut here
            return
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


def _cut_first_answer(kind: str) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]:
    """Return a cut that lets the server take every POST but cuts the first `kind` frame's
    answer; and the frames it cut and the answers it let through (with their frame)."""
    answers: list[dict[str, Any]] = []
    cut_once: list[dict[str, Any]] = []

    def cut(route: Route, frame: dict[str, Any]) -> None:
        response = route.fetch()  # the real server takes it (and applies it)
        if frame.get("type") == kind and not cut_once:
            cut_once.append(frame)
            route.abort("connectionreset")  # its answer never reaches the page
            return
        answers.append({"frame": frame, **response.json()})
        route.fulfill(response=response)

    return cut, cut_once, answers


def test_a_move_whose_answer_is_cut_is_resent_and_applied_once_silently(
    server: Server, browser: Browser
) -> None:
    cut, cut_once, answers = _cut_first_answer("action")
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


def _choices(player: PlayPage) -> list[list[str]]:
    """Return the reason prompt's choices as the page shows them: [code, text], in order."""
    return list(
        player.page.locator("#play-reason-choices button").evaluate_all(
            "buttons => buttons.map(b => [b.dataset.code, b.textContent])"
        )
    )


def _reasons_posted(posted: list[Any]) -> list[Any]:
    return [frame for frame in posted if frame.get("type") == "reason"]


def test_a_reason_answer_whose_answer_is_cut_is_resent_and_stored_once_silently(
    server: Server, browser: Browser
) -> None:
    cut, cut_once, answers = _cut_first_answer("reason")
    context, player, table, posted = _open(server, browser, cut, ASKED_WORLD)
    try:
        claim_wrongly(player)
        prompt = player.page.locator("#play-reason")
        expect(prompt).to_be_visible()
        [_, (code, _)] = _choices(player)[:2]
        player.page.keyboard.press("2")
        expect(prompt).to_be_hidden()
        _wait_for(player, lambda: len(_reasons_posted(posted)) >= 2, "resent reason")
        expect(player.page.locator("#play-announcer")).to_contain_text("Merci")
        # The same frame went twice; the server took the same answer again: reason_saved.
        assert _reasons_posted(posted) == cut_once * 2 == [{"type": "reason", "code": code}] * 2
        [resent] = [a for a in answers if a["frame"].get("type") == "reason"]
        assert resent["frames"] == [{"type": "reason_saved"}]
        assert stored_reasons(server, table) == [code]
        # No error for the child: the box still shows the refused claim, the prompt stays shut.
        player.page.wait_for_timeout(1000)
        expect(player.page.locator("#play-error")).to_have_attribute("data-code", "not_equivalent")
        expect(prompt).to_be_hidden()
        assert len(_reasons_posted(posted)) == 2
    finally:
        context.close()


def test_a_reason_answer_cut_on_every_try_is_said_and_asked_again(
    server: Server, browser: Browser
) -> None:
    let_through: list[bool] = []

    def cut(route: Route, frame: dict[str, Any]) -> None:
        if frame.get("type") == "reason" and not let_through:
            route.abort("connectionreset")  # never reaches the server
        else:
            route.continue_()

    context, player, table, posted = _open(server, browser, cut, ASKED_WORLD)
    page = player.page
    try:
        claim_wrongly(player)
        prompt = page.locator("#play-reason")
        expect(prompt).to_be_visible()
        asked = _choices(player)
        assert len(asked) == 4
        page.keyboard.press("2")
        expect(prompt).to_be_hidden()

        # Every try cut: the page says so, in French, and asks again with the same choices.
        lost = page.locator("#play-reason-lost")
        expect(lost).to_be_visible(timeout=20_000)
        expect(lost).to_have_text(REASON_LOST_FR)
        expect(prompt).to_be_visible()
        assert _choices(player) == asked
        expect(page.locator("#play-reason-choices button").first).to_be_focused()
        expect(page.locator("#play-announcer")).to_contain_text(REASON_LOST_FR)
        assert serious_violations(page) == []  # the message's contrast on the prompt too
        expect(page.locator("#play-error")).to_have_attribute("data-code", "not_equivalent")
        assert _reasons_posted(posted) == [{"type": "reason", "code": asked[1][0]}] * (1 + RESENDS)
        assert stored_reasons(server, table) == [None]
        assert server.table_state(table)[1] == 0  # still Alice's turn: the question stands

        # Answered again, the network letting it through: stored once, thanked, closed.
        let_through.append(True)
        page.keyboard.press("3")
        expect(prompt).to_be_hidden()
        expect(page.locator("#play-announcer")).to_contain_text("Merci")
        assert stored_reasons(server, table) == [asked[2][0]]
        assert _reasons_posted(posted)[1 + RESENDS :] == [{"type": "reason", "code": asked[2][0]}]
        expect(page.locator("#play-error")).to_have_attribute("data-code", "not_equivalent")
    finally:
        context.close()


def test_a_reason_answer_lost_after_the_game_moved_on_is_said_and_not_asked_again(
    server: Server, browser: Browser
) -> None:
    held: list[Route] = []

    def cut(route: Route, frame: dict[str, Any]) -> None:
        if frame.get("type") != "reason":
            route.continue_()
        elif len(_reasons_posted(posted)) <= RESENDS:
            route.abort("connectionreset")  # never reaches the server
        else:
            held.append(route)  # the last try: cut once the game has moved on

    context, player, table, posted = _open(server, browser, cut, ASKED_WORLD)
    page = player.page
    try:
        other = PlayPage(context.new_page())  # Alice's second tab, on its own link
        other.page.goto(f"{server.url}/tables/{table}/")
        claim_wrongly(player)
        prompt = page.locator("#play-reason")
        expect(prompt).to_be_visible()
        page.keyboard.press("1")
        _wait_for(player, lambda: bool(held), "the last try of the reason")
        # Meanwhile the other tab plays a right card: the question no longer stands.
        other.wait_state(0)
        other.press(card_selector("4/12j"))
        player.wait_state(1)
        held[0].abort("connectionreset")

        error = page.locator("#play-error")
        expect(error).to_have_attribute("data-code", "reason_lost", timeout=10_000)
        expect(page.locator("#play-error-message")).to_have_text(REASON_LATE_FR)
        expect(prompt).to_be_hidden()
        assert len(_reasons_posted(posted)) == 1 + RESENDS
        assert stored_reasons(server, table) == [None, None]  # the claim, then 4/12
    finally:
        context.close()
