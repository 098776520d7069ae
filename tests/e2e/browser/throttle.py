"""Chromium's network throttling (DevTools `Network.emulateNetworkConditions`) and the play
page's "usable" moment, shared by tests/e2e/browser/test_slow_link.py and bench/slow_link.py.

A school link of 2 Mb/s both ways with 100 ms of latency (issue 25). Chromium applies the
conditions to the page's requests and to its WebSocket.
"""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page

SCHOOL_LINK = {
    "offline": False,
    "latency": 100,  # ms, added to each request's round trip
    "downloadThroughput": 2_000_000 / 8,  # bytes per second
    "uploadThroughput": 2_000_000 / 8,
}

# The play page is usable when the hand is shown, the socket is connected (an action reaches
# the server) and, for the seat the game waits on, its actions are offered: a card to play is
# enabled or the draw button is shown. Returns the page's clock then (ms since navigation).
USABLE_JS = """
(seat) => {
  const cards = document.querySelectorAll("#play-hand button");
  const connected = document.getElementById("play-connection")?.dataset.status === "connected";
  const playable = document.querySelector("#play-hand button:not([disabled])");
  const draw = document.getElementById("act-draw");
  const offered = playable !== null || (draw !== null && !draw.hidden && !draw.disabled);
  return cards.length > 0 && connected && offered ? performance.now() : false;
}
"""


def throttled_page(context: BrowserContext) -> Page:
    """Open a page whose network is the school link (before it loads anything)."""
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", SCHOOL_LINK)
    return page


def acting_seat(state: dict[str, object]) -> int:
    """Return the seat a stored game state waits on (its turn)."""
    turn = state.get("turn")
    assert isinstance(turn, int), f"no seat to play in {state.get('turn')!r}"
    return turn
