"""Real-time windows and choosers: draw and pass keys, UNO catch, +4 challenge, colour, 7-0."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from games.engine import Game
from tests.e2e.browser.conftest import Server, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector, option_selector

pytestmark = pytest.mark.browser

# Uno Fractions, Alice (seat 0) and Bruno (seat 1, plays first) on 1/3.
WINDOWS_SETUP = {
    "dealer": 0,
    "hands": [["4/12j", "2/3r"], ["+04", "2/6v", "10/12v", "1/6b"]],
    "start": "1/3v",
}
# Classic UNO with 7-0, Alice (seat 0, plays first) and Bruno on 3 rouge.
CLASSIC_SETUP = {
    "dealer": 1,
    "hands": [["couleur", "7r", "5b", "9j"], ["8r", "2b", "4v", "6j"]],
    "start": "3r",
}


def _open(
    browser: Browser, server: Server, world: dict[str, Any], keyboard: list[bool]
) -> list[PlayPage]:
    pages = []
    for student, by_keyboard in zip(world["students"], keyboard, strict=True):
        page = signed_in(browser, server, student["session"]).new_page()
        page.goto(f"{server.url}/tables/{world['table']}/")
        pages.append(PlayPage(page, keyboard_only=by_keyboard))
    return pages


def _step(server: Server, table: int, state_id: int, pages: list[PlayPage]) -> int:
    new = server.wait_state_after(table, state_id)
    for page in pages:
        page.wait_state(new)
    return new


def test_draw_pass_catch_and_challenge(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice", "Bruno"], setup=WINDOWS_SETUP)
    table = world["table"]
    alice, bruno = pages = _open(browser, server, world, [True, True])
    try:
        for page in pages:
            page.wait_state(0)
        # Bruno draws with D: the drawn card is shown, then P keeps it and passes.
        bruno.page.keyboard.press("d")
        state_id = _step(server, table, 0, pages)
        expect(bruno.page.locator("#play-hint")).to_contain_text("Tu as pioché")
        expect(bruno.page.locator("#act-draw")).to_be_hidden()
        bruno.page.keyboard.press("p")
        state_id = _step(server, table, state_id, pages)
        # Alice plays her second-to-last card without saying UNO: Bruno may catch her.
        alice.press(card_selector("4/12j"))
        state_id = _step(server, table, state_id, pages)
        catch = bruno.page.locator("#act-catch")
        expect(catch).to_have_text("Attraper Alice sans UNO !")
        # A UNO window waits on nobody: Bruno has the turn, Alice has nothing to answer.
        expect(alice.page.locator("#play-turn")).to_have_text("À Bruno de jouer")
        expect(bruno.page.locator("#play-turn")).to_have_text("À toi de jouer !")
        expect(alice.page.locator("#act-uno")).to_be_visible()  # she may still say it
        expect(alice.page.locator('.player[data-seat="0"]')).to_contain_text("UNO pas dit !")
        bruno.press("#act-catch")
        state_id = _step(server, table, state_id, pages)
        expect(alice.page.locator("#play-hand button")).to_have_count(2)
        expect(alice.page.locator("#play-log")).to_contain_text("n’a pas dit UNO")
        # Bruno's +4 (no denominator named): Alice, by keyboard, challenges it.
        bruno.press(card_selector("+04"))
        bruno.press(option_selector(""))
        state_id = _step(server, table, state_id, pages)
        expect(alice.page.locator("#act-accept")).to_have_text("Accepter")
        expect(alice.page.locator("#play-hint")).to_contain_text("Conteste le +4")
        expect(alice.page.locator("#play-turn")).to_have_text("On attend ta réponse.")
        expect(bruno.page.locator("#play-turn")).to_have_text("Alice doit répondre.")
        expect(alice.page.locator("#play-announcer")).to_contain_text("On attend ta réponse.")
        alice.press("#act-challenge")
        state_id = _step(server, table, state_id, pages)
        expect(alice.page.locator("#play-log")).to_contain_text("Alice conteste le +4")
        game = Game.from_dict(server.table_state(table)[0])
        assert game.view(None)["awaiting"] is None
        assert bruno.hand() == game.view(1)["hand"]
        assert alice.hand() == game.view(0)["hand"]
    finally:
        for page in pages:
            page.page.context.close()


def test_the_page_says_whose_move_it_is_from_the_frame_acting_seat(
    server: Server, browser: Browser
) -> None:
    """The page reads `acting` from the state frame (the engine's answer), never from `turn`."""
    world = server.world(students=["Alice", "Bruno"], setup=WINDOWS_SETUP)
    context = signed_in(browser, server, world["students"][0]["session"])

    def relay(socket: WebSocketRoute) -> None:
        # Bruno (seat 1) has the turn; the relay tells Alice's page the game waits on her. A
        # page that worked "who acts" out of `turn` would still say it is Bruno's turn.
        upstream = socket.connect_to_server()

        def forward(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "state":
                frame["view"]["acting"] = 0
            socket.send(json.dumps(frame))

        upstream.on_message(forward)

    try:
        page = context.new_page()
        page.route_web_socket(re.compile(r"/ws/table/\d+/$"), relay)
        page.goto(f"{server.url}/tables/{world['table']}/")
        alice = PlayPage(page)
        alice.wait_state(0)
        assert Game.from_dict(server.table_state(world["table"])[0]).view(None)["turn"] == 1
        expect(page.locator("#play")).to_have_attribute("data-acting", "0")
        expect(page.locator("#play-turn")).to_have_text("À toi de jouer !")
        expect(page.locator('.player[data-seat="0"]')).to_have_class(re.compile("player--acting"))
        expect(page.locator('.player[data-seat="1"]')).not_to_have_class(
            re.compile("player--acting")
        )
    finally:
        context.close()


def test_classic_colour_and_seven_swap_with_playable_cards(
    server: Server, browser: Browser
) -> None:
    world = server.world(
        students=["Alice", "Bruno"],
        ruleset="classic",
        options={"seven_o": True},
        settings={"highlight_playable": True},
        setup=CLASSIC_SETUP,
    )
    table = world["table"]
    alice, bruno = pages = _open(browser, server, world, [True, False])
    try:
        for page in pages:
            page.wait_state(0)
        # The table highlights playable cards (a setting of classic tables), in words too.
        playable = alice.page.locator("#play-hand .card--playable")
        expect(playable).to_have_count(2)
        expect(alice.page.locator(card_selector("7r"))).to_have_attribute(
            "aria-label", "7 rouge, jouable"
        )
        expect(alice.page.locator(card_selector("5b"))).not_to_have_class("card--playable")
        # The Wild asks for a colour.
        alice.press(card_selector("couleur"))
        expect(alice.page.locator("#chooser-options button")).to_have_count(4)
        alice.press(option_selector("r"))
        state_id = _step(server, table, 0, pages)
        bruno_log = bruno.page.locator("#play-log")
        expect(bruno_log).to_contain_text("Alice joue Joker. Couleur : rouge.")
        expect(bruno.page.locator("#play-match")).to_contain_text("rouge")
        bruno.press(card_selector("8r"))
        state_id = _step(server, table, state_id, pages)
        # A 7 with the 7-0 option asks whom to swap hands with.
        alice_before, bruno_before = alice.hand(), bruno.hand()
        alice.press(card_selector("7r"))
        expect(alice.page.locator("#chooser-title")).to_have_text("Échanger ta main avec qui ?")
        alice.press(option_selector("1"))
        state_id = _step(server, table, state_id, pages)
        alice_before.remove("7r")
        assert alice.hand() == bruno_before
        assert bruno.hand() == alice_before
        expect(alice.page.locator("#play-log")).to_contain_text("Alice échange sa main avec Bruno")
    finally:
        for page in pages:
            page.page.context.close()


def test_turn_timer_and_pause_reach_the_student(server: Server, browser: Browser) -> None:
    world = server.world(
        students=["Alice", "Bruno"], setup=WINDOWS_SETUP, settings={"turn_timer": 90}
    )
    table = world["table"]
    student = signed_in(browser, server, world["students"][1]["session"])
    teacher = signed_in(browser, server, world["teacher_session"])
    try:
        bruno = PlayPage(student.new_page())
        bruno.page.goto(f"{server.url}/tables/{table}/")
        bruno.wait_state(0)
        expect(bruno.page.locator("#play-timer-row")).to_be_visible()
        expect(bruno.page.locator("#play-timer")).to_have_text(re.compile(r"^\d{1,2} s$"))
        watch = teacher.new_page()
        watch.goto(f"{server.url}/tables/{table}/")
        watch.locator("[data-pause-button]").click()
        expect(bruno.page.locator("#play-banner")).to_have_text(
            "L’enseignant·e a mis la partie en pause."
        )
        bruno.page.keyboard.press("d")
        expect(bruno.page.locator("#play-error")).to_have_attribute("data-code", "paused")
        expect(bruno.page.locator("#play-error-message")).to_have_text(
            "L’enseignant·e a mis cette table en pause."
        )
        assert server.table_state(table)[1] == 0
    finally:
        student.close()
        teacher.close()


# Family Quick, Alice (seat 0, plays first) and Bruno on 3 rouge.
FAMILY_SETUP = {
    "dealer": 1,
    "hands": [["hugo r", "quickos", "5b", "9j"], ["+04", "2b", "4v", "6j"]],
    "start": "3r",
}
# Classic UNO with stacking, Alice (seat 0, plays first) and Bruno on 3 rouge.
STACKING_SETUP = {
    "dealer": 1,
    "hands": [["+02r", "5b", "9j"], ["+02b", "2b", "4v", "6j"]],
    "start": "3r",
}


def test_family_quick_function_and_quickos(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice", "Bruno"], ruleset="family_quick", setup=FAMILY_SETUP)
    table = world["table"]
    alice, bruno = pages = _open(browser, server, world, [False, False])
    try:
        for page in pages:
            page.wait_state(0)
        # A Family Quick card asks what it does: here "skip", so Alice plays again.
        alice.press(card_selector("hugo r"))
        expect(alice.page.locator("#chooser-title")).to_have_text("Choisis ce que fait la carte.")
        alice.press(option_selector("stop"))
        state_id = _step(server, table, 0, pages)
        expect(bruno.page.locator("#play-log")).to_contain_text("Fonction : passer un tour.")
        # Alice draws (and keeps the card) so that Bruno gets the turn; he plays his +4.
        expect(alice.page.locator("#play-turn")).to_have_text("À toi de jouer !")
        alice.page.keyboard.press("d")
        state_id = _step(server, table, state_id, pages)
        if alice.page.locator("#act-pass").is_visible():
            alice.page.keyboard.press("p")
            state_id = _step(server, table, state_id, pages)
        expect(bruno.page.locator("#play-turn")).to_have_text("À toi de jouer !")
        bruno.press(card_selector("+04"))
        bruno.press(option_selector("v"))
        state_id = _step(server, table, state_id, pages)
        # Alice holds Quickos: she sends the +4 back.
        expect(alice.page.locator("#play-hint")).to_contain_text("Joue Quickos")
        alice.press("#act-quickos")
        state_id = _step(server, table, state_id, pages)
        expect(alice.page.locator("#play-log")).to_contain_text("le +4 revient à Bruno")
        game = Game.from_dict(server.table_state(table)[0])
        assert "quickos" not in game.view(0)["hand"]
        assert bruno.hand() == game.view(1)["hand"]
    finally:
        for page in pages:
            page.page.context.close()


def test_stacking_reply_then_take_the_total(server: Server, browser: Browser) -> None:
    world = server.world(
        students=["Alice", "Bruno"],
        ruleset="classic",
        options={"stacking": True},
        setup=STACKING_SETUP,
    )
    table = world["table"]
    alice, bruno = pages = _open(browser, server, world, [False, True])
    try:
        for page in pages:
            page.wait_state(0)
        alice.press(card_selector("+02r"))
        state_id = _step(server, table, 0, pages)
        expect(bruno.page.locator("#play-hint")).to_contain_text("Pose une carte du même type")
        expect(bruno.page.locator("#act-accept")).to_have_text("Prendre 2 cartes")
        bruno.press(card_selector("+02b"))  # by keyboard: Tab to the card, Enter
        state_id = _step(server, table, state_id, pages)
        expect(alice.page.locator("#act-accept")).to_have_text("Prendre 4 cartes")
        alice.press("#act-accept")
        state_id = _step(server, table, state_id, pages)
        expect(alice.page.locator("#play-hand button")).to_have_count(6)
        expect(bruno.page.locator("#play-log")).to_contain_text("Alice prend 4 cartes.")
    finally:
        for page in pages:
            page.page.context.close()
