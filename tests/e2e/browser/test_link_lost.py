"""A phone that loses its network says so within 5 s, and a move made meanwhile waits.

docs/protocol.md, "ping": the page's own heartbeat (a `ping` every 2 s, answered `pong`). With
the browser offline, nothing comes back: the connection line says « Connexion perdue… » within
5 s (not "Connecté" with a stale turn), a card tapped meanwhile is said to wait (shown and read
out), and once the network is back the move leaves and is applied, on the socket and on the
fallback stream alike.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import Server, signed_in
from tests.e2e.browser.pages import card_selector

pytestmark = pytest.mark.browser

# Seat 0 plays first on 1/3; 4/12 is equal to it (no question asked: the denominators differ).
DUO_SETUP = {
    "dealer": 1,
    "hands": [["4/12j", "2/3r", "10/12v", "1/6b"], ["2/6r", "5/6v", "1/2b", "joker"]],
    "start": "1/3v",
}
# The words must come within 5 s of the network going (issue 30 §1.6).
SAID_WITHIN_MS = 5_000
PENDING = "Ton coup attend la connexion\u202f: il partira dès son retour."


@pytest.mark.parametrize("link", ["socket", "stream"])
def test_an_offline_page_says_connection_lost_and_holds_a_tap(
    server: Server, browser: Browser, link: str
) -> None:
    world = server.world(students=["Alice", "Bruno"], setup=DUO_SETUP)
    table = world["table"]
    context = signed_in(browser, server, world["students"][0]["session"])
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.url}/tables/{table}/?link={link}")
        connection = page.locator("#play-connection")
        expect(connection).to_have_attribute("data-status", "connected", timeout=15_000)
        expect(connection).to_have_text("Connecté")
        # A few heartbeats go and come back: the page stays "Connecté".
        page.wait_for_timeout(3_000)
        expect(connection).to_have_attribute("data-status", "connected")

        context.set_offline(True)
        expect(connection).to_have_attribute("data-status", "link_lost", timeout=SAID_WITHIN_MS)
        expect(connection).to_have_text("Connexion perdue…")

        page.click(card_selector("4/12j"))
        pending = page.locator("#play-pending")
        expect(pending).to_be_visible()
        expect(pending).to_have_text(PENDING)
        expect(page.locator("#play")).to_have_attribute("data-pending", "1")
        expect(page.locator(card_selector("4/12j"))).to_have_attribute("data-pending", "1")
        expect(page.locator("#play-announcer")).to_contain_text(PENDING)
        assert server.table_state(table)[1] == 0  # nothing reached the server

        context.set_offline(False)
        server.wait_state_after(table, 0)
        expect(page.locator("#play")).to_have_attribute("data-state-id", "1", timeout=20_000)
        expect(connection).to_have_attribute("data-status", "connected", timeout=20_000)
        expect(pending).to_be_hidden()
        expect(page.locator("#play")).to_have_attribute("data-pending", "")
        assert "4/12j" not in page.locator("#play-hand button").evaluate_all(
            "buttons => buttons.map(b => b.dataset.card)"
        )
        assert errors == []
    finally:
        context.close()
