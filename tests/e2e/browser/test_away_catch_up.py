"""A play page away for 100 moves logs every one of them once, in order, when it is back.

The page's socket is cut (and every new one refused) while robots play the table on; when
sockets go through again, the page reconnects with `?since=` the last state it logged and the
server replays the stored log (docs/protocol.md, "Catching up"). What the server sent is read
off the wire; what the page logged is read off the page.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from tests.e2e.browser.conftest import DESKTOP, Server, signed_in
from tests.e2e.browser.pages import PlayPage

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

AWAY_MOVES = 100
MAX_LOG = 60  # the play page keeps the last 60 lines (static/js/play.js)
# Note every sentence put in the page's live region from now on (it keeps only the last 5).
WATCH_ANNOUNCER = """() => {
  window.heard = [];
  new MutationObserver((changes) => changes.forEach((change) =>
    change.addedNodes.forEach((node) => window.heard.push(node.textContent))
  )).observe(document.getElementById("play-announcer"), { childList: true });
}"""


def _expected(server: Server, table: int, since: int) -> dict[str, Any]:
    """Ask the server's own catch-up for seat 0, in French (what the page should log)."""
    code = (
        "import json\n"
        "from games.catch_up import frames_since\n"
        f"found = frames_since(table_id={table}, seat=0, since={since}, lang='fr')\n"
        "frames = found.frames[:-1]\n"
        "print(json.dumps({'state_id': found.state_id,"
        " 'events': [[f['state_id'], f['event'], f['text']] for f in frames]}))\n"
    )
    return server.app.script(code)  # type: ignore[no-any-return]


def test_a_page_away_for_100_moves_logs_each_once_in_order(
    server: Server, browser: Browser
) -> None:
    world = server.world(
        students=["Alice"], bots=3, ruleset="classic", options={"target_score": 100_000}
    )
    table = world["table"]
    # Robots play every seat, Alice's too: the table moves on whether her page is there or not.
    server.app.script(
        "from games.models import Seat\n"
        f"Seat.objects.filter(table_id={table}, index=0)"
        ".update(bot_takeover=True, bot='heuristic')\n"
        "print('{}')\n"
    )
    context = signed_in(browser, server, world["sessions"][0], viewport=DESKTOP)
    away = {"on": False}
    received: list[dict[str, Any]] = []

    def route(ws: WebSocketRoute) -> None:
        if away["on"]:
            ws.close()
            return
        upstream = ws.connect_to_server()

        def forward(message: str | bytes) -> None:
            if away["on"]:
                return
            if isinstance(message, str):
                received.append({"url": ws.url, **json.loads(message)})
            ws.send(message)

        upstream.on_message(forward)

    try:
        page = context.new_page()
        page.route_web_socket(re.compile(r"/ws/table/"), route)
        page.goto(f"{server.url}/tables/{table}/?link=socket")
        player = PlayPage(page)
        first = server.wait_state_after(table, 2)  # the robots play
        player.wait_state(first)

        away["on"] = True
        page.evaluate("window.unoclassPlay.socket().close()")
        expect(page.locator("#play-connection")).to_have_attribute("data-status", "reconnecting")
        logged = page.evaluate("window.unoclassPlay.state().logged")
        assert logged >= first
        server.wait_state_after(table, logged + AWAY_MOVES, timeout=120)
        server.app.script(  # stop the table where it is: the comparison below is exact
            "from games.services import table_set_paused\n"
            f"table_set_paused(table_id={table}, paused=True)\n"
            "print('{}')\n"
        )
        final = server.table_state(table)[1]
        assert final >= logged + AWAY_MOVES
        received.clear()
        page.evaluate(WATCH_ANNOUNCER)
        away["on"] = False

        expect(page.locator("#play-connection")).to_have_attribute(
            "data-status", "connected", timeout=40_000
        )
        player.wait_state(final)
        expect(page.locator("#play")).to_have_attribute("data-status", "paused")

        expected = _expected(server, table, logged)
        assert expected["state_id"] == final
        # The socket reopened with ?since= the last logged state, and the server sent every
        # event after it, in order, once, then the state: no recent-log replay.
        urls = {frame["url"] for frame in received}
        assert urls == {f"{server.daphne.ws}/ws/table/{table}/?since={logged}"}
        events = [[f["state_id"], f["event"], f["text"]] for f in received if f["type"] == "event"]
        assert events == expected["events"]
        assert not any(f.get("replay") for f in received)
        states = {state_id for state_id, _event, _text in events}
        assert states == set(range(logged + 1, final + 1))
        # No other seat's drawn cards reached Alice.
        for state_id, event, _text in events:
            if event["type"] == "drew" and event["seat"] != 0:
                assert "cards" not in event, (state_id, event)
        # The page logged them all: its log ends with the last MAX_LOG of them, in order.
        texts = [text for _state_id, _event, text in events if text]
        assert len(texts) > MAX_LOG
        log = page.locator("#play-log li").all_text_contents()
        assert log == texts[-MAX_LOG:]
        assert page.evaluate("window.unoclassPlay.state().logged") == final
        # A screen reader hears the last move, not a hundred sentences.
        last = [text for state_id, _event, text in events if state_id == final and text]
        heard = page.evaluate("window.heard")
        assert heard[: len(last)] == last
        assert len(heard) <= len(last) + 1  # and at most "your turn" from the new state
    finally:
        context.close()


def test_a_page_that_misses_a_state_asks_since_and_logs_each_move_once(
    server: Server, browser: Browser
) -> None:
    """A state frame lost on the way (the page sees state numbers that do not follow): the
    page asks "since" its last logged state and its log has every move once, in order."""
    world = server.world(
        students=["Alice"], bots=3, ruleset="classic", options={"target_score": 100_000}
    )
    table = world["table"]
    server.app.script(
        "from games.models import Seat\n"
        f"Seat.objects.filter(table_id={table}, index=0)"
        ".update(bot_takeover=True, bot='heuristic')\n"
        "print('{}')\n"
    )
    context = signed_in(browser, server, world["sessions"][0], viewport=DESKTOP)
    dropped: list[int] = []
    first: list[int] = []  # the state of the socket's opening (after the recent history)
    asked: list[dict[str, Any]] = []

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            frame = json.loads(message) if isinstance(message, str) else {}
            if frame.get("type") == "state" and not first:
                first.append(frame["state_id"])
            live = frame.get("type") == "state" and bool(frame.get("events"))
            if live and not dropped and frame["state_id"] >= first[0] + 3:
                dropped.append(frame["state_id"])  # lost: the page never sees it
                return
            ws.send(message)

        def to_server(message: str | bytes) -> None:
            if isinstance(message, str) and json.loads(message).get("type") == "since":
                asked.append(json.loads(message))
            upstream.send(message)

        upstream.on_message(to_page)
        ws.on_message(to_server)

    try:
        page = context.new_page()
        page.route_web_socket(re.compile(r"/ws/table/"), route)
        page.goto(f"{server.url}/tables/{table}/?link=socket")
        player = PlayPage(page)
        server.wait_state_after(table, 12, timeout=60)
        server.app.script(
            "from games.services import table_set_paused\n"
            f"table_set_paused(table_id={table}, paused=True)\n"
            "print('{}')\n"
        )
        final = server.table_state(table)[1]
        player.wait_state(final)
        assert dropped, "no state frame was dropped"
        assert asked and asked[0] == {"type": "since", "state_id": dropped[0] - 1}
        expected = _expected(server, table, first[0])
        texts = [text for _state_id, _event, text in expected["events"] if text]
        # After the recent history (up to the opening state), each move once, in order.
        shown = min(len(texts), MAX_LOG)
        log = page.locator("#play-log li").all_text_contents()
        assert log[-shown:] == texts[-shown:]
        assert page.evaluate("window.unoclassPlay.state().logged") == final
    finally:
        context.close()
