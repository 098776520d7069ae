"""Every test has a time limit: a hang fails one test instead of stalling the suite."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.e2e.conftest import LIMITS, limit_for

ROOT = Path(__file__).resolve().parents[2]


def test_the_default_limit_is_set_for_every_test() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_options = options["tool"]["pytest"]["ini_options"]
    assert pytest_options["timeout"] == 120
    assert pytest_options["timeout_method"] == "signal"


def test_this_test_runs_under_the_default_limit(request: pytest.FixtureRequest) -> None:
    assert request.config.getini("timeout") == "120"
    assert request.node.get_closest_marker("timeout") is None


@pytest.mark.parametrize(
    ("path", "seconds"),
    [
        ("tests/e2e/scale/test_faults.py", LIMITS["scale"]),
        ("tests/e2e/browser/test_play.py", LIMITS["browser"]),
        ("tests/e2e/fuzz/test_table_fuzz.py", LIMITS["fuzz"]),
        ("tests/e2e/security/test_csrf.py", LIMITS["security"]),
        ("tests/e2e/conftest.py", None),
        ("tests/games/test_consumer.py", None),
    ],
)
def test_end_to_end_directories_get_their_own_limit(path: str, seconds: float | None) -> None:
    assert limit_for(ROOT / path) == seconds


def test_a_test_over_its_limit_fails_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "test_hang.py").write_text(
        "import time\n\n"
        "def test_hangs():\n    time.sleep(30)\n\n"
        "def test_after():\n    assert True\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:django"]
        + ["-o", "timeout=1", "-o", "timeout_method=signal", "--rootdir", str(tmp_path)]
        + [str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Timeout" in output and "1 failed, 1 passed" in output, output
