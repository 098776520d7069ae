"""A real daphne on a free port with its own SQLite file, and Debian's chromium to drive it."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, expect, sync_playwright

from tests.support.live import Daphne
from tests.support.processes import BASE_DIR, child_env, manage

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 860}
# The whole suite may share two cores with these tests: give the page time to answer.
expect.set_options(timeout=15_000)
PHONE = {"width": 390, "height": 844}


@dataclass(frozen=True)
class Server:
    """The daphne under test: its address, environment and database file."""

    url: str
    env: dict[str, str]
    db_path: Path

    def world(self, **spec: Any) -> dict[str, Any]:
        """Create a class, students and a table (tests/support/world.py) and return them."""
        done = subprocess.run(
            [sys.executable, "-m", "tests.support.world"],
            input=json.dumps(spec),
            cwd=BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return dict(json.loads(done.stdout.strip().splitlines()[-1]))

    def table_state(self, table_id: int) -> tuple[dict[str, Any], int]:
        """Read a table's stored game state and state number (read-only)."""
        with sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=10) as db:
            row = db.execute(
                "SELECT state, state_id FROM games_table WHERE id = ?", (table_id,)
            ).fetchone()
        return json.loads(row[0]), int(row[1])

    def wait_state_after(self, table_id: int, state_id: int, timeout: float = 20) -> int:
        """Wait until the table's state number passes `state_id`; return the new one."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            current = self.table_state(table_id)[1]
            if current > state_id:
                return current
            time.sleep(0.05)
        raise AssertionError(f"table {table_id} stayed at state {state_id}")


@contextmanager
def serve(db_path: Path, **env_values: str) -> Iterator[Server]:
    """Migrate a fresh SQLite file and serve the app with daphne until the block ends."""
    env = child_env(
        DJANGO_SETTINGS_MODULE="tests.e2e.browser.settings_browser",
        DEBUG="1",
        SECRET_KEY="browser-tests-only-secret-key-0123456789abcdefghijklmnop",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=f"sqlite:///{db_path}",
        PYTHONPATH=str(BASE_DIR),
        **env_values,
    )
    migrated = manage("migrate", "--noinput", env=env)
    assert migrated.returncode == 0, migrated.stderr
    daphne = Daphne(env)
    try:
        yield Server(url=daphne.http, env=env, db_path=db_path)
    finally:
        daphne.kill()


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Serve the app with quick bots for the whole browser package."""
    db_path = tmp_path_factory.mktemp("browser") / "play.sqlite3"
    with serve(db_path, GAMES_BOT_DELAY="0.05", GAMES_ROUND_PAUSE="0.2") as live:
        yield live


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    """Start Playwright once for this package (sync API).

    Package scope: its event loop must be gone before the asyncio tests of other packages run.
    """
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Launch Debian's chromium, headless (never a downloaded browser)."""
    launched = playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
    )
    yield launched
    launched.close()


def signed_in(
    browser: Browser,
    server: Server,
    session: str,
    *,
    lang: str = "fr",
    viewport: dict[str, int] | None = None,
    **options: Any,
) -> BrowserContext:
    """Open a browser context that carries a signed-in session and a language cookie."""
    context = browser.new_context(viewport=viewport or DESKTOP, locale=lang, **options)
    context.add_cookies(
        [
            {"name": "sessionid", "value": session, "url": server.url},
            {"name": "django_language", "value": lang, "url": server.url},
        ]
    )
    return context
