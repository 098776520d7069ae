"""Run the server's own moves (bots, turn timers, the next round) when they fall due.

Each process schedules the steps that follow the actions it applied, and any socket that
connects schedules the table's pending step, so a restarted server picks the table up again.
A step carries the state number it was planned for: a step that arrives late, or twice, or in
two processes at once, is applied at most once (see games.services.table_step).

The app that hosts the tables plans its own deadlines the same way, as a HostStep run by the
runner it registered for the step's kind (lessons: a class session's next deal, and a new game
where one ended). A runner reads the database again under its own lock and returns the steps
that follow, so a step that arrives early, late or twice changes nothing it should not.
Services plan steps from their thread with `plan_on_commit`.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from asgiref.sync import SyncToAsync
from django.db import transaction

from games.realtime.asyncdb import in_thread
from games.services import NextStep, table_step

logger = logging.getLogger(__name__)
# Timers fire a little after their deadline so the database clock has passed it too.
SLACK_SECONDS = 0.05
# table id -> (state id, when it falls due on the loop's clock, its timer)
_pending: dict[int, tuple[int, float, asyncio.TimerHandle]] = {}


@dataclass(frozen=True)
class HostStep:
    """A deadline of the host app's own, run by the runner registered for its kind."""

    kind: str
    # What falls due (lessons: a class session's id): one step planned per kind and key.
    key: int
    delay: float


Step = NextStep | HostStep
Runner = Callable[[int], Sequence[Step]]
_runners: dict[str, Runner] = {}
# (kind, key) -> (its loop, when it falls due on the loop's clock, its timer)
_host_pending: dict[
    tuple[str, int], tuple[asyncio.AbstractEventLoop, float, asyncio.TimerHandle]
] = {}


def register_runner(kind: str, runner: Runner) -> None:
    """Run `runner(key)` (in a thread) for every HostStep of `kind` (the host, at start-up)."""
    _runners[kind] = runner


def plan_on_commit(step: Step | None) -> None:
    """Plan a step once the current transaction commits (from a service, in any thread)."""
    if step is not None:
        transaction.on_commit(lambda: plan_soon(step))


def plan_soon(step: Step | None) -> None:
    """Plan a step from sync code: in the server's event loop if one runs this thread's work.

    A sync view or service under daphne runs in a worker thread of that loop (asgiref keeps
    it); elsewhere (a command, a sync test) there is no loop and nothing is planned: the next
    link that connects plans what is pending.
    """
    if step is None:
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        schedule(step)
        return
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    pid = getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None)
    if loop is not None and pid == os.getpid() and loop.is_running():
        loop.call_soon_threadsafe(schedule, step)


def schedule(step: Step | None) -> None:
    """Plan a server step in this process's event loop, once per table and state.

    A step for the same state that falls due sooner replaces the planned one: when a seat
    changes hands the state stays the same, but a robot now acts at once where the turn
    timer would have waited for the student.
    """
    if step is None:
        return
    if isinstance(step, HostStep):
        _schedule_host(step)
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


def _schedule_host(step: HostStep) -> None:
    """Plan a host step, once per kind and key: the soonest planned one wins."""
    loop = asyncio.get_running_loop()
    due = loop.time() + step.delay + SLACK_SECONDS
    planned = _host_pending.get((step.kind, step.key))
    if planned is not None:
        # One planned on another loop (gone with its server or test) never runs here.
        if planned[0] is loop and planned[1] <= due:
            return
        planned[2].cancel()
    timer = loop.call_at(due, lambda: loop.create_task(_run_host(step)))
    _host_pending[(step.kind, step.key)] = (loop, due, timer)


async def _run_host(step: HostStep) -> None:
    _host_pending.pop((step.kind, step.key), None)
    runner = _runners.get(step.kind)
    if runner is None:
        logger.error("no runner for the host step %s", step.kind)
        return
    try:
        following = await in_thread(runner)(step.key)
    except Exception:  # a failing step must not take the server's event loop down
        logger.exception("host step %s failed on %s", step.kind, step.key)
        return
    for planned in following:
        schedule(planned)


def cancel_all() -> None:
    """Forget every planned step (tests)."""
    for _state_id, _due, handle in _pending.values():
        handle.cancel()
    _pending.clear()
    for _loop, _due, handle in _host_pending.values():
        handle.cancel()
    _host_pending.clear()
