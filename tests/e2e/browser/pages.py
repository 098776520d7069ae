"""Drive the play page as a player would: by mouse, or by keyboard only."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.browser.moves import Move

# static/js/live-link.js's OPEN_TIMEOUT_MS: a first socket not open by then is taken as blocked.
OPEN_TIMEOUT_MS = 5_000
SHORTCUTS = {"draw": "d", "uno": "u", "pass": "p"}
BUTTONS = {
    "draw": "#act-draw",
    "pass": "#act-pass",
    "uno": "#act-uno",
    "accept": "#act-accept",
    "challenge": "#act-challenge",
    "next_round": "#act-next",
    "catch": "#act-catch",
}


def card_selector(card: str) -> str:
    """Return the CSS selector of a card of the hand."""
    return f'#play-hand button[data-card="{card}"]'


def option_selector(value: str) -> str:
    """Return the CSS selector of an answer of the page's question."""
    return f'#chooser-options button[data-value="{value}"]'


@dataclass
class PlayPage:
    """One player's play page."""

    page: Page
    keyboard_only: bool = False

    def wait_state(self, state_id: int) -> None:
        """Wait until the page shows the given state number."""
        expect(self.page.locator("#play")).to_have_attribute(
            "data-state-id", str(state_id), timeout=15_000
        )

    def hand(self) -> list[str]:
        """Return the card codes the page shows in the hand, in order."""
        return list(
            self.page.locator("#play-hand button").evaluate_all(
                "buttons => buttons.map(b => b.dataset.card)"
            )
        )

    def tab_to(self, selector: str, limit: int = 80) -> None:
        """Press Tab until the element matching `selector` has the focus."""
        for _ in range(limit):
            if self.page.evaluate(
                "s => !!document.activeElement && document.activeElement.matches(s)", selector
            ):
                return
            self.page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {selector}")

    def press(self, selector: str) -> None:
        """Activate a button: Tab to it and press Enter, or click it."""
        if self.keyboard_only:
            self.tab_to(selector)
            self.page.keyboard.press("Enter")
        else:
            self.page.click(selector)

    def do(self, move: Move, *, asks: bool) -> None:
        """Make a move with the page's own controls; `asks`: the page must ask a question."""
        chooser = self.page.locator("#play-chooser")
        if move.kind != "card":
            if self.keyboard_only and move.kind in SHORTCUTS:
                self.page.keyboard.press(SHORTCUTS[move.kind])
            else:
                self.press(BUTTONS[move.kind])
            return
        assert move.card is not None
        self.press(card_selector(move.card))
        if not asks:
            expect(chooser).to_be_hidden()
            return
        expect(chooser).to_be_visible()
        assert move.answer is not None
        self.press(option_selector(move.answer))


@dataclass
class Watch:
    """What the opened pages did on the side: their script errors, the sockets they opened."""

    errors: list[str] = field(default_factory=list)
    sockets: list[str] = field(default_factory=list)


def open_players(contexts: Iterable[BrowserContext], url: str, watch: Watch) -> list[PlayPage]:
    """Open `url` in a new page of each context, noting its errors and sockets in `watch`."""
    players = []
    for context in contexts:
        page = context.new_page()
        page.on("pageerror", lambda error: watch.errors.append(str(error)))
        page.on("websocket", lambda ws: watch.sockets.append(ws.url))
        page.goto(url)
        players.append(PlayPage(page))
    return players


def skip_open_timeout(page: Page) -> None:
    """Move the page's clock past the time its first socket gets to open.

    The page's clock was installed before it loaded (`clock.install()`: its timers still run
    as time passes). A page whose socket cannot open moves to the stream now, not seconds
    later; were the page's delay longer than OPEN_TIMEOUT_MS, it would move when its own
    timer fires (the tests' waits allow for that).
    """
    page.clock.fast_forward(OPEN_TIMEOUT_MS)
