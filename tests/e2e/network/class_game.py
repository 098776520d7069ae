"""A class game on four browsers through a network in between, and what each page received.

`FRAME_RECORDER` is put in every page before its own scripts run: it notes every frame the page
receives, by the way it came (`socket`, `stream`, or the answer to a `post`), and every time a
stream opens, in `window.netFrames`. The page is not changed: the recorder wraps the browser's
WebSocket, EventSource and fetch, whichever link the page chooses.

`ClassGame` seats four students of a class session at one table (tests/support/world.py), each
in their own browser context, plus the teacher's live overview, all through the same base
address (a proxy's or the server's); `play` drives the game to its end with the pages' own
buttons (tests/e2e/browser/moves.py chooses); the checks say what each page must have seen.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from games.engine import Game
from tests.e2e.browser.conftest import signed_in
from tests.e2e.browser.moves import next_move, page_asks
from tests.e2e.browser.pages import PlayPage, skip_open_timeout
from tests.support.live import Server

NAMES = ["Alice", "Bruno", "Chloé", "Dylan"]
# Two cards each, a game of nine moves: everyone says UNO and plays a fraction (Bruno's needs
# the rule question: same denominator), then Alice's last one ends it.
SHORT_SETUP = {
    "dealer": 3,
    "hands": [["3/6v", "1/3b"], ["2/6b", "5/6v"], ["4/12j", "6/12b"], ["8/24r", "2/12v"]],
    "start": "1/2r",
}
MAX_MOVES = 80
FRAME_RECORDER = """(() => {
  const frames = (window.netFrames = []);
  const note = (link, data, extra) => {
    try {
      frames.push({ link, ...JSON.parse(data), ...extra });
    } catch (error) {
      frames.push({ link, type: "_unreadable", data: String(data) });
    }
  };
  const NativeSocket = window.WebSocket;
  if (NativeSocket) {
    window.WebSocket = class extends NativeSocket {
      constructor(...args) {
        super(...args);
        this.addEventListener("open", () => frames.push({ link: "socket", type: "_opened" }));
        this.addEventListener("message", (message) => note("socket", message.data));
      }
    };
  }
  const NativeStream = window.EventSource;
  if (NativeStream) {
    window.EventSource = class extends NativeStream {
      constructor(...args) {
        super(...args);
        const url = String(args[0]);
        this.addEventListener("open", () => frames.push({ link: "stream", type: "_opened", url }));
        this.addEventListener("message", (message) =>
          note("stream", message.data, { event_id: message.lastEventId }));
        this.addEventListener("close", (message) =>
          frames.push({ link: "stream", type: "_close", data: message.data }));
      }
    };
  }
  const nativeFetch = window.fetch;
  window.fetch = async (...args) => {
    const response = await nativeFetch(...args);
    const url = String((args[0] && args[0].url) || args[0]);
    if (/\\/frames\\/$/.test(new URL(url, location.href).pathname)) {
      response.clone().json().then(
        (body) => (body.frames || []).forEach((frame) => frames.push({ link: "post", ...frame })),
        () => {},
      );
    }
    return response;
  };
})();"""
EXPECTED = """
import json
from games.catch_up import frames_since
from games.models import TableEvent
found = {}
for seat in range(SEATS):
    frames = frames_since(table_id=TABLE, seat=seat, since=0, lang="fr").frames[:-1]
    found[seat] = [[f["state_id"], f["event"], f["text"]] for f in frames]
print(json.dumps(found))
"""


def walk_keys(value: Any) -> set[str]:
    """Return every key of every object inside a JSON value."""
    if isinstance(value, dict):
        keys = set(value)
        for item in value.values():
            keys |= walk_keys(item)
        return keys
    if isinstance(value, list):
        return set().union(*(walk_keys(item) for item in value)) if value else set()
    return set()


@dataclass
class ClassGame:
    """Four students at table 1 of a class session, and their teacher, through `base_url`."""

    server: Server
    browser: Browser
    base_url: str
    link: str = ""  # "stream" or "socket": the page's `?link=`; "" lets the page choose
    setup: dict[str, Any] = field(default_factory=lambda: SHORT_SETUP)
    world: dict[str, Any] = field(default_factory=dict)
    contexts: list[BrowserContext] = field(default_factory=list)
    players: list[PlayPage] = field(default_factory=list)
    overview: Page | None = None
    errors: list[str] = field(default_factory=list)
    stored_log: dict[int, list[list[Any]]] = field(default_factory=dict)

    def open(self) -> None:
        """Build the session and open the four play pages and the teacher's overview."""
        self.world = self.server.world(students=NAMES, session=True, setup=self.setup)
        query = f"?link={self.link}" if self.link else ""
        for student in self.world["students"]:
            context = self._context(student["session"], "fr")
            page = context.new_page()
            page.on("pageerror", lambda error: self.errors.append(str(error)))
            page.goto(f"{self.base_url}/tables/{self.world['table']}/{query}")
            self.players.append(PlayPage(page))
        # The class starts once every page is connected (through a filter, after the socket's
        # try: the fallback takes over when no socket opened within 5 s, by the page's clock).
        for player in self.players:
            self._skip_open_timeout(player.page)
            expect(player.page.locator("#play-connection")).to_have_attribute(
                "data-status", "connected", timeout=30_000
            )
        teacher = self._context(self.world["teacher_session"], "en")
        self.overview = teacher.new_page()
        self.overview.goto(f"{self.base_url}/sessions/{self.world['session']}/")
        self._skip_open_timeout(self.overview)
        self.overview.evaluate("window.notReloaded = true")

    def _context(self, session: str, lang: str) -> BrowserContext:
        context = signed_in(self.browser, self.server, session, lang=lang)
        context.add_init_script(FRAME_RECORDER)
        if not self.link:  # the page chooses: the test moves its clock (_skip_open_timeout)
            context.clock.install()
        self.contexts.append(context)
        return context

    def _skip_open_timeout(self, page: Page) -> None:
        """Where the page chooses its link, move its clock past its first socket's timeout."""
        if not self.link:
            skip_open_timeout(page)

    @property
    def table(self) -> int:
        """Return the table's id."""
        return int(self.world["table"])

    def play(self, between: Callable[[int], None] | None = None) -> int:
        """Play the game to its end with the pages' controls; return the final state number.

        `between(moves)` runs after each move (a test's chance to wait for a cut).
        """
        for moves in range(MAX_MOVES):
            state, state_id = self.server.table_state(self.table)
            game = Game.from_dict(state)
            public = game.view(None)
            for player in self.players:
                player.wait_state(state_id)
            if public["game_over"]:
                return state_id
            seat = public["acting"]
            assert seat is not None
            player = self.players[seat]
            assert player.hand() == game.view(seat)["hand"]
            move = next_move(game, seat)
            player.do(move, asks=page_asks(game, move))
            self.server.wait_state_after(self.table, state_id)
            if between is not None:
                between(moves + 1)
        raise AssertionError(f"the game did not end in {MAX_MOVES} moves")

    def frames(self, seat: int) -> list[dict[str, Any]]:
        """Return what the recorder noted on a seat's page."""
        return list(self.players[seat].page.evaluate("window.netFrames"))

    def links(self) -> list[str | None]:
        """Return the link each page says it uses (the root's `data-link`)."""
        return [p.page.locator("#play").get_attribute("data-link") for p in self.players]

    def expected(self) -> dict[int, list[list[Any]]]:
        """Ask the server's stored log what each seat may see: [state_id, event, text].

        Asked once, after the game (a Django shell costs seconds): the log no longer changes.
        """
        if not self.stored_log:
            code = EXPECTED.replace("SEATS", str(len(NAMES))).replace("TABLE", str(self.table))
            found = self.server.app.script(code)
            self.stored_log = {int(seat): events for seat, events in found.items()}
        return self.stored_log

    def close(self) -> None:
        """Close every browser context (again: a no-op)."""
        for context in self.contexts:
            context.close()
        self.contexts.clear()


def delivered(frames: list[dict[str, Any]], link: str) -> list[list[Any]]:
    """Return the events one link delivered, in order: [state_id, event, text].

    A `state` frame's events and the `event` frames of a catch-up count, and the recent log
    sent on the link's first opening (`replay`): the pages open on a fresh table, so that log
    holds exactly what was played before they were connected. A replay after a reopening
    would repeat history: it counts too, and shows as a duplicate.
    """
    found: list[list[Any]] = []
    for frame in frames:
        if frame["link"] != link:
            continue
        if frame["type"] == "state":
            found += [[frame["state_id"], e["event"], e["text"]] for e in frame.get("events", [])]
        elif frame["type"] == "event":
            # A replayed event may come without its state number: None shows it as extra.
            found.append([frame.get("state_id"), frame["event"], frame["text"]])
    return found


def check_every_move_once(game: ClassGame, link: str, final: int) -> None:
    """Each page got every event of the game once, in order, by `link`; its log shows them."""
    expected = game.expected()
    for seat, player in enumerate(game.players):
        frames = game.frames(seat)
        assert [f for f in frames if f["type"] == "_unreadable"] == []
        got = delivered(frames, link)
        assert got == expected[seat], f"seat {seat}: {json.dumps(got)[:2000]}"
        assert {state_id for state_id, _e, _t in got} == set(range(1, final + 1))
        # The page logged each move once, in order (a short game: fewer lines than it keeps).
        texts = [text for _s, _e, text in expected[seat] if text]
        assert player.page.locator("#play-log li").all_text_contents() == texts
        assert player.page.evaluate("window.unoclassPlay.state().logged") == final


def check_hidden_hands(game: ClassGame) -> None:
    """No page received another seat's hand, by any link.

    Every view is the page's own seat; every card a view showed in its hand is one the seat
    was dealt or drew itself; another seat's drawn cards never came; no frame carries the
    whole game (`hands`, `pile`).
    """
    expected = game.expected()
    for seat in range(len(game.players)):
        frames = game.frames(seat)
        own = set(game.setup["hands"][seat])
        for _state_id, event, _text in expected[seat]:
            if event["type"] == "drew" and event["seat"] == seat:
                own |= set(event.get("cards", []))
        views = [f["view"] for f in frames if "view" in f]
        assert views, f"seat {seat} received no state"
        for view in views:
            assert view["seat"] == seat
            assert set(view["hand"]) <= own, (seat, view["hand"], own)
        for frame in frames:
            assert not walk_keys(frame) & {"hands", "pile"}, frame
            events = [e["event"] for e in frame.get("events", [])]
            if frame["type"] == "event":
                events.append(frame["event"])
            for event in events:
                if event["type"] == "drew" and event["seat"] != seat:
                    assert "cards" not in event, (seat, event)


def check_overview_followed(game: ClassGame) -> None:
    """The teacher's overview followed the game live, without a reload: each student's row
    counts the fraction plays that student made (the stored log's), and the page still says
    it is live."""
    assert game.overview is not None
    expected = game.expected()[0]
    for seat, name in enumerate(NAMES):
        plays = sum(
            1
            for _state_id, event, _text in expected
            if event["type"] == "played" and event["seat"] == seat and "/" in event["card"]
        )
        assert plays > 0  # the check below would not notice a frozen overview otherwise
        row = game.overview.locator("#overview-live tbody tr", has_text=name)
        expect(row.locator("td").nth(1)).to_have_text(str(plays))
    expect(game.overview.locator("#overview-connection")).to_have_attribute("data-status", "live")
    assert game.overview.evaluate("window.notReloaded") is True
