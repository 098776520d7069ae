"""Throwaway Redis and PostgreSQL servers for the scale-out tests, on free loopback ports, and
the port helpers every server starter uses (`free_port`, `wait_for_port`; daphne: live.py).

Each server lives in its own temporary directory and is stopped (and the directory removed)
by its fixture. A missing binary FAILS the test with the Debian package to install: CI installs
them with `make system-deps`, so these tests never skip. PostgreSQL refuses to run as root:
as root the cluster runs as the unprivileged user `nobody` (through `runuser`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.waiting import Deadline

PG_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
PG_USER = "nobody"


def free_port() -> int:
    """Ask the kernel for a free loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes] | None, seconds: float) -> None:
    """Wait until something accepts connections on the loopback port.

    Raise RuntimeError if `process` exits first, WaitTimeout after `seconds`.
    """
    deadline = Deadline(seconds, f"a server to listen on 127.0.0.1:{port}")
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server on port {port} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            deadline.check()
            time.sleep(0.05)


def require_binary(path: str | None, package: str) -> str:
    """Return the binary's path, or fail the test naming the Debian package to install."""
    if path is None or not Path(path).exists():
        pytest.fail(
            f"{package} is not installed (binary {path or 'not found'}): run `make system-deps` "
            f"(Debian package {package!r}); the scale-out tests need a real server.",
            pytrace=False,
        )
    return path


class RedisServer:
    """A redis-server process without persistence, on a loopback port."""

    def __init__(self) -> None:
        self.binary = require_binary(shutil.which("redis-server"), "redis-server")
        self.dir = tempfile.mkdtemp(prefix="unoclass-redis-")
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Return the REDIS_URL of this server."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server (again, on the same port) and wait until it accepts."""
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.dir,
                "--protected-mode",
                "yes",
            ],  # fmt: skip
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, self.process, 15)

    def stop(self) -> None:
        """Kill the server at once (SIGKILL, as a crash)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def restart(self, pause: float = 0.5) -> None:
        """Kill the server, wait `pause` seconds, start it again on the same port."""
        self.stop()
        time.sleep(pause)
        self.start()

    def close(self) -> None:
        """Stop the server and remove its directory."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class PostgresCluster:
    """A PostgreSQL cluster made by initdb in a temporary directory, trust auth on loopback."""

    def __init__(self) -> None:
        bin_dir = next((d for d in PG_BIN_DIRS if (d / "initdb").exists()), None)
        initdb = require_binary(str(bin_dir / "initdb") if bin_dir else None, "postgresql")
        self.bin = Path(initdb).parent
        self.dir = tempfile.mkdtemp(prefix="unoclass-pg-")
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            require_binary(shutil.which("runuser"), "util-linux (runuser)")
            shutil.chown(self.dir, user=PG_USER)
        os.chmod(self.dir, 0o700)

    def _run(self, *args: str, timeout: float = 120) -> None:
        command = list(args)
        if self.as_root:
            command = ["runuser", "-u", PG_USER, "--", *command]
        done = subprocess.run(
            command, cwd=self.dir, capture_output=True, text=True, timeout=timeout, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed: {done.stdout}\n{done.stderr}")

    def start(self) -> None:
        """Create the cluster if needed and start it; fsync off: the data is throwaway."""
        if not os.path.exists(self.data):
            self._run(
                str(self.bin / "initdb"), "-D", self.data, "-U", "postgres",
                "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C",
            )  # fmt: skip
        options = (
            f"-p {self.port} -h 127.0.0.1 -k {self.dir} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
        )
        self._run(
            str(self.bin / "pg_ctl"), "-D", self.data, "-o", options,
            "-l", os.path.join(self.dir, "log"), "-w", "-t", "60", "start",
        )  # fmt: skip

    def url(self, database: str = "postgres") -> str:
        """Return a DATABASE_URL for one database of the cluster."""
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "live") -> str:
        """Create a fresh empty database; return its DATABASE_URL."""
        import psycopg

        name = f"{prefix}_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self, mode: str = "immediate") -> None:
        """Stop the cluster: `immediate` (a crash: the data is throwaway, and with fsync and
        synchronous commit off the last commits may be lost) or `fast` (as `systemctl restart
        postgresql`: every committed transaction is kept; `start` brings it back)."""
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self._run(str(self.bin / "pg_ctl"), "-D", self.data, "-m", mode, "-w", "stop")

    def close(self) -> None:
        """Stop the cluster and remove its directory."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """Run one throwaway redis-server for the test session."""
    server = RedisServer()
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """Run one throwaway PostgreSQL cluster for the test session."""
    cluster = PostgresCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.close()
