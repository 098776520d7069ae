"""Real servers for end-to-end tests: daphne processes on loopback against a file database."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = str(Path(sys.executable).with_name("daphne"))


def free_port() -> int:
    """Ask the kernel for a free loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveApp:
    """One database and the environment every process of a test deployment shares."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.dir = tempfile.mkdtemp(prefix="unoclass-live-")
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "unoclass.settings",
            "DEBUG": "1",
            "SECRET_KEY": "live-test-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": f"sqlite:///{self.dir}/db.sqlite3",
            "GAMES_BOT_DELAY": "0.05",
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        self.servers: list[Daphne] = []

    def manage(self, *args: str) -> str:
        """Run a management command against the deployment's database; return its output."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode != 0:
            raise RuntimeError(done.stderr)
        return done.stdout

    def migrate(self) -> None:
        """Create the database."""
        self.manage("migrate", "--noinput")

    def script(self, code: str) -> Any:
        """Run Python with Django set up in the deployment; return the JSON it prints last."""
        out = self.manage("shell", "-c", code)
        return json.loads(out.strip().splitlines()[-1])

    def start(self) -> Daphne:
        """Start one more daphne process."""
        server = Daphne(self.env)
        self.servers.append(server)
        return server

    def close(self) -> None:
        """Stop every process."""
        for server in self.servers:
            server.kill()


class Daphne:
    """A daphne process serving the app on a loopback port."""

    def __init__(self, env: dict[str, str], port: int | None = None) -> None:
        self.env = env
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
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
        self.process = subprocess.Popen(
            [DAPHNE, "-b", "127.0.0.1", "-p", str(self.port), "unoclass.asgi:application"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    self.process.stderr.read().decode() if self.process.stderr else ""
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.1)
        raise TimeoutError("daphne did not start")

    def kill(self) -> None:
        """Stop the process at once (SIGKILL), as a crash would."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def restart(self) -> None:
        """Kill the process and start it again on the same port."""
        self.kill()
        self.start()


SEED_TABLE = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from games.services import SeatSpec, table_create
from lessons.classrooms import services

teacher = services.teacher_create(username="prof", password="correct-horse-battery-42")
room = services.classroom_create(teacher=teacher, name="CM2", grade="CM2", language="fr")
issued = services.roster_add(classroom=room, text="\\n".join(NAMES))
users = [item.student.user for item in issued]
table = table_create(
    ruleset=RULESET,
    seats=[SeatSpec(name=u.student.display_name, user_id=u.pk) for u in users],
    seed=SEED, setup=SETUP, options=OPTIONS, table_settings=TABLE_SETTINGS,
)
cookies = []
for user in [*users, teacher]:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    cookies.append(store.session_key)
teacher_session = cookies.pop()
print(json.dumps({"table": table.pk, "sessions": cookies, "users": [u.pk for u in users],
                  "teacher_session": teacher_session}))
"""


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
    """Create a class, its students and a table of them in the deployment; return ids,
    one session key per student and the teacher's session key (`teacher_session`)."""
    code = (
        f"NAMES = {names!r}\nRULESET = {ruleset!r}\nSEED = {seed!r}\n"
        f"SETUP = {setup!r}\nOPTIONS = {options!r}\nTABLE_SETTINGS = {table_settings!r}\n"
        + SEED_TABLE
    )
    return app.script(code)  # type: ignore[no-any-return]
