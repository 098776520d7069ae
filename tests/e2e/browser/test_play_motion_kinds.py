"""What moves at the table, and how long (issue 30 §2 "Motion"), chromium at 390×844.

With motion on: a played card flies to the pile, a drawn card comes to the hand, a +2 shows
its callout; each animation lasts at most 1 s (delay included), none more than 5 s, and every
keyframe moves only transform and opacity. A reload shows the state reached at once: no
animation at all, no callout replayed.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser.conftest import PHONE, Server, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector, option_selector

pytestmark = pytest.mark.browser

# Alice (seat 0) plays first on a green 1/3: her green +2 fits; three robots, three cards each.
SETUP = {
    "dealer": 3,
    "hands": [
        ["+02v", "1/2j", "4/12r", "5/6b"],
        ["5/6j", "2/3v", "8/12r"],
        ["10/12j", "6/12b", "4/6v"],
        ["4/12j", "1/2b", "3/6j"],
    ],
    "start": "1/3v",
}
# Every animation the page starts: its name, seconds (duration + delay), the element's text.
WATCH = """
window.__animations = [];
document.addEventListener("animationstart", (e) => {
  const style = getComputedStyle(e.target);
  window.__animations.push([e.animationName,
    parseFloat(style.animationDuration) + parseFloat(style.animationDelay),
    e.target.id === "play-callout" ? e.target.textContent : ""]);
}, true);
"""
# The properties each @keyframes rule of the page's style sheets sets, by name.
KEYFRAMES = """() => {
  const found = {};
  for (const sheet of document.styleSheets) {
    for (const rule of sheet.cssRules) {
      if (!(rule instanceof CSSKeyframesRule)) continue;
      const props = new Set();
      for (const frame of rule.cssRules) for (const p of frame.style) props.add(p);
      found[rule.name] = [...props];
    }
  }
  return found;
}"""


def _my_turn_after(page: Page, state_id: int) -> None:
    page.wait_for_function(
        "n => { const r = document.getElementById('play');"
        " return Number(r.dataset.stateId) > n && r.dataset.acting === '0'; }",
        arg=state_id,
        timeout=15_000,
    )


def test_what_moves_is_short_and_a_reload_shows_the_state_at_once(
    server: Server, browser: Browser
) -> None:
    world = server.world(students=["Alice"], bots=3, setup=SETUP)
    context = signed_in(
        browser, server, world["students"][0]["session"], viewport=PHONE, is_mobile=True,
        has_touch=True,
    )  # fmt: skip
    try:
        page = context.new_page()
        page.add_init_script(WATCH)
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        expect(page.locator("#play")).to_have_attribute("data-motion", "on")
        assert page.evaluate("window.__animations") == []  # the first state: at once
        page.tap(card_selector("+02v"))
        page.tap(option_selector(""))
        _my_turn_after(page, 0)
        before = int(page.locator("#play").get_attribute("data-state-id") or 0)
        page.tap("#act-draw")
        page.wait_for_function(
            "() => window.__animations.some(a => a[0] === 'play-draw-in')", timeout=10_000
        )
        seen = page.evaluate("window.__animations")
        names = {name for name, _, _ in seen}
        assert {"play-fly-in", "play-draw-in", "play-callout"} <= names, seen
        assert ["play-callout", 0.9, "+2"] in [[n, round(s, 2), t] for n, s, t in seen], seen
        assert max(seconds for _, seconds, _ in seen) <= 1.0, seen
        keyframes = page.evaluate(KEYFRAMES)
        for name in names:
            assert set(keyframes[name]) <= {"transform", "opacity"}, (name, keyframes[name])
        # A reload on Alice's turn (the robots wait for her: nothing moves on meanwhile) shows
        # the state reached at once: nothing flies, no callout replayed.
        _my_turn_after(page, before)
        state_id = server.table_state(world["table"])[1]
        page.reload()
        PlayPage(page).wait_state(state_id)
        assert page.evaluate("window.__animations") == []
        expect(page.locator("#play-callout")).to_have_text("")
    finally:
        context.close()
