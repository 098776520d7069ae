"""The network check page through Debian's squid in its default configuration (issue 25).

Squid refuses the check's socket (its `CONNECT` to a port other than 443 is `TCP_DENIED`) and
passes the event stream and the POSTs: the page says that only the fallback works, that the
class will use it, and fills the IT ticket with what failed. A daphne of its own serves the
check shortened to 2 s (tests/e2e/browser/test_network_check.py has the other outcomes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.e2e.browser.conftest import DESKTOP
from tests.support.live import Daphne, Server
from tests.support.proxies import Squid
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def check_daphne(server: Server) -> Iterator[Daphne]:
    """One daphne on the package's database with the check shortened to 2 s."""
    env = {**server.env, "NETWORK_CHECK_SECONDS": "2", "NETWORK_CHECK_HEARTBEAT": "0.5"}
    daphne = Daphne(env, server.app.dir / "network-check-squid.log")
    yield daphne
    daphne.kill()


def test_through_squid_only_the_fallback_works(
    squid_browser: Browser, squid: Squid, check_daphne: Daphne
) -> None:
    viewport = ViewportSize(width=DESKTOP["width"], height=DESKTOP["height"])
    context = squid_browser.new_context(viewport=viewport, locale="fr")
    try:
        page = context.new_page()
        page.goto(f"{check_daphne.http}/network-check/")
        verdict = page.locator("#network-check-verdict")
        expect(verdict).to_have_attribute("data-verdict", "fallback", timeout=45_000)
        expect(verdict).to_contain_text("La classe peut jouer, par le lien de secours")
        socket_open = page.locator('tr[data-link="socket"] td[data-part="open"]')
        expect(socket_open).to_have_attribute("data-outcome", "fails")
        held = page.locator('tr[data-link="fallback"] td[data-part="held"]')
        expect(held).to_have_attribute("data-outcome", "works")
        ticket = page.locator("#network-check-ticket").input_value().replace("\u202f", " ")
        assert "WebSocket : Ne fonctionne pas" in ticket
        # Squid refused the socket's tunnel, and carried the page, the stream and the echoes.
        target = f"127.0.0.1:{check_daphne.port}"
        denied = wait_until(
            lambda: [line for line in squid.requests("TCP_DENIED", "CONNECT") if target in line],
            20,
            "squid to refuse the check socket's CONNECT",
        )
        assert re.search(r"TCP_DENIED/403 .* CONNECT " + re.escape(target), denied[0])
        carried = "\n".join(squid.requests("TCP_MISS"))
        assert f"{target}/network-check/echo/" in carried
    finally:
        context.close()
