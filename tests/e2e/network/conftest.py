"""Fixtures of the network tests: the app behind real proxies, and chromium through them.

One daphne for the package (tests/support/live.py); squid, nginx and the cutting proxy
(tests/support/proxies.py) each started by its fixture on a free loopback port and killed at
the end; one Playwright for the package (two sync loops in one package break each other, see
tests/e2e/browser/conftest.py), and two chromium: one whose every request goes through squid,
and one that goes straight to the address it is given (nginx, the cutting proxy).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.e2e.browser.conftest import CHROMIUM, CHROMIUM_ARGS, SETTINGS
from tests.support.live import Server, serve
from tests.support.proxies import Squid

# Through squid, everything: `<-loopback>` removes Chromium's implicit bypass of loopback
# addresses (the app runs on 127.0.0.1), and no background request of the browser's own.
# (CHROMIUM_ARGS already has --disable-background-networking; said again here: it matters.)
PROXIED_ARGS = ["--proxy-bypass-list=<-loopback>", "--disable-background-networking"]


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Serve the app with one daphne for the package; robots slow enough not to race."""
    directory = tmp_path_factory.mktemp("network")
    with serve(
        directory, settings_module=SETTINGS, GAMES_BOT_DELAY="0.05", GAMES_ROUND_PAUSE="0.2"
    ) as live:
        yield live


@pytest.fixture(scope="package")
def squid() -> Iterator[Squid]:
    """Run Debian's squid, default configuration, for the package."""
    proxy = Squid()
    try:
        proxy.start()
        yield proxy
    finally:
        proxy.close()


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    """Start Playwright once for this package (see tests/e2e/browser/conftest.py)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as driver:
            yield driver


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Debian's chromium with no proxy at all."""
    launched = playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, "--no-proxy-server"]
    )
    yield launched
    launched.close()


@pytest.fixture(scope="package")
def squid_browser(playwright: Playwright, squid: Squid) -> Iterator[Browser]:
    """Debian's chromium whose every request, loopback too, goes through squid."""
    launched = playwright.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[*CHROMIUM_ARGS, f"--proxy-server={squid.url}", *PROXIED_ARGS],
    )
    yield launched
    launched.close()
