"""The network check's places per address (issue 32, finding 5): one visitor no longer takes
every place of a process; another address, or another /64, still checks. Raw streams through
the app, each from the address its scope (or nginx's `X-Forwarded-For`) gives."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import ApplicationCommunicator
from pytest_django.fixtures import Settings

from unoclass.asgi import application
from unoclass.network_check.capacity import MAX_OPEN, MAX_OPEN_PER_ADDRESS, OPEN_LINKS, OpenLinks

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(autouse=True)
def _long_check(settings: Settings) -> Iterator[None]:
    settings.NETWORK_CHECK_SECONDS = 30  # the links stay open while the test counts them
    settings.NETWORK_CHECK_HEARTBEAT = 30
    yield
    assert OPEN_LINKS.count == 0, "a check link was left counted as open"


def _scope(client: str | None, forwarded: str | None = None) -> dict[str, Any]:
    headers = [(b"host", b"testserver")]
    if forwarded is not None:
        headers.append((b"x-forwarded-for", forwarded.encode()))
    return {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": "/network-check/stream/",
        "raw_path": b"/network-check/stream/",
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "headers": headers,
        # daphne behind nginx on a unix socket gives no peer address
        "client": (client, 5000) if client is not None else None,
        "server": ("testserver", 80),
    }


async def _first_event(comm: ApplicationCommunicator) -> tuple[str, dict[str, Any]]:
    """Send the GET; return the stream's first event (its name and data)."""
    await comm.send_input({"type": "http.request", "body": b""})
    assert (await comm.receive_output(timeout=5))["status"] == 200
    body = ""
    while True:
        chunk = await comm.receive_output(timeout=5)
        body += chunk["body"].decode()
        for block in body.split("\n\n"):
            lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if "data" in lines:
                return lines.get("event", "message"), json.loads(lines["data"])


async def _open(client: str | None, forwarded: str | None = None) -> tuple[Any, str, Any]:
    comm = ApplicationCommunicator(application, _scope(client, forwarded))
    name, data = await _first_event(comm)
    return comm, name, data


async def _close(comms: list[ApplicationCommunicator]) -> None:
    for comm in comms:
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(timeout=5)


def test_one_address_holds_a_share_of_the_process_only() -> None:
    assert 0 < MAX_OPEN_PER_ADDRESS < MAX_OPEN // 2


async def test_one_address_past_its_places_is_asked_to_try_again() -> None:
    held = []
    try:
        for _ in range(MAX_OPEN_PER_ADDRESS):
            comm, name, data = await _open("203.0.113.7")
            held.append(comm)
            assert (name, data["type"]) == ("message", "hello")
        comm, name, data = await _open("203.0.113.7")
        held.append(comm)
        assert (name, data) == ("close", {"code": 1013})  # the "too many" answer
        # Another address still checks.
        comm, name, data = await _open("198.51.100.2")
        held.append(comm)
        assert (name, data["type"]) == ("message", "hello")
        # So does another /64; the same /64 from another address is the same visitor.
        comm, name, data = await _open("2001:db8:0:1::1")
        held.append(comm)
        assert data["type"] == "hello"
        for n in range(2, MAX_OPEN_PER_ADDRESS + 1):
            comm, name, data = await _open(f"2001:db8:0:1::{n:x}")
            held.append(comm)
            assert data["type"] == "hello"
        comm, name, data = await _open("2001:db8:0:1::ffff")
        held.append(comm)
        assert (name, data) == ("close", {"code": 1013})
        comm, name, data = await _open("2001:db8:0:2::1")
        held.append(comm)
        assert data["type"] == "hello"
    finally:
        await _close(held)


async def test_behind_nginx_each_forwarded_client_counts_apart() -> None:
    held = []
    try:
        for _ in range(MAX_OPEN_PER_ADDRESS):
            comm, _name, data = await _open(None, "203.0.113.7")
            held.append(comm)
            assert data["type"] == "hello"
        comm, name, data = await _open(None, "203.0.113.7")
        held.append(comm)
        assert (name, data) == ("close", {"code": 1013})
        comm, name, data = await _open(None, "198.51.100.2")
        held.append(comm)
        assert data["type"] == "hello"
        # A client's own X-Forwarded-For to daphne directly is not believed: its peer counts.
        comm, name, data = await _open("203.0.113.7", "192.0.2.50")
        held.append(comm)
        assert (name, data) == ("close", {"code": 1013})
    finally:
        await _close(held)


def test_an_address_keeps_its_count_until_its_last_link_goes() -> None:
    links = OpenLinks(limit=10, per_address=2)
    assert [links.take("192.0.2.1") for _ in range(3)] == [True, True, False]
    links.release("192.0.2.1")
    assert links.by_address == {"192.0.2.1": 1}
    assert [links.take("192.0.2.1") for _ in range(2)] == [True, False]
    assert links.take("192.0.2.2")  # another address still has its share
    for address in ("192.0.2.1", "192.0.2.1", "192.0.2.2"):
        links.release(address)
    assert (links.count, links.by_address) == (0, {})
