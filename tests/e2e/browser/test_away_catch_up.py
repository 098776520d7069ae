"""A play page away for 100 moves logs every one of them once, in order, when it is back.

The page's socket is cut (and every new one refused) while robots play the table on; when
sockets go through again, the page reconnects with `?since=` the last state it logged and the
server replays the stored log (docs/protocol.md, "Catching up"). What the server sent is read
off the wire; what the page logged is read off the page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, WebSocketRoute, expect

from tests.e2e.browser.conftest import DESKTOP, Server, quick_server, signed_in
from tests.e2e.browser.pages import PlayPage
from tests.support.proxies import CuttingProxy
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

AWAY_MOVES = 100
MAX_LOG = 60  # the play page keeps the last 60 lines (static/js/play/log.js)
# Note every sentence put in the page's live region from now on (it keeps only the last 5).
WATCH_ANNOUNCER = """() => {
  window.heard = [];
  new MutationObserver((changes) => changes.forEach((change) =>
    change.addedNodes.forEach((node) => window.heard.push(node.textContent))
  )).observe(document.getElementById("play-announcer"), { childList: true });
}"""


# Keep every frame the page's event streams receive, with the stream's address (the page's
# own EventSource, unchanged: a listener is added to each).
RECORD_STREAMS = """() => {
  window.streamed = [];
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(url, options) {
      super(url, options);
      this.addEventListener("message", (message) =>
        window.streamed.push({ url: this.url, ...JSON.parse(message.data) }));
    }
  };
}"""


class SocketAway:
    """Cut the page's socket and refuse new ones while away; record the frames it received."""

    def __init__(self) -> None:
        self.on = False
        self.received: list[dict[str, Any]] = []

    def install(self, page: Page) -> None:
        """Route the page's table sockets through the test."""

        def route(ws: WebSocketRoute) -> None:
            if self.on:
                ws.close()
                return
            upstream = ws.connect_to_server()

            def forward(message: str | bytes) -> None:
                if self.on:
                    return
                if isinstance(message, str):
                    self.received.append({"url": ws.url, **json.loads(message)})
                ws.send(message)

            upstream.on_message(forward)

        page.route_web_socket(re.compile(r"/ws/table/"), route)

    def leave(self, page: Page) -> None:
        """Cut the open socket; refuse the next ones."""
        self.on = True
        page.evaluate("window.unoclassPlay.socket().close()")

    def frames(self, page: Page) -> list[dict[str, Any]]:
        """Return the frames received since `back`."""
        return self.received

    def back(self, page: Page) -> None:
        """Let sockets through again; forget what came before."""
        self.received.clear()
        self.on = False

    def check_resumed(self, server: Server, table: int, logged: int) -> None:
        """Check the page resumed with ?since= its last logged state, on one socket."""
        urls = {frame["url"] for frame in self.received}
        assert urls == {f"{server.daphne.ws}/ws/table/{table}/?since={logged}"}


class StreamAway:
    """Take the network between page and server down and back (a TCP proxy that cuts every
    connection while down: tests/support/cutting_proxy.py); record the streamed frames."""

    def __init__(self, proxy: CuttingProxy) -> None:
        self.proxy = proxy
        self.requests: list[Request] = []
        self.seen = 0

    def install(self, page: Page) -> None:
        """Record the page's stream requests and the frames its streams receive."""
        page.add_init_script(script=f"({RECORD_STREAMS})()")
        page.on("request", lambda r: self.requests.append(r) if "/stream/" in r.url else None)

    def leave(self, page: Page) -> None:
        """Cut the open stream and every connection until `back`."""
        self.proxy.go_down()

    def back(self, page: Page) -> None:
        """Let connections through again; forget what came before."""
        self.seen = page.evaluate("window.streamed.length")
        self.requests.clear()
        self.proxy.come_up()

    def frames(self, page: Page) -> list[dict[str, Any]]:
        """Return the frames received since `back`."""
        return list(page.evaluate("window.streamed"))[self.seen :]

    def check_resumed(self, server: Server, table: int, logged: int) -> None:
        """Check the stream that caught up was reopened with Last-Event-ID: the last state."""
        assert self.requests, "no stream was opened again"
        resumed = {r.all_headers().get("last-event-id") for r in self.requests}
        assert resumed == {str(logged)}, [(r.url, r.headers) for r in self.requests]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Serve the app on a daphne of this module's own whose robots move at once: the tests
    wait for a hundred robot moves (0.05 s each saved against the package's server)."""
    with quick_server(tmp_path_factory.mktemp("away"), GAMES_BOT_DELAY="0") as live:
        yield live


def _robots_everywhere(server: Server) -> dict[str, Any]:
    """Seat Alice and three robots at a long classic game that robots play on every seat,
    Alice's too: the table moves on whether her page is there or not. Return the world."""
    return server.world(
        students=["Alice"],
        bots=3,
        ruleset="classic",
        options={"target_score": 100_000},
        takeover=True,
    )


def _pause_and_expect(server: Server, table: int, since: int) -> dict[str, Any]:
    """Pause the table (no robot moves after this), then ask the server's own catch-up for
    seat 0 after `since`, in French: what the page should log (one Django shell for both)."""
    code = (
        "import json\n"
        "from games.catch_up import frames_since\n"
        "from games.services import table_set_paused\n"
        f"table_set_paused(table_id={table}, paused=True)\n"
        f"found = frames_since(table_id={table}, seat=0, since={since}, lang='fr')\n"
        "frames = found.frames[:-1]\n"
        "print(json.dumps({'state_id': found.state_id,"
        " 'events': [[f['state_id'], f['event'], f['text']] for f in frames]}))\n"
    )
    return server.app.script(code)  # type: ignore[no-any-return]


@pytest.mark.parametrize("link", ["socket", "stream"])
def test_a_page_away_for_100_moves_logs_each_once_in_order(
    server: Server, browser: Browser, link: str
) -> None:
    world = _robots_everywhere(server)
    table = world["table"]
    context = signed_in(browser, server, world["sessions"][0], viewport=DESKTOP)
    proxy = CuttingProxy(server.daphne.port, cut_after=3600)  # cuts only when told
    away: SocketAway | StreamAway = SocketAway() if link == "socket" else StreamAway(proxy)
    url = server.url
    try:
        if link == "stream":
            proxy.start()
            url = proxy.url
        page = context.new_page()
        away.install(page)
        page.goto(f"{url}/tables/{table}/?link={link}")
        player = PlayPage(page)
        first = server.wait_state_after(table, 2)  # the robots play
        # The page follows them (robots play on: it may show a later state by now).
        page.wait_for_function(
            "first => Number(document.getElementById('play').dataset.stateId) >= first", arg=first
        )

        away.leave(page)
        expect(page.locator("#play-connection")).to_have_attribute("data-status", "reconnecting")
        logged = page.evaluate("window.unoclassPlay.state().logged")
        assert logged >= first
        server.wait_state_after(table, logged + AWAY_MOVES, timeout=120)
        # Stop the table where it is: the comparison below is exact.
        expected = _pause_and_expect(server, table, logged)
        final = server.table_state(table)[1]
        assert final >= logged + AWAY_MOVES
        page.evaluate(WATCH_ANNOUNCER)
        away.back(page)

        expect(page.locator("#play-connection")).to_have_attribute(
            "data-status", "connected", timeout=40_000
        )
        player.wait_state(final)
        expect(page.locator("#play")).to_have_attribute("data-status", "paused")
        received = away.frames(page)

        assert expected["state_id"] == final
        # The link reopened from the last logged state, and the server sent every event after
        # it, in order, once, then the state: no recent-log replay.
        away.check_resumed(server, table, logged)
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
        proxy.close()


def test_a_page_that_misses_a_state_asks_since_and_logs_each_move_once(
    server: Server, browser: Browser
) -> None:
    """A state frame lost on the way (the page sees state numbers that do not follow): the
    page asks "since" its last logged state and its log has every move once, in order."""
    world = _robots_everywhere(server)
    table = world["table"]
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

        # `route` runs only while the test calls Playwright: wait there for the opening state.
        def opened() -> bool:
            if not first:
                page.wait_for_timeout(50)
            return bool(first)

        wait_until(opened, 20, "the socket's first state")
        server.wait_state_after(table, 12, timeout=60)
        expected = _pause_and_expect(server, table, first[0])
        final = server.table_state(table)[1]
        player.wait_state(final)
        # The state may show before its events are logged (a catch-up still on its way when
        # the pause's state, which has no events, arrives): wait for the log to reach it.
        page.wait_for_function("final => window.unoclassPlay.state().logged >= final", arg=final)
        assert dropped, "no state frame was dropped"
        assert asked and asked[0] == {"type": "since", "state_id": dropped[0] - 1}
        texts = [text for _state_id, _event, text in expected["events"] if text]
        # After the recent history (up to the opening state), each move once, in order.
        shown = min(len(texts), MAX_LOG)
        log = page.locator("#play-log li").all_text_contents()
        assert log[-shown:] == texts[-shown:]
        assert page.evaluate("window.unoclassPlay.state().logged") == final
    finally:
        context.close()
