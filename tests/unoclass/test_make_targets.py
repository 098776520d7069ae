"""`make run` installs only what running needs; `make test` adds the dev and bench extras."""

from __future__ import annotations

import subprocess
from pathlib import Path

from django.conf import settings


def _recipe(target: str, *variables: str) -> str:
    """Return the commands `make <target>` would run from scratch (dry run, nothing runs)."""
    done = subprocess.run(
        ["make", "--dry-run", "--always-make", target, *variables],
        cwd=Path(settings.BASE_DIR),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def test_make_run_installs_the_app_alone() -> None:
    installs = [line for line in _recipe("run").splitlines() if "pip install" in line]
    assert any(line.rstrip().endswith("-e .") for line in installs), installs
    assert not any("[dev" in line or "bench]" in line for line in installs), installs


def test_make_test_adds_the_dev_and_bench_extras_and_the_debian_packages() -> None:
    recipe = _recipe("test")
    assert '-e ".[dev,bench]"' in recipe
    assert "chromium" in recipe and "lint-imports" in recipe and "mypy" in recipe


def test_make_run_prints_the_address_it_serves_on() -> None:
    recipe = _recipe("run").splitlines()
    said = [line for line in recipe if line.startswith("echo") and "http://" in line]
    assert said and "http://127.0.0.1:8000/" in said[0], recipe[-3:]
    serve = next(line for line in recipe if "daphne" in line)
    assert recipe.index(said[0]) < recipe.index(serve)
    assert "http://127.0.0.1:8080/" in _recipe("run", "PORT=8080")
