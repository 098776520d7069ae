"""One fuzz run: batches of hostile frames, each sent by one of two players, counted as they go.

A test says how one batch is sent (`send(frames, who)`, a coroutine); `run_batches` draws the
batches with Hypothesis (FUZZ_SEED, printed for replay), runs them on one event loop and reports
the totals. `Batch` counts a batch's answers and checks what it left in the database.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, seed
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games import driver
from tests.e2e.fuzz.checks import check_game
from tests.e2e.fuzz.strategies import text_frames

# A fresh seed on every developer run finds new cases; CI replays a fixed one, so a red build
# always means a change, never luck. Either way the seed is printed for replay.
FUZZ_SEED = int(
    os.environ.get("FUZZ_SEED")
    or (20261122 if os.environ.get("CI") else random.SystemRandom().randrange(2**32))
)
Stored = tuple[dict[str, Any], int, int, int]  # the table's state, state_id, moves, events


@dataclass
class Totals:
    """What a whole run sent and got back."""

    frames: int = 0
    errors: int = 0
    dropped: int = 0
    applied: int = 0
    codes: set[str] = field(default_factory=set)


@dataclass
class Batch:
    """One batch's count: the state it stands on, and whether a frame moved the game."""

    totals: Totals
    state_id: int
    before: Stored
    applied: bool = False

    def answered(self, frames: list[dict[str, Any]]) -> None:
        """Count the (checked) frames the server answered one hostile frame with."""
        self.totals.frames += 1
        self.totals.dropped += not frames
        for frame in frames:
            if frame["type"] == "error":
                self.totals.errors += 1
                self.totals.codes.add(frame["code"])
            elif frame["type"] == "state":
                self.applied |= frame["state_id"] != self.state_id
                self.state_id = frame["state_id"]

    def check(self, after: Stored) -> None:
        """Check the stored table after the batch: whole, logged, unchanged if nothing moved."""
        check_game(after[0])
        assert after[2] == after[3], "every stored action has its event row"
        if self.applied:
            self.totals.applied += 1
        else:
            assert after == self.before, "refused frames changed the table"


def run_batches(
    send: Callable[[list[tuple[str, Any]], int], Coroutine[Any, Any, None]],
    totals: Totals,
    report: list[str],
    *,
    name: str,
    examples: int,
    sizes: tuple[int, int],
) -> None:
    """Send `examples` batches of `sizes` frames each, on an event loop of their own (seed
    FUZZ_SEED); add the totals' line to `report`."""
    loop = asyncio.new_event_loop()

    @seed(FUZZ_SEED)
    @hypothesis_settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        frames=st.lists(text_frames, min_size=sizes[0], max_size=sizes[1]), who=st.integers(0, 1)
    )
    def run(frames: list[tuple[str, Any]], who: int) -> None:
        loop.run_until_complete(send(frames, who))

    try:
        run()
    finally:
        driver.cancel_all()
        loop.close()
        line = (
            f"{name}: {totals.frames} frames, seed {FUZZ_SEED} "
            f"(replay: FUZZ_SEED={FUZZ_SEED}), {totals.errors} errors, "
            f"{totals.dropped} dropped, {totals.applied} batches moved the game; "
            f"codes: {', '.join(sorted(totals.codes))}"
        )
        report.append(line)
        print(line)
