"""PostgreSQL restarted and Redis stopped under a running daphne (issue 14, points 3-4).

- PostgreSQL restart (with the socket and with the fallback link, SSE and POST): the move in
  flight gets an `unavailable` error frame (the socket or the stream stays),
  pages answer 503 "try again in a moment" instead of 500, and once PostgreSQL is back the
  next move goes through at once (CONN_HEALTH_CHECKS drops the dead kept connections).
- Redis stopped: student sign-in pages and the teacher's sign-in still answer (the cache falls
  back to the process's memory); /healthz names the channel layer.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import pytest

from tests.e2e.scale.client import SeatClient, Table, choose_action
from tests.e2e.scale.deployment import audit, check_audit, deploy
from tests.e2e.scale.stream_client import LINKS, seat_client
from tests.support.live import Daphne, LiveApp
from tests.support.servers import PostgresCluster, RedisServer
from tests.support.waiting import receive_until

pytestmark = pytest.mark.slow


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Browser:
    """A cookie-keeping HTTP client that reports redirects and errors as status codes."""

    def __init__(self, base: str, cookies: dict[str, str] | None = None) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )
        self.cookies = cookies or {}

    def request(self, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        """GET (or POST `form` with the CSRF token); return the status and the body."""
        data = None
        if form is not None:
            token = next(c.value for c in self.jar if c.name == "csrftoken")
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(self.base + path, data=data)
        request.add_header("Accept-Language", "en")
        request.add_header("Referer", self.base + path)
        if self.cookies:
            # A Cookie header of our own replaces the jar's: put the jar's cookies in it too.
            cookies = {**{c.name: str(c.value) for c in self.jar}, **self.cookies}
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()))
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")


def _no_traceback(server: Daphne) -> None:
    log = server.log()
    assert "Traceback" not in log, log[-4000:]
    assert "Exception inside application" not in log, log[-4000:]


async def _open(clients: list[SeatClient]) -> None:
    for client in clients:
        await client.connect()
        await client.next_state()


async def _acting(table: Table) -> tuple[SeatClient, dict[str, Any]]:
    latest = max(client.log.state_id for client in table.clients)
    await table.settle(latest)
    for client in table.clients:
        action = choose_action(client.log.view, table.rng)
        if action is not None:
            return client, action
    raise AssertionError("no seat has a move to make")


async def _frame_of(client: SeatClient, kind: str, seconds: float) -> dict[str, Any]:
    return await receive_until(
        client.next_frame, lambda frame: frame["type"] == kind, seconds, f"a {kind} frame"
    )


@pytest.mark.parametrize("link", LINKS)
def test_a_postgresql_restart_closes_no_socket_and_the_next_move_goes_through(link: str) -> None:
    cluster = PostgresCluster()
    app: LiveApp | None = None
    try:
        cluster.start()
        app, ids = deploy({"DATABASE_URL": cluster.create_database(), "DB_CONN_MAX_AGE": "60"})
        server = app.start()
        page = Browser(server.http, {"sessionid": ids["teacher_session"]})
        assert page.request("/")[0] == 200

        async def scenario() -> Table:
            table = Table([seat_client(link, server, ids["table"], s) for s in ids["sessions"]])
            await _open(table.clients)
            for _ in range(3):  # every daphne thread now keeps a connection (CONN_MAX_AGE)
                client, action = await _acting(table)
                await client.act(action)
                await client.next_state()
            await asyncio.to_thread(cluster.stop, "fast")
            client, action = await _acting(table)
            # On the stream, a POST reads its sign-in from the database before any view runs:
            # the middleware answers the frames URL with the same `unavailable` frame (a JSON
            # 503, unoclass/unavailable.py); the stream stays open.
            await client.act(action)
            error = await _frame_of(client, "error", 10)
            assert error["code"] == "unavailable"
            assert "try again in a moment" in error["message"]
            status, body = await asyncio.to_thread(page.request, "/")
            assert status == 503 and "Try again in a moment" in body
            await asyncio.to_thread(cluster.start)
            # The same move again: it goes through at once, and every seat gets it.
            started = time.monotonic()
            await client.act(action)
            state = await client.next_state(timeout=5)
            assert time.monotonic() - started < 3
            assert state["state_id"] == 4  # applied, not refused as stale
            await table.settle(state["state_id"])
            table.moves += 4
            for client in table.clients:
                await client.close()
            return table

        table = asyncio.run(scenario())
        assert page.request("/")[0] == 200
        final = audit(app, ids["table"])
        check_audit(final)
        assert final["moves"] == table.moves == 4
        for client in table.clients:
            assert client.log.reconnects == 0
            assert client.log.problems() == []
            assert all(error["code"] == "unavailable" for error in client.log.errors)
        _no_traceback(server)
        assert "database unavailable" in server.log()
    finally:
        if app is not None:
            app.close()
        cluster.close()


def test_sign_in_pages_answer_while_redis_is_stopped() -> None:
    redis = RedisServer()
    app: LiveApp | None = None
    try:
        redis.start()
        # Two retries of a Redis command (0.1 s, 0.2 s) instead of 8 (about 5.5 s: settings'
        # REDIS_RETRIES): the sign-out's message to the sockets fails the same way, sooner.
        app, ids = deploy({"REDIS_URL": redis.url, "REDIS_RETRIES": "2"})
        server = app.start()
        redis.stop()
        browser = Browser(server.http)
        assert browser.request("/join/")[0] == 200
        code = ids["join_code"]
        status, _body = browser.request("/join/", {"code": code})
        assert status == 302
        status, body = browser.request(f"/join/{code}/")
        assert status == 200
        student = re.search(rf"/join/{code}/(\d+)/", body)
        assert student is not None
        pin_page = f"/join/{code}/{student.group(1)}/"
        assert browser.request(pin_page)[0] == 200
        # A wrong PIN is counted (in this process's memory while Redis is away): no 500.
        status, body = browser.request(pin_page, {"pin": "0000"})
        assert status == 200 and "PIN" in body
        teacher = Browser(server.http)
        assert teacher.request("/login/")[0] == 200
        status, _body = teacher.request("/login/", {"username": "nobody", "password": "wrong"})
        assert status == 200
        # Signing out tells the user's sockets through Redis: the page must not fail for it.
        signed_in = Browser(server.http, {"sessionid": ids["teacher_session"]})
        assert signed_in.request("/")[0] == 200
        assert signed_in.request("/logout/", {})[0] == 302
        status, body = Browser(server.http).request("/healthz")
        assert status == 503 and '"channel_layer": "ok"' not in body
        _no_traceback(server)
        assert server.log().count("Redis unreachable") == 1
    finally:
        if app is not None:
            app.close()
        redis.close()
