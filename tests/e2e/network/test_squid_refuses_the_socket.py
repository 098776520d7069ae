"""Behind a default squid, the table's WebSocket cannot open: the problem the fallback solves.

Debian's squid in its default configuration is the browser's proxy (as the académies' Squid-based
filters are). The page loads through it, but Chromium opens a `ws://` socket through an HTTP
proxy with `CONNECT host:port`, and the default refuses CONNECT to any port but 443.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import signed_in
from tests.e2e.browser.pages import PlayPage
from tests.support.live import Server
from tests.support.proxies import DEFAULT_SQUID_CONF, Squid
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

INSTALLED_CONF = Path("/etc/squid/squid.conf")
DUEL_SETUP = {
    "dealer": 1,
    "hands": [["4/12j", "2/3r", "10/12v", "1/6b"], ["2/6r", "5/6v", "1/2b", "joker"]],
    "start": "1/3v",
}


def _settings(text: str) -> list[str]:
    """Return a configuration's settings, comments dropped and spaces normalised."""
    lines = (" ".join(line.split("#", 1)[0].split()) for line in text.splitlines())
    return [line for line in lines if line]


def test_the_tests_squid_runs_debians_default_configuration(squid: Squid) -> None:
    """Every setting of the installed default is in the tests' copy (a new default shows)."""
    installed = [
        line for line in _settings(INSTALLED_CONF.read_text()) if not line.startswith("include ")
    ]
    for extra in sorted(INSTALLED_CONF.parent.glob("conf.d/*.conf")):
        installed += _settings(extra.read_text())
    ours = _settings(DEFAULT_SQUID_CONF)
    assert sorted(installed) == sorted(ours)
    # The running copy differs only in where it listens and keeps its files.
    running = _settings((squid.dir / "squid.conf").read_text())
    changed = {line.split()[0] for line in set(running) ^ set(ours)}
    assert changed == {
        "http_port",
        "coredump_dir",
        "pid_filename",
        "access_log",
        "cache_log",
        "netdb_filename",
    }
    assert "http_access deny CONNECT !SSL_ports" in running
    assert not [line for line in running if line.startswith("http_upgrade_request_protocols")]


def test_through_default_squid_the_socket_is_refused(
    server: Server, squid: Squid, squid_browser: Browser
) -> None:
    world = server.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    table = world["table"]
    context = signed_in(squid_browser, server, world["students"][0]["session"])
    try:
        page = context.new_page()
        page.goto(f"{server.url}/tables/{table}/?link=socket")
        # The page itself came through squid, and shows the hand it was served with.
        assert squid.requests("TCP_MISS", "GET"), squid.access_log()
        expect(page.locator("#play-hand button")).to_have_count(4)
        PlayPage(page).wait_state(0)
        # The socket's tunnel is refused, every time the page tries.
        target = f"127.0.0.1:{server.daphne.port}"
        denied = wait_until(
            lambda: [line for line in squid.requests("TCP_DENIED", "CONNECT") if target in line],
            20,
            "squid to refuse the socket's CONNECT",
        )
        assert re.search(r"TCP_DENIED/403 .* CONNECT " + re.escape(target), denied[0])
        # The page never got a socket: it says it is offline, not connected.
        status = page.locator("#play-connection")
        expect(status).not_to_have_attribute("data-status", "connected")
        expect(status).to_have_attribute("data-status", re.compile("offline|reconnecting"))
        # Nothing reached daphne's table socket through squid.
        assert "/ws/table/" not in "\n".join(squid.requests("TCP_MISS"))
    finally:
        context.close()
