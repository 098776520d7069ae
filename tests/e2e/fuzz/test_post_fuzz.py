"""Hostile frames POSTed to the fallback link (docs/protocol.md, "Fallback: SSE and POST"):
the same frames as the socket fuzz, as POST bodies. The server never fails nor leaks a stack
trace, every answer is `{"frames": [...]}` of clean protocol frames, and a refused frame
changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import jsontext
from games.realtime import posted
from tests.conftest import ClassWorld
from tests.e2e.fuzz.batches import Batch, Totals, run_batches
from tests.e2e.fuzz.checks import check_server_frame
from tests.e2e.fuzz.strategies import render
from tests.e2e.fuzz.test_table_fuzz import _stored
from tests.games.helpers import FRACTIONS_SETUP, make_table
from tests.games.streams import cookie_for, post_frame

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

EXAMPLES = 40


def test_hostile_posted_frames_get_clear_answers_and_change_nothing(
    class_a: ClassWorld, monkeypatch: pytest.MonkeyPatch, settings: Any, fuzz_report: list[str]
) -> None:
    settings.GAMES_BOT_DELAY = 0.01
    # The bulk run measures parsing and rules, not the limiter (tests/games/test_stream.py).
    monkeypatch.setattr(posted, "MAX_BUCKETS", 0)  # every POST a fresh, full bucket
    users = [class_a.student.user, class_a.other_student.user]
    table = make_table(users, setup=FRACTIONS_SETUP)
    totals = Totals()

    async def batch(frames: list[tuple[str, Any]], who: int) -> None:
        cookie = await cookie_for(users[who])
        path = f"/tables/{table.pk}/frames/"
        synced = await post_frame(path, cookie, {"type": "sync"})
        before = await database_sync_to_async(_stored)(table.pk)
        count = Batch(totals, synced.frames[-1]["state_id"], before)
        for frame in frames:
            text, data = render(frame, count.state_id)
            raw = data if text is None else text.encode("utf-8", "surrogatepass")
            answer = await post_frame(path, cookie, None, raw=raw)
            assert answer.status == 200, answer.body
            assert set(answer.body) == {"frames"}, answer.body
            count.answered([check_server_frame(jsontext.dumps(item)) for item in answer.frames])
        count.check(await database_sync_to_async(_stored)(table.pk))

    run_batches(batch, totals, fuzz_report, name="POST fuzz", examples=EXAMPLES, sizes=(5, 20))
    assert totals.frames >= 200
    assert {"bad_json", "bad_frame", "too_large", "unknown_type", "bad_action"} <= totals.codes
    assert "rate_limited" not in totals.codes
