"""Run the server's own moves (bots, turn timers, the next round) when they fall due.

Each process schedules the steps that follow the actions it applied, and any socket that
connects schedules the table's pending step, so a restarted server picks the table up again.
A step carries the state number it was planned for: a step that arrives late, or twice, or in
two processes at once, is applied at most once (see games.services.table_step).
"""

from __future__ import annotations

import asyncio
import logging

from games.realtime.asyncdb import in_thread
from games.services import NextStep, table_step

logger = logging.getLogger(__name__)
# Timers fire a little after their deadline so the database clock has passed it too.
SLACK_SECONDS = 0.05
# table id -> (state id, when it falls due on the loop's clock, its timer)
_pending: dict[int, tuple[int, float, asyncio.TimerHandle]] = {}


def schedule(step: NextStep | None) -> None:
    """Plan a server step in this process's event loop, once per table and state.

    A step for the same state that falls due sooner replaces the planned one: when a seat
    changes hands the state stays the same, but a robot now acts at once where the turn
    timer would have waited for the student.
    """
    if step is None:
        return
    loop = asyncio.get_running_loop()
    due = loop.time() + step.delay + SLACK_SECONDS
    current = _pending.get(step.table_id)
    if current is not None:
        state_id, planned_due, handle = current
        if state_id == step.state_id and planned_due <= due:
            return
        handle.cancel()
    timer = loop.call_at(due, lambda: loop.create_task(_run(step)))
    _pending[step.table_id] = (step.state_id, due, timer)


async def _run(step: NextStep) -> None:
    if _pending.get(step.table_id, (None,))[0] == step.state_id:
        del _pending[step.table_id]
    try:
        outcome = await in_thread(table_step)(table_id=step.table_id, state_id=step.state_id)
    except Exception:  # a failing bot must not take the server's event loop down
        logger.exception("server step failed on table %s", step.table_id)
        return
    if outcome is not None:
        schedule(outcome.next_step)


def cancel_all() -> None:
    """Forget every planned step (tests)."""
    for _state_id, _due, handle in _pending.values():
        handle.cancel()
    _pending.clear()
