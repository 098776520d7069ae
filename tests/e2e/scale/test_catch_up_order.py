"""The layer watch's catch-up never sends a state older than the socket already sent (issue 14).

Under load a layer probe can time out (docs/performance.md): the watch then takes the layer
for down, and once it answers brings every socket up to the stored state
(games.realtime.delivery.Watch._catch_up_later -> TableConsumer.catch_up). That catch-up runs
beside the socket's own messages: while it reads the table, the socket may send a newer update
that came through the layer. Before the fix it then sent the older state it had read, and the
seat went back a move (and acted on an old state: `stale_state`).

The race is made deterministic: the read itself advances the socket, as the socket's own
update would between the read's start and its end.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from games import consumers
from games.consumers import TableConsumer


def _socket(last_state_id: int) -> tuple[TableConsumer, list[int]]:
    sock = TableConsumer.__new__(TableConsumer)
    sock.table_id = 7
    sock.seat = 0
    sock.last_state_id = last_state_id
    sock.missed = set()
    sent: list[int] = []

    async def send_state(game: Any, state_id: int, info: dict[str, Any]) -> None:
        sent.append(state_id)
        sock.last_state_id = max(sock.last_state_id, state_id)

    sock._send_state = send_state  # type: ignore[method-assign]
    return sock, sent


@pytest.fixture
def stored(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Replace the table's reads: `state_id` is stored; `during_read` runs inside the read."""
    table: dict[str, Any] = {"state_id": 0, "during_read": None}

    def load(table_id: int) -> tuple[Any, dict[str, Any]]:
        row = SimpleNamespace(state_id=table["state_id"], state={})
        if table["during_read"] is not None:
            table["during_read"]()
        return row, {}

    monkeypatch.setattr(consumers, "_stored_state_id", lambda table_id: table["state_id"])
    monkeypatch.setattr(consumers, "_load", load)
    monkeypatch.setattr(consumers, "next_step_for", lambda table, game: None)
    monkeypatch.setattr(consumers.driver, "schedule", lambda step: None)
    monkeypatch.setattr(consumers.Game, "from_dict", staticmethod(lambda data: object()))
    return table


async def test_catch_up_sends_the_stored_state_to_a_socket_behind_it(
    stored: dict[str, Any],
) -> None:
    sock, sent = _socket(last_state_id=4)
    stored["state_id"] = 6
    await sock.catch_up()
    assert sent == [6]


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
        # The socket's own message loop sends state 8 (two more moves) meanwhile.
        sock.last_state_id = 8

    stored["during_read"] = newer_update_arrives
    await sock.catch_up()
    assert sent == []
    assert sock.last_state_id == 8
