"""Wait with a deadline: every wait loop of the tests ends, and says what it waited for.

A loop that reads frames with a timeout per read can still run for ever when the frames keep
coming but the awaited one never does; these helpers bound the whole wait instead.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


class WaitTimeout(AssertionError):
    """A wait ran out of time: the awaited thing never happened (a test failure)."""


class Deadline:
    """A point in time after which a wait gives up, with what it was waiting for."""

    def __init__(self, seconds: float, what: str) -> None:
        self.seconds = seconds
        self.what = what
        self.end = time.monotonic() + seconds

    def remaining(self) -> float:
        """Return the seconds left (zero once expired)."""
        return max(0.0, self.end - time.monotonic())

    def expired(self) -> bool:
        """Tell whether the deadline has passed."""
        return time.monotonic() >= self.end

    def error(self, detail: str = "") -> WaitTimeout:
        """Return the failure to raise: what was awaited, for how long, and the last news."""
        message = f"gave up after {self.seconds:g} s waiting for {self.what}"
        return WaitTimeout(f"{message}; {detail}" if detail else message)

    def check(self, detail: str = "") -> None:
        """Raise the failure if the deadline has passed."""
        if self.expired():
            raise self.error(detail)


def wait_until(
    predicate: Callable[[], T], timeout: float, what: str, *, interval: float = 0.05
) -> T:
    """Call `predicate` until it returns a true value and return that value.

    Raise WaitTimeout naming `what` (and the last value seen) once `timeout` seconds passed.
    """
    deadline = Deadline(timeout, what)
    while True:
        value = predicate()
        if value:
            return value
        deadline.check(f"last value: {value!r}")
        time.sleep(min(interval, deadline.remaining()))


async def receive_until(
    receive: Callable[[float], Awaitable[T]],
    test: Callable[[T], bool],
    timeout: float,
    what: str,
) -> T:
    """Await `receive(seconds_left)` until an item passes `test`; return that item.

    `receive` gets the time left as its own timeout; a TimeoutError from it, or the deadline
    passing between items, raises WaitTimeout naming `what` and the last item received.
    """
    deadline = Deadline(timeout, what)
    last: T | None = None
    count = 0
    while True:
        if deadline.expired():
            raise deadline.error(f"{count} items received, the last: {last!r:.300}")
        try:
            item = await receive(deadline.remaining())
        except TimeoutError:
            raise deadline.error(f"{count} items received, the last: {last!r:.300}") from None
        if test(item):
            return item
        last, count = item, count + 1
