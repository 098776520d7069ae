"""The driver plans one server step per table: the soonest one for the current state."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from games import driver
from games.services import NextStep


@pytest.fixture(autouse=True)
def _clean_driver() -> Iterator[None]:
    driver.cancel_all()
    yield
    driver.cancel_all()


def _planned(table_id: int) -> tuple[int, float]:
    state_id, due, _timer = driver._pending[table_id]
    return state_id, due


async def test_a_sooner_step_for_the_same_state_replaces_the_planned_one() -> None:
    # The turn timer waits 30 s for a student; the teacher hands the seat to a robot.
    driver.schedule(NextStep(table_id=1, state_id=5, delay=30.0))
    timer_due = _planned(1)[1]
    driver.schedule(NextStep(table_id=1, state_id=5, delay=0.5))
    state_id, robot_due = _planned(1)
    assert state_id == 5 and robot_due < timer_due - 25


async def test_a_later_step_for_the_same_state_keeps_the_planned_one() -> None:
    driver.schedule(NextStep(table_id=2, state_id=5, delay=0.5))
    first = _planned(2)
    driver.schedule(NextStep(table_id=2, state_id=5, delay=30.0))
    assert _planned(2) == first


async def test_a_step_for_a_new_state_replaces_the_old_one_even_if_later() -> None:
    driver.schedule(NextStep(table_id=3, state_id=5, delay=0.5))
    driver.schedule(NextStep(table_id=3, state_id=6, delay=30.0))
    assert _planned(3)[0] == 6


async def test_a_host_step_is_planned_once_per_key_and_its_runner_runs_once() -> None:
    ran: list[int] = []
    done = asyncio.Event()

    def runner(key: int) -> list[driver.Step]:
        ran.append(key)
        done.set()
        return []

    driver.register_runner("test", runner)
    driver.schedule(driver.HostStep("test", 7, 30.0))
    driver.schedule(driver.HostStep("test", 7, 0.0))  # sooner: replaces the planned one
    driver.schedule(driver.HostStep("test", 7, 20.0))  # later: the planned one stays
    assert len(driver._host_pending) == 1
    await asyncio.wait_for(done.wait(), timeout=20)
    assert ran == [7] and driver._host_pending == {}  # no other timer left planned
