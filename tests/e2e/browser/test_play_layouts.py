"""The play table at a phone's, a tablet's and a whiteboard's size (issue 30 §2), chromium.

At 390×844, 800×1280 and 1920×1080, each in French and English, with motion and under
reduced motion (data-motion says which): axe-core finds nothing in "my
turn", "another's turn" and "game over"; the top card is the largest card; who plays, the top
card and the opponents are in the first screen; nothing scrolls sideways; every card of a
15-card hand is a target of 24×24 px or more. On the whiteboard, read from the back of a room,
the top card is at least 200 px high. On the tablet and the whiteboard, with and without
reduced motion, the three opponents sit left of, above and right of the pile, nothing
overlaps; and a state that changes the hand keeps the cards already there.

UNOCLASS_SCREENSHOTS=1 writes the pictures into docs/screenshots (the README's among them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.e2e.browser.conftest import PHONE, Server, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector
from tests.e2e.browser.test_play_table import (
    DOCS_SCREENSHOTS,
    FOUR_SEATS,
    HAND,
    MIN_TARGET,
    REFRESH_DOCS,
    ROBOTS,
    _box,
)

pytestmark = pytest.mark.browser

TABLET: ViewportSize = {"width": 800, "height": 1280}
WHITEBOARD: ViewportSize = {"width": 1920, "height": 1080}
# Bruno (seat 1) plays first and has not come: Alice's page shows another's turn.
BRUNO_FIRST = {"dealer": 0, "hands": [HAND[:7], *ROBOTS], "start": "1/3v"}
# Alice's one card goes on 1/3: the game is over at once.
LAST_CARD = {"dealer": 1, "hands": [["2/6j"], ["5/6v", "1/2b", "joker"]], "start": "1/3v"}
SIZES = [("phone", PHONE, "fr"), ("tablet", TABLET, "en"), ("whiteboard", WHITEBOARD, "fr")]
# Each size in both languages, once with motion and once under reduced motion (the pictures
# are taken with motion).
MATRIX = [
    (name, size, language, motion)
    for name, size, lang in SIZES
    for language, motion in ((lang, "no-preference"), ({"fr": "en", "en": "fr"}[lang], "reduce"))
]
MATRIX_IDS = [f"{m[0]}-{m[2]}-{m[3]}" for m in MATRIX]


def _violations(page: Page) -> list[str]:
    """Return axe-core's findings of any level, each with the elements it names."""
    # A line still rising in (the standings, 0.4 s each) is not yet its real colour.
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} {[n['target'] for n in v['nodes']]}" for v in found]


def _open(
    server: Server,
    browser: Browser,
    spec: dict[str, Any],
    size: ViewportSize,
    lang: str,
    motion: str = "no-preference",
) -> tuple[Page, dict[str, Any]]:
    world = server.world(**spec)
    context = signed_in(
        browser, server, world["students"][0]["session"], lang=lang, viewport=size,
        is_mobile=size is PHONE, has_touch=size is not WHITEBOARD, reduced_motion=motion,
    )  # fmt: skip
    page = context.new_page()
    page.goto(f"{server.url}/tables/{world['table']}/")
    PlayPage(page).wait_state(0)
    expect(page.locator("#play")).to_have_attribute(
        "data-motion", "off" if motion == "reduce" else "on"
    )
    return page, world


def _shot(page: Page, tmp_path: Path, name: str, motion: str = "no-preference") -> None:
    folder = DOCS_SCREENSHOTS if REFRESH_DOCS and motion == "no-preference" else tmp_path
    page.screenshot(path=str(folder / name))


@pytest.mark.parametrize(("name", "size", "lang", "motion"), MATRIX, ids=MATRIX_IDS)
def test_my_turn_at_each_size(
    server: Server,
    browser: Browser,
    tmp_path: Path,
    name: str,
    size: ViewportSize,
    lang: str,
    motion: str,
) -> None:
    spec = {"students": ["Alice"], "bots": 3, "setup": FOUR_SEATS}
    page, _ = _open(server, browser, spec, size, lang, motion)
    try:
        turn = {"fr": "À toi de jouer !", "en": "Your turn!"}[lang]
        expect(page.locator("#play-turn")).to_have_text(turn)
        _shot(page, tmp_path, f"play-table-{name}.png", motion)
        top, card = _box(page, "#play-top .card"), _box(page, card_selector(HAND[0]))
        assert top["height"] > card["height"] and top["width"] > card["width"]
        # The hand's first item, its rule buttons included: the whole first row is seen.
        for selector in ("#play-players", "#play-turn", "#play-top .card", "#play-hand > li"):
            box = _box(page, selector)
            assert box["y"] + box["height"] <= size["height"], selector
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        small = page.locator("#play-hand button[data-card]").evaluate_all(
            f"els => els.filter(e => {{ const r = e.getBoundingClientRect();"
            f" return r.width < {MIN_TARGET} || r.height < {MIN_TARGET}; }}).length"
        )
        assert small == 0
        if name == "whiteboard":
            assert top["height"] >= 200
        assert _violations(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize(("name", "size", "lang", "motion"), MATRIX, ids=MATRIX_IDS)
def test_another_turn_and_game_over_at_each_size(
    server: Server,
    browser: Browser,
    tmp_path: Path,
    name: str,
    size: ViewportSize,
    lang: str,
    motion: str,
) -> None:
    spec = {"students": ["Alice", "Bruno"], "bots": 2, "setup": BRUNO_FIRST}
    page, _ = _open(server, browser, spec, size, lang, motion)
    try:
        waiting = {"fr": "À Bruno de jouer", "en": "Bruno"}[lang]
        expect(page.locator("#play-turn")).to_contain_text(waiting)
        expect(page.locator("#play")).to_have_attribute("data-acting", "1")
        assert _violations(page) == []
    finally:
        page.context.close()
    spec = {"students": ["Alice"], "bots": 1, "setup": LAST_CARD}
    page, _ = _open(server, browser, spec, size, lang, motion)
    try:
        page.click(card_selector("2/6j"))
        expect(page.locator("#play")).to_have_attribute("data-game-over", "1")
        expect(page.locator("#play-standings li")).to_have_count(2)
        if name == "phone":
            _shot(page, tmp_path, "play-table-end.png", motion)
        assert _violations(page) == []
    finally:
        page.context.close()


def test_the_accessible_table_and_the_teachers_live_page(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    spec = {"students": ["Alice"], "bots": 3, "setup": FOUR_SEATS, "settings": {"accessible": True}}
    page, _ = _open(server, browser, spec, PHONE, "fr")
    try:
        # The UNO Braille markings on every card, only at an accessible table.
        expect(page.locator("#play-hand .card__mark")).to_have_count(len(HAND))
        expect(page.locator(f"{card_selector('rev b')} .card__mark")).to_have_text("rev b")
        _shot(page, tmp_path, "play-table-accessible.png")
        assert _violations(page) == []
    finally:
        page.context.close()
    world = server.world(students=["Alice", "Bruno"], session=True)
    context = signed_in(browser, server, world["teacher_session"], lang="fr")
    try:
        overview = context.new_page()
        overview.goto(f"{server.url}/sessions/{world['session']}/")
        expect(overview.locator("#overview-live")).to_contain_text("Table 1")
        _shot(overview, tmp_path, "teacher-live.png")
    finally:
        context.close()


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


AROUND = [
    (name, size, lang, motion)
    for name, size, lang in SIZES
    if size is not PHONE
    for motion in ("no-preference", "reduce")
]


@pytest.mark.parametrize(
    ("name", "size", "lang", "motion"), AROUND, ids=[f"{a[0]}-{a[3]}" for a in AROUND]
)
def test_opponents_around_the_pile(
    server: Server, browser: Browser, name: str, size: ViewportSize, lang: str, motion: str
) -> None:
    # Alice is seat 0: Bot 1 plays after her (left of the pile), then Bot 2 (above), Bot 3
    # (right); on a phone the strip above the pile stays (test_play_table).
    world = server.world(students=["Alice"], bots=3, setup=FOUR_SEATS)
    context = signed_in(
        browser, server, world["students"][0]["session"], lang=lang, viewport=size,
        has_touch=size is TABLET, reduced_motion=motion,
    )  # fmt: skip
    page = context.new_page()
    try:
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        expect(page.locator("#play")).to_have_attribute("data-around", "1")
        expect(page.locator("#play")).to_have_attribute(
            "data-motion", "off" if motion == "reduce" else "on"
        )
        pile = _box(page, "[data-pile]")
        seats = {seat: _box(page, f'#play-players [data-seat="{seat}"]') for seat in range(4)}
        left, top, right = seats[1], seats[2], seats[3]
        assert left["x"] + left["width"] <= pile["x"], "the next player left of the pile"
        assert top["y"] + top["height"] <= pile["y"], "the one across above the pile"
        assert right["x"] >= pile["x"] + pile["width"], "the last one right of the pile"
        # Each on its side: the left and right ones beside the pile, the top one over it.
        for side in (left, right):
            middle = side["y"] + side["height"] / 2
            assert pile["y"] <= middle <= pile["y"] + pile["height"]
        assert pile["x"] <= top["x"] + top["width"] / 2 <= pile["x"] + pile["width"]
        # Each opponent shows its backs and its count in text.
        for seat in (1, 2, 3):
            item = page.locator(f'#play-players [data-seat="{seat}"]')
            expect(item.locator("[data-card-back]")).to_have_attribute("data-count", "3")
            expect(item.locator(".player__count")).to_have_text(
                {"fr": "3 cartes", "en": "3 cards"}[lang]
            )
        boxes = [pile, *seats.values(), _box(page, "#play-turn"), _box(page, "#play-hand")]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not _overlap(a, b), (a, b)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        small = page.locator(
            "#play-hand button[data-card], #play-hand [data-card-rule]"
        ).evaluate_all(
            f"els => els.filter(e => {{ const r = e.getBoundingClientRect();"
            f" return r.width < {MIN_TARGET} || r.height < {MIN_TARGET}; }}).length"
        )
        assert small == 0
        assert _violations(page) == []
    finally:
        context.close()


def test_the_hand_keeps_its_cards_across_states(server: Server, browser: Browser) -> None:
    # A draw changes the hand: the cards already there stay the same elements (render.js keeps
    # them, keyed by card and copy), the drawn one is added.
    world = server.world(students=["Alice"], bots=3, setup=FOUR_SEATS)
    context = signed_in(browser, server, world["students"][0]["session"], viewport=TABLET)
    page = context.new_page()
    try:
        page.goto(f"{server.url}/tables/{world['table']}/")
        PlayPage(page).wait_state(0)
        page.evaluate(
            "window.__kept = [...document.querySelectorAll('#play-hand button[data-card]')]"
        )
        page.click("#act-draw")
        expect(page.locator("#play-hand button[data-card]")).to_have_count(len(HAND) + 1)
        kept = page.evaluate(
            "window.__kept.filter(b => b.isConnected"
            " && document.querySelector('#play-hand').contains(b)).length"
        )
        assert kept == len(HAND)
        new = page.evaluate(
            "[...document.querySelectorAll('#play-hand button[data-card]')]"
            ".filter(b => !window.__kept.includes(b)).map(b => b.dataset.card)"
        )
        assert len(new) == 1
        # The indexes follow the hand's order again.
        indexes = page.locator("#play-hand button[data-card]").evaluate_all(
            "els => els.map(e => Number(e.dataset.index))"
        )
        assert indexes == list(range(len(HAND) + 1))
    finally:
        context.close()
