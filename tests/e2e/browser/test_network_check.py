"""In chromium over daphne: the network check page for each outcome a school network gives.

Three daphne processes on the browser package's database, the check shortened to 2 s: the
real app (the socket works), the real app refusing every WebSocket handshake
(REFUSE_WEBSOCKETS=1, as a filtering proxy without `Upgrade`: only the fallback works), and
that app without the check's stream route as well (tests/support/asgi_without.py: nothing
works). The page runs its own script unchanged; the tests read what it says.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser.conftest import DESKTOP, Server, serious_violations
from tests.support.live import Daphne

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHECK_ENV = {"NETWORK_CHECK_SECONDS": "2", "NETWORK_CHECK_HEARTBEAT": "0.5"}
# The verdict waits for the 2 s hold; a loaded machine gets room, the page no hurry.
VERDICT_TIMEOUT_MS = 45_000
VERDICTS = {
    "socket": "La classe jouera par le WebSocket",
    "fallback": "La classe peut jouer, par le lien de secours",
    "nothing": "La classe ne peut pas jouer depuis ce navigateur",
}


@pytest.fixture(scope="module")
def check_servers(server: Server) -> Iterator[dict[str, Daphne]]:
    """Start the three apps on the package's database, with the check shortened."""
    env = {**server.env, **CHECK_ENV}
    started: dict[str, Daphne] = {}
    try:
        for name, application, refuse in (
            ("socket", "unoclass.asgi:application", "0"),
            ("fallback", "unoclass.asgi:application", "1"),
            ("nothing", "tests.support.asgi_without:no_link", "0"),
        ):
            log = server.app.dir / f"network-check-{name}.log"
            started[name] = Daphne(
                {**env, "REFUSE_WEBSOCKETS": refuse}, log, application=application
            )
        yield started
    finally:
        for daphne in started.values():
            daphne.kill()


def _open_check(browser: Browser, daphne: Daphne, lang: str = "fr") -> Page:
    context = browser.new_context(viewport=DESKTOP, locale=lang)
    context.add_cookies([{"name": "django_language", "value": lang, "url": daphne.http}])
    page = context.new_page()
    page.goto(f"{daphne.http}/network-check/")
    return page


def _cell(page: Page, link: str, part: str):  # type: ignore[no-untyped-def]
    return page.locator(f'tr[data-link="{link}"] td[data-part="{part}"]')


def _expect_verdict(page: Page, kind: str) -> None:
    verdict = page.locator("#network-check-verdict")
    expect(verdict).to_have_attribute("data-verdict", kind, timeout=VERDICT_TIMEOUT_MS)
    expect(verdict).to_contain_text(VERDICTS[kind])
    # The live region says it too, in words: colour is never the only cue.
    expect(page.get_by_role("status").first).to_contain_text(VERDICTS[kind])


def test_socket_works_the_class_uses_it(browser: Browser, check_servers: dict[str, Daphne]) -> None:
    daphne = check_servers["socket"]
    page = _open_check(browser, daphne)
    try:
        _expect_verdict(page, "socket")
        for link in ("socket", "fallback"):
            for part in ("open", "echo", "held"):
                expect(_cell(page, link, part)).to_have_attribute("data-outcome", "works")
            expect(_cell(page, link, "open")).to_have_text("✓ Fonctionne")
            expect(_cell(page, link, "echo")).to_contain_text("médiane de 5 échos")
            expect(_cell(page, link, "held")).to_contain_text("Resté ouvert 2 s")
        ticket = page.locator("#network-check-ticket")
        value = ticket.input_value()
        assert f"port {daphne.port}" in value
        assert f"ws://127.0.0.1:{daphne.port}/ws/" in value
        assert "text/event-stream" in value
        assert "WebSocket : Fonctionne" in value.replace("\u202f", " ")
        assert serious_violations(page) == []
    finally:
        page.context.close()


def test_only_the_fallback_works_when_the_upgrade_is_refused(
    browser: Browser, check_servers: dict[str, Daphne]
) -> None:
    page = _open_check(browser, check_servers["fallback"])
    try:
        _expect_verdict(page, "fallback")
        expect(_cell(page, "socket", "open")).to_have_attribute("data-outcome", "fails")
        expect(_cell(page, "socket", "open")).to_contain_text("✗ Impossible d’ouvrir")
        expect(_cell(page, "socket", "held")).to_have_text("Pas testé")
        expect(_cell(page, "fallback", "held")).to_have_attribute("data-outcome", "works")
        value = page.locator("#network-check-ticket").input_value().replace("\u202f", " ")
        assert "WebSocket : Ne fonctionne pas" in value
        assert "flux d’événements) : Fonctionne" in value
    finally:
        page.context.close()


def test_nothing_works_the_page_says_what_to_ask(
    browser: Browser, check_servers: dict[str, Daphne]
) -> None:
    page = _open_check(browser, check_servers["nothing"], lang="en")
    try:
        verdict = page.locator("#network-check-verdict")
        expect(verdict).to_have_attribute("data-verdict", "nothing", timeout=VERDICT_TIMEOUT_MS)
        expect(verdict).to_contain_text("The class cannot play from this browser")
        for link in ("socket", "fallback"):
            expect(_cell(page, link, "open")).to_have_attribute("data-outcome", "fails")
        # Keyboard only: the copy button, then the ticket's text is on the clipboard.
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        copy = page.get_by_role("button", name="Copy the text")
        copy.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#network-check-copied")).to_have_text(
            "The text is copied: paste it into the IT ticket."
        )
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == page.locator("#network-check-ticket").input_value()
        assert "WebSocket: Does not work; fallback link (event stream): Does not work" in copied
        expect(page.get_by_role("button", name="Run the check again")).to_be_enabled()
    finally:
        page.context.close()
