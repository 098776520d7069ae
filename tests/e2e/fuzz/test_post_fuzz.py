"""Hostile frames POSTed to the fallback link (docs/protocol.md, "Fallback: SSE and POST"):
the same frames as the socket fuzz, as POST bodies. The server never fails nor leaks a stack
trace, every answer is `{"frames": [...]}` of clean protocol frames, and a refused frame
changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from hypothesis import HealthCheck, given, seed
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games import driver
from games.realtime import posted
from tests.e2e.fuzz.checks import check_game, check_server_frame
from tests.e2e.fuzz.strategies import render, text_frames
from tests.e2e.fuzz.test_table_fuzz import FUZZ_SEED, _stored
from tests.games.helpers import FRACTIONS_SETUP, make_table
from tests.games.streams import cookie_for, post_frame

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

EXAMPLES = 40


def test_hostile_posted_frames_get_clear_answers_and_change_nothing(  # type: ignore[no-untyped-def]
    class_a, monkeypatch, settings: Any, fuzz_report: list[str]
) -> None:
    settings.GAMES_BOT_DELAY = 0.01
    # The bulk run measures parsing and rules, not the limiter (tests/games/test_stream.py).
    monkeypatch.setattr(posted, "MAX_BUCKETS", 0)  # every POST a fresh, full bucket
    users = [class_a.student.user, class_a.other_student.user]
    table = make_table(users, setup=FRACTIONS_SETUP)
    loop = asyncio.new_event_loop()
    totals = {"frames": 0, "errors": 0, "applied": 0, "codes": set()}

    async def batch(frames: list[tuple[str, Any]], who: int) -> None:
        cookie = await cookie_for(users[who])
        path = f"/tables/{table.pk}/frames/"
        synced = await post_frame(path, cookie, {"type": "sync"})
        state_id = synced.frames[-1]["state_id"]
        before = await database_sync_to_async(_stored)(table.pk)
        applied = False
        for frame in frames:
            text, data = render(frame, state_id)
            raw = data if text is None else text.encode("utf-8", "surrogatepass")
            answer = await post_frame(path, cookie, None, raw=raw)
            assert answer.status == 200, answer.body
            assert set(answer.body) == {"frames"}, answer.body
            totals["frames"] += 1
            for item in answer.frames:
                checked = check_server_frame(posted.jsontext.dumps(item))
                if checked["type"] == "error":
                    totals["errors"] += 1
                    totals["codes"].add(checked["code"])
                elif checked["type"] == "state":
                    applied |= checked["state_id"] != state_id
                    state_id = checked["state_id"]
        after = await database_sync_to_async(_stored)(table.pk)
        check_game(after[0])
        assert after[2] == after[3], "every stored action has its event row"
        if applied:
            totals["applied"] += 1
        else:
            assert after == before, "refused frames changed the table"

    @seed(FUZZ_SEED)
    @hypothesis_settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(frames=st.lists(text_frames, min_size=5, max_size=20), who=st.integers(0, 1))
    def run(frames: list[tuple[str, Any]], who: int) -> None:
        loop.run_until_complete(batch(frames, who))

    try:
        run()
    finally:
        driver.cancel_all()
        loop.close()
        line = (
            f"POST fuzz: {totals['frames']} frames, seed {FUZZ_SEED} "
            f"(replay: FUZZ_SEED={FUZZ_SEED}), {totals['errors']} errors, "
            f"{totals['applied']} batches moved the game; "
            f"codes: {', '.join(sorted(totals['codes']))}"
        )
        fuzz_report.append(line)
        print(line)
    assert totals["frames"] >= 200
    assert {"bad_json", "bad_frame", "too_large", "unknown_type", "bad_action"} <= totals["codes"]
    assert "rate_limited" not in totals["codes"]
