"""Run the same work in several threads released at one moment (race tests).

Each thread has its own database connection (closed at its end), so on SQLite and PostgreSQL
the calls are real concurrent transactions. Every wait has a deadline: a stuck thread fails
the test instead of hanging it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from django.db import close_old_connections

T = TypeVar("T")
RACE_SECONDS = 60


def race(work: Callable[[int], T], count: int = 4) -> list[T | BaseException]:
    """Call work(0) … work(count - 1) at once, each in its thread; return results or errors."""
    barrier = threading.Barrier(count, timeout=RACE_SECONDS)
    outcomes: dict[int, T | BaseException] = {}

    def run(index: int) -> None:
        try:
            barrier.wait()
            outcomes[index] = work(index)
        except BaseException as exc:  # returned to the test, which says what it expected
            outcomes[index] = exc
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=RACE_SECONDS)
        assert not thread.is_alive(), "a racing thread did not finish in time"
    return [outcomes[i] for i in range(count)]
