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
from playwright.sync_api import Browser, Playwright

from tests.e2e.browser.conftest import launched_chromium, package_fixtures
from tests.support.proxies import Squid

# Through squid, everything: `<-loopback>` removes Chromium's implicit bypass of loopback
# addresses (the app runs on 127.0.0.1), and no background request of the browser's own.
# (CHROMIUM_ARGS already has --disable-background-networking; said again here: it matters.)
PROXIED_ARGS = ["--proxy-bypass-list=<-loopback>", "--disable-background-networking"]


# The app, Playwright, and a chromium with no proxy at all.
server, playwright, browser = package_fixtures("network", "--no-proxy-server")


@pytest.fixture(scope="package")
def squid() -> Iterator[Squid]:
    """Run Debian's squid, default configuration, for the package."""
    with Squid() as proxy:
        yield proxy


@pytest.fixture(scope="package")
def squid_browser(playwright: Playwright, squid: Squid) -> Iterator[Browser]:
    """Debian's chromium whose every request, loopback too, goes through squid."""
    with launched_chromium(playwright, f"--proxy-server={squid.url}", *PROXIED_ARGS) as launched:
        yield launched
