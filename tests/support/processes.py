"""Run manage.py and daphne in subprocesses with a clean, chosen environment."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from django.conf import settings

BASE_DIR = Path(settings.BASE_DIR)
BIN_DIR = Path(sys.executable).parent
# Set by the test settings or pytest-django in this process; a child chooses its own.
_INHERITED_KEYS = {
    "DJANGO_SETTINGS_MODULE",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "SECURE_SSL_REDIRECT",
    "DEBUG",
    "DATABASE_URL",
    "REDIS_URL",
}


def child_env(**values: str) -> dict[str, str]:
    """Return this process's environment without the Django variables, plus `values`."""
    env = {k: v for k, v in os.environ.items() if k not in _INHERITED_KEYS}
    env.update(values)
    return env


def manage(
    *args: str, env: dict[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run `python manage.py <args>` in the project directory."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def free_port() -> int:
    """Return a TCP port that is free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
