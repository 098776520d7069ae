"""The concurrency, service, session and report tests again, on a throwaway PostgreSQL cluster.

They run in a child pytest whose DATABASE_URL points at the cluster (pytest-django creates its
test database there); the same files run on SQLite in the ordinary suite. See docs/deploy.md.

This is the only run that notices a missing table row lock (select_for_update in
games.services): SQLite's IMMEDIATE transactions serialise the two racing actions anyway. With
the lock planted away, tests/games/test_concurrency.py failed 5 times in 5 here and passed on
SQLite. So `make test` runs this module every time (it is not deselected, and a missing
PostgreSQL fails it rather than skipping it), and it checks that the race test itself passed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.servers import PostgresCluster

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
# The tests that depend on how the database locks and commits; new session tests join by name.
PATTERNS = (
    "games/test_concurrency.py",
    "games/test_services.py",
    "games/test_move_queries.py",
    "games/test_store.py",
    "lessons/*/test_concurrency.py",
    "lessons/*/test_services.py",
    "lessons/sessions/test_controls.py",
    # The grouped and annotated queries of the reports, dashboards, practice and school pages:
    # on PostgreSQL their parameters are bound by the server (DB_PREPARED_STATEMENTS), which
    # refuses some queries that client-side binding accepts.
    "lessons/reporting/test_*.py",
    "lessons/practice/test_*.py",
    "lessons/school/test_*.py",
    "lessons/sessions/test_*.py",
)
# The race that only PostgreSQL's row locking decides (see the module's docstring).
ROW_LOCK_TEST = "tests/games/test_concurrency.py::test_two_simultaneous_actions_apply_exactly_once"


def postgres_test_files() -> list[str]:
    """List the test files that must also pass on PostgreSQL."""
    found = {str(p.relative_to(ROOT)) for pat in PATTERNS for p in (ROOT / "tests").glob(pat)}
    return sorted(found)


def test_concurrency_service_and_session_tests_pass_on_postgresql(
    postgres_cluster: PostgresCluster,
) -> None:
    files = postgres_test_files()
    assert "tests/games/test_concurrency.py" in files
    env = {
        **os.environ,
        "DATABASE_URL": postgres_cluster.url(),
        "UNOCLASS_EXPECT_DB_VENDOR": "postgresql",
    }
    env.pop("PYTEST_CURRENT_TEST", None)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-x",
            "-rA",
            # The cluster is thrown away: keep the test database rather than drop it. While
            # the report tests' pool workers still held connections, DROP DATABASE waited
            # PostgreSQL's 5 s for them, then failed with a warning.
            "--reuse-db",
            # Real WeasyPrint in two process pools (11 s): what it checks is the printing, not
            # the database; the same reports' queries run here in the report tests
            # (test_views, test_class_pdf_first prints the demo class for real).
            "--deselect",
            "tests/lessons/reporting/test_pdf.py"
            "::test_the_process_pool_prints_a_class_in_parts_like_in_one",
            "tests/e2e/scale/postgres_probe.py",
            *files,
        ],  # fmt: skip
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = done.stdout.strip().splitlines()
    summary = lines[-1] if lines else done.stderr
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) > len(files), summary
    assert "skipped" not in summary, summary
    assert f"PASSED {ROW_LOCK_TEST}" in done.stdout, done.stdout[-4000:]
    print(f"PostgreSQL run: {summary} ({len(files)} files: {', '.join(files)})")
