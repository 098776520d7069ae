"""The concurrency, service and session tests again, on a throwaway PostgreSQL cluster.

They run in a child pytest whose DATABASE_URL points at the cluster (pytest-django creates its
test database there); the same files run on SQLite in the ordinary suite. See docs/deploy.md.
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
    "lessons/*/test_concurrency.py",
    "lessons/*/test_services.py",
    "lessons/sessions/test_controls.py",
)


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
            "tests/e2e/scale/postgres_probe.py",
            *files,
        ],  # fmt: skip
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) > len(files), summary
    assert "skipped" not in summary, summary
    print(f"PostgreSQL run: {summary} ({len(files)} files: {', '.join(files)})")
