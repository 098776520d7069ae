"""The layer watch's catch-up never sends a state older than the socket already sent (issue 14).

Under load a layer probe can time out (docs/performance.md): the watch then takes the layer
for down, and once it answers brings every socket up to the stored state
(games.realtime.layer_watch.Watch._catch_up_later -> TableConsumer.catch_up), events from the
log first. That catch-up runs beside the socket's own messages: while it read the table, the
socket could send a newer update that came through the layer, and then it sent the older state
it had read, and the seat went back a move (and acted on an old state: `stale_state`). The
catch-up now waits for the socket's own message to end (its lock), and still never sends a
state older than one it sent.

The race is made deterministic: the read itself advances the socket, as the socket's own
update would between the read's start and its end.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from games import driver, table_seat
from games.catch_up import CatchUp
from games.consumers import TableConsumer


def _socket(last_state_id: int) -> tuple[TableConsumer, list[dict[str, Any]]]:
    sock = TableConsumer.__new__(TableConsumer)
    sock.table_id = 7
    sock.seat = 0
    sock.last_state_id = last_state_id
    sock.turn = asyncio.Lock()
    sock.lang = "en"
    sent: list[dict[str, Any]] = []

    async def send_frame(frame: dict[str, Any]) -> None:
        sent.append(frame)

    sock.send_frame = send_frame  # type: ignore[method-assign]
    return sock, sent


@pytest.fixture
def stored(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Replace the table's reads: `state_id` is stored (one event a state since the asked
    one); `during_read` runs inside the read."""
    table: dict[str, Any] = {"state_id": 0, "during_read": None}

    def from_log(*, table_id: int, seat: int | None, since: int, lang: str) -> CatchUp:
        if table["during_read"] is not None:
            table["during_read"]()
        last = table["state_id"]
        frames = [{"type": "event", "state_id": n} for n in range(since + 1, last + 1)]
        frames.append({"type": "state", "state_id": last})
        return CatchUp(frames, last, SimpleNamespace(), SimpleNamespace())  # type: ignore[arg-type]

    monkeypatch.setattr(table_seat, "_stored_state_id", lambda table_id: table["state_id"])
    monkeypatch.setattr(table_seat, "frames_since", from_log)
    monkeypatch.setattr(table_seat, "next_step_for", lambda table, game: None)
    monkeypatch.setattr(driver, "schedule", lambda step: None)
    return table


async def test_catch_up_sends_the_missed_events_then_the_stored_state(
    stored: dict[str, Any],
) -> None:
    sock, sent = _socket(last_state_id=4)
    stored["state_id"] = 6
    await sock.catch_up()
    assert [(f["type"], f["state_id"]) for f in sent] == [("event", 5), ("event", 6), ("state", 6)]
    assert sock.last_state_id == 6


async def test_catch_up_sends_nothing_to_a_socket_up_to_date(stored: dict[str, Any]) -> None:
    sock, sent = _socket(last_state_id=6)
    stored["state_id"] = 6
    await sock.catch_up()
    assert sent == []


async def test_catch_up_never_sends_a_state_older_than_one_sent_during_its_read(
    stored: dict[str, Any],
) -> None:
    sock, sent = _socket(last_state_id=4)
    stored["state_id"] = 6

    def newer_update_arrives() -> None:
        # Were the socket's own message loop to send state 8 meanwhile (the socket's lock
        # keeps it from doing so while the catch-up runs), the state read stays unsent.
        sock.last_state_id = 8

    stored["during_read"] = newer_update_arrives
    await sock.catch_up()
    assert [f["type"] for f in sent] == ["event", "event"]
    assert sock.last_state_id == 8


async def test_catch_up_waits_for_the_socket_s_own_message(stored: dict[str, Any]) -> None:
    sock, sent = _socket(last_state_id=4)
    stored["state_id"] = 6
    async with sock.turn:  # the socket is handling a message of its own
        waiting = asyncio.ensure_future(sock.catch_up())
        await asyncio.sleep(0.01)
        assert not waiting.done() and sent == []
        sock.last_state_id = 6  # that message sent the state
    await waiting
    assert sent == []
