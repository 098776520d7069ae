"""The table's WebSocket through the proxies of a school's network: the problem the fallback
solves, and proof that the tests' proxies do what they stand for.

- Debian's squid in its default configuration as the browser's proxy (as the académies'
  Squid-based filters are): the page loads through it, but Chromium opens a `ws://` socket
  through an HTTP proxy with `CONNECT host:port`, and the default refuses CONNECT to any port
  but 443 (`TCP_DENIED`).
- The deploy guide's nginx without the `Upgrade` headers: the handshake reaches daphne as a
  plain GET, and no socket opens.
- The cutting proxy: a socket through it is cut while open, and the page opens another.

The page is held on the socket (`?link=socket`): these tests show the socket's fate, not the
fallback's (tests/e2e/network/test_class_games.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser.conftest import signed_in
from tests.e2e.browser.pages import PlayPage
from tests.e2e.network.class_game import FRAME_RECORDER
from tests.support.live import Server
from tests.support.proxies import DEFAULT_SQUID_CONF, CuttingProxy, Nginx, Squid
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


def test_through_nginx_without_upgrade_the_socket_fails(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    table = world["table"]
    proxy = Nginx([server.daphne.port], upgrade=False)
    context = signed_in(browser, server, world["students"][0]["session"])
    try:
        proxy.start()
        page = context.new_page()
        page.goto(f"{proxy.url}/tables/{table}/?link=socket")
        expect(page.locator("#play-hand button")).to_have_count(4)
        # The handshake went through nginx as a plain GET, and no socket opened.
        wait_until(
            lambda: [line for line in proxy.access_log() if f"GET /ws/table/{table}/" in line],
            20,
            "the socket's handshake to pass nginx",
        )
        status = page.locator("#play-connection")
        expect(status).to_have_attribute("data-status", re.compile("offline|reconnecting"))
        handshakes = [line for line in proxy.access_log() if f"/ws/table/{table}/" in line]
        assert not [line for line in handshakes if '" 101 ' in line], handshakes
    finally:
        context.close()
        proxy.close()


def test_the_cutting_proxy_cuts_an_open_socket_and_the_page_opens_another(
    server: Server, browser: Browser
) -> None:
    world = server.world(students=["Alice"], bots=1, setup=DUEL_SETUP)
    proxy = CuttingProxy(server.daphne.port, cut_after=2)
    context = signed_in(browser, server, world["students"][0]["session"])
    context.add_init_script(FRAME_RECORDER)
    try:
        proxy.start()
        page = context.new_page()
        page.goto(f"{proxy.url}/tables/{world['table']}/?link=socket")
        PlayPage(page).wait_state(0)

        def opened() -> int:
            frames = page.evaluate("window.netFrames")
            return sum(1 for f in frames if f["link"] == "socket" and f["type"] == "_opened")

        # The socket open, not idle (the page's state arrived on it), is cut all the same.
        wait_until(lambda: opened() >= 2, 30, "the page's socket to be cut and opened again")
        assert proxy.cuts() >= 1
        assert [line for line in proxy.events() if line.startswith("open ")]
    finally:
        context.close()
        proxy.close()
