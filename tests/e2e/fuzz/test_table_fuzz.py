"""Thousands of hostile frames on a live table (in-process ASGI app): the server never crashes
or leaks a stack trace, each frame gets a clear error (or its normal answer), and a refused
frame changes nothing."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import table_seat
from games.models import Table, TableEvent
from tests.conftest import ClassWorld
from tests.e2e.fuzz.batches import Batch, Stored, Totals, run_batches
from tests.e2e.fuzz.checks import RESYNC_CODES, check_server_frame
from tests.e2e.fuzz.strategies import render
from tests.games.helpers import FRACTIONS_SETUP, make_table, socket
from tests.support.waiting import Deadline

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))


async def _answers(comm: Any, timeout: float = 2) -> list[dict[str, Any]]:
    """Read what the server says to one frame: up to its error or state (and a resync)."""
    frames: list[dict[str, Any]] = []
    deadline = Deadline(30, "an error or a state frame answering one frame")
    while True:
        deadline.check(f"{len(frames)} frames so far, the last: {frames[-1:]}")
        try:
            output = await comm.receive_output(timeout=timeout)
        except TimeoutError:
            return frames  # dropped: allowed, but counted
        assert output["type"] == "websocket.send", f"socket closed or failed: {output}"
        frame = check_server_frame(output["text"])
        frames.append(frame)
        if frame["type"] == "state":
            return frames
        if frame["type"] == "error" and frame["code"] not in RESYNC_CODES:
            return frames


def _stored(table_id: int) -> Stored:
    table = Table.objects.get(pk=table_id)
    events = TableEvent.objects.filter(table=table).count()
    return table.state, table.state_id, table.moves, events


def test_hostile_frames_get_clear_errors_and_change_nothing(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch, settings: Any, fuzz_report: list[str]
) -> None:
    settings.GAMES_BOT_DELAY = 0.01
    # The bulk run measures parsing and rules, not the limiter (tested under a flood apart).
    monkeypatch.setattr(table_seat, "RATE_BURST", 10**9)
    users = [class_a.student.user, class_a.other_student.user]
    table = make_table(users, setup=FRACTIONS_SETUP)
    totals = Totals()

    async def batch(frames: list[tuple[str, Any]], who: int) -> None:
        comm = await socket(table.pk, users[who])
        connected, _ = await comm.connect()
        assert connected
        # On connect: the recent log (replay events), then the state.
        first = [a for a in await _answers(comm) if a["type"] == "state"][-1]
        before = await database_sync_to_async(_stored)(table.pk)
        count = Batch(totals, first["state_id"], before)
        for frame in frames:
            text, data = render(frame, count.state_id)
            await comm.send_input({"type": "websocket.receive", "text": text, "bytes": data})
            count.answered(await _answers(comm))
        count.check(await database_sync_to_async(_stored)(table.pk))
        await comm.disconnect()

    run_batches(
        batch, totals, fuzz_report, name="in-process fuzz", examples=EXAMPLES, sizes=(10, 60)
    )
    assert totals.frames >= 1000
    assert {"bad_json", "bad_frame", "too_large", "unknown_type", "bad_action"} <= totals.codes
    assert json.dumps(sorted(totals.codes))  # codes are plain strings
