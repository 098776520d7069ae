"""Real servers for end-to-end tests: daphne processes on loopback against a temporary database.

The one way the tests start the app for real:

- `LiveApp` holds a temporary directory (the SQLite file unless DATABASE_URL says otherwise, the
  servers' logs) and the environment every process of the deployment shares: the settings come
  from the environment, as in production. `manage`, `script` and `world` run in that
  environment; `start` adds a daphne process.
- `serve()` is a LiveApp with one daphne, as a context manager yielding a `Server` (the browser
  tests' view: its address, the world builder, the stored table state).
- `child_env` and `manage` run a child process with a chosen environment (settings checks).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tests.support.forker import Forker
from tests.support.servers import free_port, wait_for_port
from tests.support.waiting import WaitTimeout, wait_until

BASE_DIR = Path(__file__).resolve().parents[2]
DAPHNE = str(Path(sys.executable).with_name("daphne"))
SECRET_KEY = "live-test-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
# Set by the test settings, pytest-django or a test in this process; a child chooses its own
# (DJANGO_ALLOW_ASYNC_UNSAFE, set while Playwright runs, must never reach a server).
_INHERITED_KEYS = {
    "DJANGO_SETTINGS_MODULE",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "SECURE_SSL_REDIRECT",
    "DEBUG",
    "DATABASE_URL",
    "REDIS_URL",
    "CHANNEL_LAYER",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}


def child_env(**values: str) -> dict[str, str]:
    """Return this process's environment without the Django variables, plus `values`."""
    env = {k: v for k, v in os.environ.items() if k not in _INHERITED_KEYS}
    env.update(values)
    return env


def manage(
    *args: str, env: dict[str, str], timeout: float = 120, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `python manage.py <args>` in the project directory."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        input=input,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _last_json(output: str) -> Any:
    return json.loads(output.strip().splitlines()[-1])


class LiveApp:
    """One temporary database and the environment every process of a test deployment shares.

    `env` is laid over the test defaults (development settings, a fixed secret, loopback hosts,
    quick bots); with `test_defaults=False` the processes get only `env` and the database, as
    `make run` would. `directory` keeps the files somewhere chosen (then it is not removed).
    """

    def __init__(
        self,
        env: dict[str, str] | None = None,
        *,
        settings_module: str = "unoclass.settings",
        test_defaults: bool = True,
        directory: Path | None = None,
    ) -> None:
        self._own_dir = directory is None
        self.dir = Path(directory or tempfile.mkdtemp(prefix="unoclass-live-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        defaults = {
            "DJANGO_SETTINGS_MODULE": settings_module,
            "DEBUG": "1",
            "SECRET_KEY": SECRET_KEY,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "GAMES_BOT_DELAY": "0.05",
        }
        self.env = child_env(
            **{
                **(defaults if test_defaults else {}),
                "DATABASE_URL": f"sqlite:///{self.db_path}",
                "PYTHONUNBUFFERED": "1",
                "PYTHONPATH": str(BASE_DIR),
                **(env or {}),
            }
        )
        self.servers: list[Daphne] = []
        self._forker: Forker | None = None
        self._fork = True  # False once the fork server could not start in this environment

    @property
    def db_path(self) -> Path:
        """Return the SQLite file (used unless `env` gave another DATABASE_URL)."""
        return self.dir / "db.sqlite3"

    def _forked(
        self, argv: list[str], input: str | None, timeout: float
    ) -> subprocess.CompletedProcess[str] | None:
        """Run `argv` in a fresh fork of the deployment's warm process (tests/support/forker.py):
        the same as a new process, without its 0.5 s of start-up. None: no fork server here."""
        if not self._fork:
            return None
        if self._forker is not None and (not self._forker.alive() or self._forker.env != self.env):
            self._forker.close()
            self._forker = None
        if self._forker is None:
            forker = Forker(self.env, self.dir / "forker.log")
            if not forker.ready:
                forker.close()
                self._fork = False
                return None
            self._forker = forker
        return self._forker.run(argv, input=input, timeout=timeout)

    def manage(self, *args: str, input: str | None = None) -> str:
        """Run a management command against the deployment's database; return its output.

        `shell` (the scripts) runs in a fork of a warm process; any other command in a new one.
        """
        done = (self._forked(list(args), input, 120) if args[:1] == ("shell",) else None) or manage(
            *args, env=self.env, input=input
        )
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args[:1])} failed:\n{done.stderr[-4000:]}")
        return done.stdout

    def migrate(self) -> None:
        """Create the database."""
        self.manage("migrate", "--noinput")

    def script(self, code: str) -> Any:
        """Run Python with Django set up in the deployment; return the JSON it prints last."""
        return _last_json(self.manage("shell", "-c", code))

    def world(self, **spec: Any) -> dict[str, Any]:
        """Build a world in the deployment's database (tests/support/world.py); return it."""
        done = self._forked(["world"], json.dumps(spec), 120) or subprocess.run(
            [sys.executable, "-m", "tests.support.world"],
            input=json.dumps(spec),
            cwd=BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode != 0:
            raise RuntimeError(f"the world builder failed:\n{done.stderr[-4000:]}")
        return dict(_last_json(done.stdout))

    def start(self, application: str = "unoclass.asgi:application") -> Daphne:
        """Start one more daphne process serving `application`; return once it accepts."""
        log = self.dir / f"daphne-{len(self.servers)}.log"
        server = Daphne(self.env, log, application=application)
        self.servers.append(server)
        return server

    def close(self) -> None:
        """Stop every process and remove the files (unless the directory was given)."""
        for server in self.servers:
            server.kill()
        if self._forker is not None:
            self._forker.close()
            self._forker = None
        if self._own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)


class Daphne:
    """A daphne process serving the app on a loopback port; its stderr goes to `log_path`."""

    def __init__(
        self,
        env: dict[str, str],
        log_path: Path,
        port: int | None = None,
        *,
        application: str = "unoclass.asgi:application",
    ) -> None:
        self.env = env
        self.application = application
        self.log_path = log_path
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self.start()

    @property
    def http(self) -> str:
        """Return the base HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """Return the base WebSocket address."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start (or restart) the process on the same port and wait until it accepts."""
        # A file, never a pipe nobody reads: a full pipe would block the server mid-test.
        self._log = open(self.log_path, "ab")  # noqa: SIM115 (closed by kill)
        self.process = subprocess.Popen(
            [DAPHNE, "-b", "127.0.0.1", "-p", str(self.port), self.application],
            cwd=BASE_DIR,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )
        try:
            wait_for_port(self.port, self.process, 30)
        except (RuntimeError, WaitTimeout) as exc:
            self.kill()
            raise RuntimeError(f"daphne did not start: {exc}\n{self.log()[-4000:]}") from exc

    def log(self) -> str:
        """Return everything the process (and its earlier runs) wrote to stderr."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """Stop the process at once (SIGKILL), as a crash would."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def restart(self) -> None:
        """Kill the process and start it again on the same port."""
        self.kill()
        self.start()


@dataclass(frozen=True)
class Server:
    """A deployment with one daphne, as the browser tests see it."""

    app: LiveApp
    daphne: Daphne

    @property
    def url(self) -> str:
        """Return the base HTTP address."""
        return self.daphne.http

    @property
    def env(self) -> dict[str, str]:
        """Return the environment of the deployment's processes."""
        return self.app.env

    def world(self, **spec: Any) -> dict[str, Any]:
        """Build a world (classes, students, a table, a session) and return it."""
        return self.app.world(**spec)

    def table_state(self, table_id: int) -> tuple[dict[str, Any], int]:
        """Read a table's stored game state and state number (read-only)."""
        uri = f"file:{self.app.db_path}?mode=ro"
        with sqlite3.connect(uri, uri=True, timeout=10) as db:
            row = db.execute(
                "SELECT state, state_id FROM games_table WHERE id = ?", (table_id,)
            ).fetchone()
        return json.loads(row[0]), int(row[1])

    def wait_state_after(self, table_id: int, state_id: int, timeout: float = 20) -> int:
        """Wait until the table's state number passes `state_id`; return the new one."""

        def newer() -> int:
            current = self.table_state(table_id)[1]
            return current if current > state_id else 0

        return wait_until(newer, timeout, f"table {table_id} to move past state {state_id}")


@contextmanager
def serve(
    directory: Path | None = None,
    *,
    settings_module: str = "unoclass.settings",
    **env_values: str,
) -> Iterator[Server]:
    """Migrate a fresh database and serve the app with daphne until the block ends."""
    app = LiveApp(env_values, settings_module=settings_module, directory=directory)
    try:
        _migrate_once_then_copy(app)
        yield Server(app, app.start())
    finally:
        app.close()


# One database migrated by this process (an xdist worker has its own), copied for the next served
# app with the same settings module and the default SQLite file: a migrate costs 2 to 3.5 s.
_MIGRATED: dict[str, Path] = {}


def _migrate_once_then_copy(app: LiveApp) -> None:
    """Migrate the app's database, or copy one this process migrated with the same settings."""
    settings_module = app.env.get("DJANGO_SETTINGS_MODULE", "")
    if app.env.get("DATABASE_URL") != f"sqlite:///{app.db_path}":
        app.migrate()
        return
    template = _MIGRATED.get(settings_module)
    if template is None or not template.exists():
        app.migrate()
        folder = Path(tempfile.mkdtemp(prefix="unoclass-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _MIGRATED[settings_module] = folder / "db.sqlite3"
        _copy_sqlite(app.db_path, _MIGRATED[settings_module])
        return
    _copy_sqlite(template, app.db_path)


def _copy_sqlite(source: Path, target: Path) -> None:
    """Copy an SQLite database whole (SQLite's backup API: its WAL included)."""
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


def seed_table(
    app: LiveApp,
    names: list[str],
    *,
    ruleset: str = "fractions",
    seed: int = 11,
    setup: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    table_settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Create a class, its students and a table of them in the deployment; return the world
    (tests/support/world.py), with `sessions` (one session key per student, by seat) and
    `teacher_session`."""
    return app.world(
        students=names,
        ruleset=ruleset,
        seed=seed,
        setup=setup,
        options=options,
        settings=table_settings,
    )
