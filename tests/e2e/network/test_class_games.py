"""A class game through a school's network plays to the end on the fallback (issue 25, 2).

Four students of a class session at one table, each in their own chromium context, and their
teacher's live overview, all through:

- Debian's squid in its default configuration (the browser's proxy): the socket's CONNECT is
  refused, the pages switch to the event stream by themselves;
- the deploy guide's nginx without the `Upgrade` headers: the socket's handshake fails there;
- a proxy that cuts every connection a few seconds after it opened, the stream chosen by the
  page's `?link=stream`: the stream resumes from the last state id it had (`Last-Event-ID`).

Each time: every move reaches every seat once, in order (what the link delivered and what the
page logged, against the server's stored log), no page ever receives another seat's hand, and
the teacher's overview follows without a reload.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.e2e.network.class_game import (
    ClassGame,
    check_every_move_once,
    check_hidden_hands,
    check_overview_followed,
)
from tests.support.live import Server
from tests.support.proxies import CuttingProxy, Nginx, Squid
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The cutting proxy's delay in these tests: short, so that a short game sees every stream cut
# (the tests wait for the cuts, never on this clock).
CUT_AFTER = 5.0


def _check_game(game: ClassGame, final: int) -> None:
    assert game.links() == ["stream"] * 4
    check_every_move_once(game, "stream", final)
    check_hidden_hands(game)
    check_overview_followed(game)
    assert game.errors == []


def test_a_class_game_through_default_squid_plays_to_the_end_on_the_stream(
    server: Server, squid: Squid, squid_browser: Browser
) -> None:
    game = ClassGame(server, squid_browser, server.url)
    try:
        game.open()
        final = game.play()
        _check_game(game, final)
        # The pages did try the socket (refused by squid), and the streams went through squid.
        target = f"CONNECT 127.0.0.1:{server.daphne.port}"
        assert [line for line in squid.requests("TCP_DENIED") if target in line]
        # Squid logs a request when it ends: close the pages, then read the streams' lines.
        game.close()
        streams = f"/tables/{game.table}/stream/"
        wait_until(
            lambda: len([line for line in squid.requests("", "GET") if streams in line]) >= 4,
            20,
            "squid to log the four pages' event streams",
        )
    finally:
        game.close()


@pytest.fixture
def nginx_without_upgrade(server: Server) -> Iterator[Nginx]:
    """The deploy guide's nginx in front of the daphne, without the Upgrade headers."""
    with Nginx([server.daphne.port], upgrade=False) as proxy:
        yield proxy


def test_a_class_game_through_nginx_without_upgrade_plays_to_the_end_on_the_stream(
    server: Server, nginx_without_upgrade: Nginx, browser: Browser
) -> None:
    game = ClassGame(server, browser, nginx_without_upgrade.url)
    try:
        game.open()
        final = game.play()
        _check_game(game, final)
        # The socket's handshake reached daphne as a plain GET and was refused there.
        log = "\n".join(nginx_without_upgrade.access_log())
        assert f"GET /ws/table/{game.table}/" in log
    finally:
        game.close()


@pytest.fixture
def cutting_proxy(server: Server) -> Iterator[CuttingProxy]:
    """A proxy in front of the daphne that cuts every connection CUT_AFTER s after it opened."""
    with CuttingProxy(server.daphne.port, cut_after=CUT_AFTER) as proxy:
        yield proxy


def _opened(game: ClassGame, seat: int) -> int:
    frames = game.frames(seat)
    return sum(1 for f in frames if f["link"] == "stream" and f["type"] == "_opened")


def test_a_class_game_through_a_proxy_that_cuts_every_connection_resumes_the_stream(
    server: Server, cutting_proxy: CuttingProxy, browser: Browser
) -> None:
    game = ClassGame(server, browser, cutting_proxy.url, link="stream")

    def after(moves: int) -> None:
        # Twice in the game, wait until every page's stream was cut and opened again: the
        # next move is then made while some of them may still be down.
        if moves in (2, 6):
            wanted = 2 if moves == 2 else 3
            wait_until(
                lambda: all(_opened(game, s) >= wanted for s in range(4)),
                8 * CUT_AFTER,
                f"every page's stream to open {wanted} times",
            )

    try:
        game.open()
        final = game.play(between=after)
        _check_game(game, final)
        assert cutting_proxy.cuts() >= 8
        for seat in range(4):
            frames = game.frames(seat)
            # Resumed, never restarted: the recent history comes only with the first opening.
            first_open = next(i for i, f in enumerate(frames) if f["type"] == "_opened")
            later = [f for f in frames[first_open + 1 :] if f["link"] == "stream"]
            reopened = [i for i, f in enumerate(later) if f["type"] == "_opened"]
            assert reopened
            assert not [f for f in later[reopened[0] :] if f.get("replay")]
    finally:
        game.close()
