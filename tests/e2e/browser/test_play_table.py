"""The play page as a card table on a phone (issue 30 §1.5 and §2), in chromium at 390×844.

- A same-denominator card carries the two rules: one tap plays it with the rule the child
  chose (the claim is the child's: "equal" on 2/3 over 1/3 is refused as such); once a rule
  was refused, the card's own tap plays the other one without asking.
- The testability contract (docs/protocol.md, "The play page"): data-card, data-seat,
  data-card-back with data-count, data-pile, data-motion; the first screen holds the first
  row of the hand, the top card, who plays and the opponents; every target is 24×24 px or more
  with 15 cards; axe-core finds nothing in "my turn".
- Under prefers-reduced-motion the table says data-motion="off" and nothing animates; a
  gathering table says whom it waits for.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page, expect

from tests.e2e.browser.conftest import PHONE, Server
from tests.e2e.browser.pages import card_selector

pytestmark = pytest.mark.browser

# Alice (seat 0) plays first on 1/3 with fifteen cards; three robots hold three each.
HAND = [
    "2/3r", "1/3b", "4/12j", "10/12v", "1/6b", "3/6r", "5/6j", "8/24v",
    "joker", "+02r", "rev b", "+04", "16/48b", "2/6v", "1/2j",
]  # fmt: skip
ROBOTS = [["5/6b", "2/3v", "8/12r"], ["10/12j", "6/12b", "4/6v"], ["4/12r", "1/2b", "3/6j"]]
FOUR_SEATS = {"dealer": 3, "hands": [HAND, *ROBOTS], "start": "1/3v"}
MIN_TARGET = 24  # px, WCAG 2.5.8
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
# Set to refresh docs/screenshots; otherwise the screenshots go to a temporary folder.
REFRESH_DOCS = bool(os.environ.get("UNOCLASS_SCREENSHOTS"))


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"]}


def _small_targets(page: Page) -> list[Any]:
    """Measure every card and rule button of the hand; return those under 24×24 px."""
    sizes = page.locator("#play-hand button[data-card], #play-hand [data-card-rule]").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.dataset.card || e.dataset.cardRule, r.width, r.height]; })"
    )
    assert len(sizes) == len(HAND) + 4  # two cards of the hand carry two rules each
    return [s for s in sizes if s[1] < MIN_TARGET or s[2] < MIN_TARGET]


def test_phone_table_one_tap_rules_and_the_contract(
    server: Server, table_page: Callable[..., Page], tmp_path: Path
) -> None:
    world = server.world(students=["Alice"], bots=3, setup=FOUR_SEATS)
    page = table_page(world, is_mobile=True, has_touch=True)
    root = page.locator("#play")
    expect(root).to_have_attribute("data-motion", "on")
    expect(page.locator("#play-turn")).to_have_text("À toi de jouer !")
    # The contract: one pile, each seat's area with its backs counted.
    expect(page.locator("[data-pile]")).to_have_count(1)
    counts = page.locator("#play-players [data-seat]").evaluate_all(
        "els => els.map(e => [e.dataset.seat, e.querySelector('[data-card-back]').dataset.count])"
    )
    assert counts == [["0", "15"], ["1", "3"], ["2", "3"], ["3", "3"]]
    assert page.locator("#play-hand button[data-card]").count() == len(HAND)
    # The first screen: the opponents, who plays, the top card, the hand's first row.
    for selector in ("#play-players", "#play-turn", "#play-top .card", card_selector(HAND[0])):
        box = _box(page, selector)
        assert box["y"] + box["height"] <= PHONE["height"], selector
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert _small_targets(page) == []
    folder = DOCS_SCREENSHOTS if REFRESH_DOCS else tmp_path
    page.screenshot(path=str(folder / "play-table-phone.png"))
    # Only the cards both rules could fit carry them (on 1/3: 2/3 and 1/3).
    rules = page.locator("#play-hand [data-card-rule]").evaluate_all(
        "els => els.map(e => e.dataset.for + ' ' + e.dataset.cardRule)"
    )
    assert rules == ["2/3r equal", "2/3r denominator", "1/3b equal", "1/3b denominator"]
    violations = Axe().run(page).response["violations"]
    assert [v["id"] for v in violations] == []
    # One tap: 2/3 claimed "equal" to 1/3, no question, refused as the child claimed it.
    page.click('[data-for="2/3r"][data-card-rule="equal"]')
    expect(page.locator("#play-error")).to_have_attribute("data-code", "not_equivalent")
    expect(page.locator("#play-chooser")).to_be_hidden()
    # Remembered: only "same denominator" is left for 2/3; the card's tap plays it.
    expect(page.locator('[data-for="2/3r"][data-card-rule]')).to_have_count(1)
    page.click(card_selector("2/3r"))
    expect(page.locator("#play-chooser")).to_be_hidden()
    server.wait_state_after(world["table"], 0)
    # The robots play on at once (50 ms a move): the log keeps the move, the pile and the
    # last move may already show theirs.
    expect(page.locator("#play-log")).to_contain_text("Alice joue 2/3 rouge")


def test_reduced_motion_and_a_gathering_table(
    server: Server, table_page: Callable[..., Page]
) -> None:
    world = server.world(
        students=["Alice", "Bruno"],
        bots=1,
        session=True,
        settings={"gather": True, "arrival_wait": 600},
        setup={"dealer": 2, "hands": [HAND[:5], ["5/6b"], ["1/2b"]], "start": "1/3v"},
    )
    page = table_page(world, lang="en", reduced_motion="reduce")
    expect(page.locator("#play")).to_have_attribute("data-motion", "off")
    # Bruno has not come: the table waits for him, and says so.
    expect(page.locator("#play-banner")).to_have_text(
        "The game starts when the whole table is here."
    )
    animations = page.evaluate(
        "[...document.querySelectorAll('#play *')]"
        ".filter(e => getComputedStyle(e).animationName !== 'none').length"
    )
    assert animations == 0
