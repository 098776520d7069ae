"""A class session on the play page, as students and their teacher see it (issue 11, 1-6).

One table number everywhere; a session that ends tells every open table page; signing out
closes the other tabs; cards keep their fractions whole on a phone and the page does not jump;
the next game is one click; the hand is one Tab away.
"""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, WebSocket, WebSocketRoute, expect

from tests.e2e.browser.conftest import DESKTOP, PHONE, Server, signed_in
from tests.e2e.browser.pages import PlayPage

pytestmark = pytest.mark.browser

# Uno Fractions, Alice (seat 0) plays first on 1/3; long fractions and wild cards in her hand.
PHONE_SETUP: dict[str, Any] = {
    "dealer": 1,
    "hands": [
        ["16/48j", "10/12v", "2/3r", "+04", "joker", "1/6b", "8/24r"],
        ["2/6r", "5/6v", "1/2b", "joker", "3/6v", "4/12r", "6/12b"],
    ],
    "start": "1/3v",
}
# Classic UNO with the playable cards highlighted: "couleur", "rev b", "stop r" and the tags.
CLASSIC_SETUP = {
    "dealer": 1,
    "hands": [
        ["couleur", "7r", "5b", "9j", "+04", "rev b", "stop r"],
        ["8r", "2b", "4v", "6j", "1r", "2r", "3r"],
    ],
    "start": "3r",
}
# What the faces of Alice's hand show (the values; a Reverse and a Skip their signs).
FACES = {
    "fractions": ["16/48", "10/12", "2/3", "+4", "Joker", "1/6", "8/24"],
    "classic": ["Wild", "7", "5", "9", "+4", "⇄", "⊘"],
}
# Alice's one card goes on 1/3 (an equal fraction, another denominator): the game is over.
LAST_CARD_SETUP = {
    "dealer": 1,
    "hands": [["2/6j"], ["5/6v", "1/2b", "joker"]],
    "start": "1/3v",
}
# What a 390 × 844 phone shows of a page under its browser's address and tool bars.
PHONE_UNDER_BARS = {"width": 390, "height": 664}
SESSION_ENDED = "La séance est terminée : cette partie s’arrête ici."
# How long a page may take to say that the session ended (the issue: "within a few seconds").
FEW_SECONDS = 5_000
# How long the server may take to tell a page, with the whole suite beside it on two cores.
SERVER_UNDER_LOAD = 60_000
# Layout shift: at most this much once the first state is shown (Web Vitals "good": 0.1).
MAX_LAYOUT_SHIFT = 0.1
LAYOUT_SHIFT = """() => new Promise((resolve) => {
  // Every shift since the page opened (buffered), without the ones that follow an input.
  let total = 0;
  const shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      total += entry.value;
      const nodes = entry.sources.map((s) => s.node && (s.node.id || s.node.className));
      shifts.push([entry.value, nodes]);
    }
  }).observe({ type: "layout-shift", buffered: true });
  setTimeout(() => resolve({ total, shifts }), 1000);
})"""


def _session_world(server: Server, **spec: Any) -> dict[str, Any]:
    """Build a class session whose table 1 is not table id 1 (the two numbers differ)."""
    world = server.world(session=True, **spec)
    if world["table"] == 1:
        world = server.world(session=True, **spec)
    assert world["table"] != 1
    return world


def _play_url(server: Server, world: dict[str, Any]) -> str:
    return f"{server.url}/tables/{world['table']}/"


# --- 1. One table number ------------------------------------------------------------------


def test_one_table_number_on_the_play_page_the_home_and_the_overview(
    server: Server, browser: Browser
) -> None:
    world = _session_world(server, students=["Alice", "Bruno"])
    student = signed_in(browser, server, world["students"][0]["session"])
    teacher = signed_in(browser, server, world["teacher_session"])
    try:
        page = student.new_page()
        page.goto(_play_url(server, world))
        expect(page.locator("#play-table-number")).to_have_text("Table 1")
        expect(page.locator("h1")).not_to_contain_text(f"Table {world['table']}")
        page.goto(f"{server.url}/")
        expect(page.locator("main")).to_contain_text("Ta table est prête : table 1.")

        overview = teacher.new_page()
        overview.goto(f"{server.url}/sessions/{world['session']}/")
        expect(overview.locator(".tile__title").first).to_contain_text("Table 1")
        # The teacher watching the table reads the same number.
        overview.goto(_play_url(server, world))
        expect(overview.locator("#play-table-number")).to_have_text("Table 1")
    finally:
        student.close()
        teacher.close()


# --- 2. The end of the session --------------------------------------------------------------


def _says_the_session_ended(page: Page, timeout: float = FEW_SECONDS) -> None:
    expect(page.locator("#play-banner")).to_have_text(SESSION_ENDED, timeout=timeout)
    expect(page.locator("#play")).to_have_attribute("data-status", "finished")
    expect(page.locator("#play-turn")).to_have_text("")
    expect(page.locator(".play-actions button:visible")).to_have_count(0)
    expect(page.locator("#play-hand button:enabled")).to_have_count(0)
    after = page.locator("#play-after")
    expect(after).to_be_visible()
    expect(after.get_by_role("link", name="Ma classe")).to_have_attribute("href", "/")
    expect(page.locator("#play-next-game")).to_be_hidden()  # a stopped game has no next one


def _finished_frame(payload: str | bytes) -> bool:
    """Tell whether a table frame says the table is finished (its `table.status`)."""
    return isinstance(payload, str) and '"status":"finished"' in payload


def test_ending_the_session_tells_every_open_table_page(server: Server, browser: Browser) -> None:
    world = _session_world(server, students=["Alice", "Bruno"], setup=PHONE_SETUP)
    contexts = [signed_in(browser, server, s["session"]) for s in world["students"]]
    teacher = signed_in(browser, server, world["teacher_session"])
    try:
        pages = []
        sockets: list[WebSocket] = []

        def keep(socket: WebSocket) -> None:
            sockets.append(socket)

        for context in contexts:
            page = context.new_page()
            page.on("websocket", keep)
            page.goto(_play_url(server, world))
            PlayPage(page).wait_state(0)
            pages.append(page)
        alice = pages[0]
        expect(alice.locator("#play-turn")).to_have_text("À toi de jouer !")
        expect(alice.locator("#act-draw")).to_be_visible()
        assert len(sockets) == len(pages)

        overview = teacher.new_page()
        overview.goto(f"{server.url}/sessions/{world['session']}/")
        overview.get_by_text("Terminer la séance…").click()
        # Wait on the real event, each page's socket hearing the end, with a generous deadline:
        # on a loaded machine the broadcast once took longer than the page's few seconds.
        with contextlib.ExitStack() as heard:
            for socket in sockets:
                heard.enter_context(
                    socket.expect_event(
                        "framereceived", predicate=_finished_frame, timeout=SERVER_UNDER_LOAD
                    )
                )
            overview.get_by_role("button", name="Terminer la séance", exact=True).click()
            expect(overview.locator("main")).to_contain_text("La séance est terminée.")

        for page in pages:  # then the page says it, from the frame it has
            _says_the_session_ended(page)
        # A reload says the same, at once (the page is served with its state).
        alice.reload()
        _says_the_session_ended(alice)
        alice.keyboard.press("d")  # the draw key does nothing on a stopped game
        expect(alice.locator("#play-error")).to_be_hidden()
    finally:
        for context in [*contexts, teacher]:
            context.close()


# --- 3. Signing out -----------------------------------------------------------------------


def test_signing_out_closes_the_other_tabs_and_leads_to_join(
    server: Server, browser: Browser
) -> None:
    world = _session_world(server, students=["Alice", "Bruno"], setup=PHONE_SETUP)
    context = signed_in(browser, server, world["students"][0]["session"])
    try:
        playing = context.new_page()
        sockets: list[WebSocket] = []
        playing.on("websocket", lambda socket: sockets.append(socket))
        playing.goto(_play_url(server, world))
        PlayPage(playing).wait_state(0)
        expect(playing.locator("#play-connection")).to_have_attribute("data-status", "connected")
        expect(playing.locator("#act-draw")).to_be_visible()

        other = context.new_page()
        other.goto(f"{server.url}/")
        other.get_by_role("button", name="Se déconnecter").click()
        expect(other).to_have_url(f"{server.url}/join/")

        # The playing tab is told at once (no action, no timer): closed with 4401.
        status = playing.locator("#play-connection")
        expect(status).to_have_attribute("data-status", "signed_out", timeout=FEW_SECONDS)
        expect(status).to_have_text("Tu n’es plus connecté·e : reconnecte-toi pour jouer.")
        expect(playing.locator(".play-actions button:visible")).to_have_count(0)
        expect(playing.locator("#play-hand button:enabled")).to_have_count(0)
        again = playing.locator("#play-signed-out").get_by_role("link", name="Se reconnecter")
        expect(again).to_have_attribute("href", "/join/")
        playing.keyboard.press("d")
        playing.wait_for_timeout(1_500)  # real time for a wrongly reopened socket to show
        assert len(sockets) == 1
        _, state_id = server.table_state(world["table"])
        assert state_id == 0  # nothing was played for the signed-out student

        # Back on the table page: the class code, not the teacher's sign-in.
        playing.reload()
        expect(playing).to_have_url(f"{server.url}/join/")
    finally:
        context.close()


# --- 4. Cards on a phone, and no jump --------------------------------------------------------

CARD_TEXTS = """() => [...document.querySelectorAll(
    '#play-hand .card__value, #play-hand .card__mark, #play-hand .card__playable, '
    + '#play-top .card__value'
  )].map((element) => {
    const card = element.closest('.card').getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(element);
    const text = range.getBoundingClientRect();
    return {
      text: element.textContent,
      kind: element.className,
      lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
      inside: text.left >= card.left - 0.5 && text.right <= card.right + 0.5,
      rect: [text.left, text.top, text.right, text.bottom],
    };
  })"""


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _delayed_page(context: Any, held: list[Any]) -> Page:
    """Open a page whose script and socket answer late: the first paint comes before them."""
    page: Page = context.new_page()

    def slow_script(route: Route) -> None:
        time.sleep(0.6)
        route.continue_()

    def hold(socket: WebSocketRoute) -> None:
        upstream = socket.connect_to_server()
        held.append(socket)
        held.append([])
        frames = held[-1]
        upstream.on_message(lambda message: frames.append(message))

    page.route("**/js/play/main.js", slow_script)
    page.route_web_socket(re.compile(r"/ws/table/\d+/$"), hold)
    return page


@pytest.mark.parametrize(
    ("ruleset", "setup", "lang"),
    [("fractions", PHONE_SETUP, "fr"), ("classic", CLASSIC_SETUP, "en")],
)
def test_cards_keep_their_words_whole_on_a_phone_and_the_page_stays_put(
    server: Server, browser: Browser, ruleset: str, setup: dict[str, Any], lang: str
) -> None:
    world = _session_world(
        server,
        students=["Alice", "Bruno"],
        ruleset=ruleset,
        setup=setup,
        settings={"highlight_playable": True},
    )
    context = signed_in(
        browser,
        server,
        world["students"][0]["session"],
        lang=lang,
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
    )
    try:
        held: list[Any] = []
        page = _delayed_page(context, held)
        page.goto(_play_url(server, world))
        page.wait_for_timeout(800)  # the socket's frames wait: the page shows what it was served
        socket, frames = held[0], held[1]
        for frame in frames:
            socket.send(frame)
        PlayPage(page).wait_state(0)
        expect(page.locator("#play-connection")).to_have_attribute("data-status", "connected")

        shift = page.evaluate(LAYOUT_SHIFT)
        assert shift["total"] < MAX_LAYOUT_SHIFT, shift

        texts = page.evaluate(CARD_TEXTS)
        # Every card's face is there, in the page's words (no marking under it).
        assert {t["text"] for t in texts} >= set(FACES[ruleset])
        marks = {t["text"]: t["rect"] for t in texts if t["kind"].startswith("card__mark")}
        tags = [t for t in texts if "playable" in t["kind"]]
        if ruleset == "classic":
            assert tags, "the playable cards carry their tag"
            for tag in tags:  # "✓ playable" never covers a marking
                assert not any(_overlap(tag["rect"], rect) for rect in marks.values()), tag
        for text in texts:
            assert text["lines"] == 1, text  # "16/48" never wraps as "16/4" over "8"
            if "playable" not in text["kind"]:
                assert text["inside"], text  # nor leaves its card

        # The whole hand is in view without scrolling, and the page is no wider than the phone.
        assert page.evaluate("window.scrollY") == 0
        bottoms = page.evaluate(
            "[...document.querySelectorAll('#play-hand button')]"
            ".map((b) => b.getBoundingClientRect().bottom)"
        )
        assert max(bottoms) <= PHONE["height"], bottoms
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # Under a browser's bars the same phone shows less: the first row is still all there.
        assert min(bottoms) <= PHONE_UNDER_BARS["height"], bottoms
    finally:
        context.close()


# --- 5. The next game -----------------------------------------------------------------------


def test_after_the_game_the_next_one_is_one_click(server: Server, browser: Browser) -> None:
    world = _session_world(server, students=["Alice"], bots=1, setup=LAST_CARD_SETUP)
    context = signed_in(browser, server, world["students"][0]["session"])
    try:
        page = context.new_page()
        page.goto(_play_url(server, world))
        PlayPage(page).wait_state(0)
        next_game = page.get_by_role("button", name="Partie suivante")
        expect(next_game).to_be_hidden()
        page.click('#play-hand button[data-card="2/6j"]')
        expect(page.locator("#play")).to_have_attribute("data-game-over", "1")
        expect(page.locator("#play-banner")).to_contain_text("Alice gagne")
        expect(next_game).to_be_visible()
        next_game.click()
        # One click: the student sits at the session's next table, its game already running.
        expect(page).not_to_have_url(_play_url(server, world))
        expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
        expect(page.locator("#play-table-number")).to_have_text("Table 1")  # its number kept
        expect(page.locator("#play-hand button").first).to_be_visible()
        expect(page.locator("#play")).to_have_attribute("data-game-over", "0")
    finally:
        context.close()


# --- 6. The keyboard's way to the hand ------------------------------------------------------


def test_the_first_tab_stop_leads_to_the_hand(server: Server, browser: Browser) -> None:
    world = _session_world(server, students=["Alice", "Bruno"], setup=PHONE_SETUP)
    context = signed_in(browser, server, world["students"][0]["session"], viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(_play_url(server, world))
        PlayPage(page).wait_state(0)
        page.keyboard.press("Tab")
        focused = page.evaluate("[document.activeElement.id, document.activeElement.textContent]")
        assert focused == ["skip-to-hand", "Aller à ma main"]
        expect(page.locator("#skip-to-hand")).to_be_visible()  # shown while it has the focus
        page.keyboard.press("Enter")
        first = PHONE_SETUP["hands"][0][0]
        expect(page.locator(f'#play-hand button[data-card="{first}"]')).to_be_focused()
        # From anywhere, H does the same; the page's help says so.
        # (the focus leaves the hand: with the opponents around the pile the players' heading
        # is not a place to click)
        page.evaluate("document.activeElement.blur()")
        assert page.evaluate("document.activeElement === document.body")
        page.keyboard.press("h")
        expect(page.locator(f'#play-hand button[data-card="{first}"]')).to_be_focused()
        expect(page.locator(".play-help")).to_contain_text("Aller à ma main")
        # Enter then plays the card that has the focus (16/48 on 1/3: an equal fraction).
        page.keyboard.press("Enter")
        server.wait_state_after(world["table"], 0)
    finally:
        context.close()
