"""Time limits of the end-to-end tests, which start real processes and browsers.

pyproject.toml gives every test 120 s (pytest-timeout). Here each end-to-end directory gets
its own limit, at least five times its slowest test on a loaded two-core machine (measured with
--durations; set-up counts, and the first test of a module pays for starting daphne, Redis,
PostgreSQL or chromium). A test's own `pytest.mark.timeout` still wins.
"""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

# Directory -> seconds. Slowest measured (load 7 on 2 cores): scale 60 s (a Redis restart),
# browser 15 s, fuzz 17 s with set-up, security 6 s; network 42 s (a class game of four
# browsers through squid, set-up included, with other helpers' runs on the machine).
LIMITS = {"scale": 300, "browser": 180, "fuzz": 180, "security": 120, "network": 240}


# The PostgreSQL re-run is a whole child pytest (its own subprocess timeout is 600 s): under
# `make test`'s two workers it shares the cores and went past 300 s once at load 6.
FILE_LIMITS = {"test_postgres_runs.py": 660}


def limit_for(path: Path) -> int | None:
    """Return the time limit for a test file under tests/e2e (None: the default applies)."""
    if path.name in FILE_LIMITS:
        return FILE_LIMITS[path.name]
    try:
        directory = path.resolve().relative_to(HERE).parts[0]
    except (ValueError, IndexError):
        return None
    return LIMITS.get(directory)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        seconds = limit_for(Path(item.path))
        if seconds is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(seconds))
