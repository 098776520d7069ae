"""The box's data folder: the database, the secret key, the backups and the static files.

It is the platform's usual place for an application's data (platformdirs: ~/.local/share/unoclass
on Linux, ~/Library/Application Support/unoclass on macOS, %LOCALAPPDATA%\\unoclass on Windows),
or the folder given with `--data`.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import platformdirs

APP_NAME = "unoclass"
SECRET_FILE = "secret_key"
DATABASE_FILE = "unoclass.sqlite3"


def default_folder() -> Path:
    """Return the platform's usual data folder for unoclass (not created)."""
    return platformdirs.user_data_path(APP_NAME, appauthor=False)


def folder_ready(folder: Path | None) -> Path:
    """Create the data folder (the given one, else the usual one) if needed; return it."""
    path = (folder or default_folder()).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_path(folder: Path) -> Path:
    """Return the SQLite database file of the data folder."""
    return folder / DATABASE_FILE


def secret_key(folder: Path) -> str:
    """Return the folder's secret key, generating it on first use (kept, readable by its owner).

    Sessions and set-up links stay valid across restarts because the key does.
    """
    path = folder / SECRET_FILE
    if path.exists():
        kept = path.read_text(encoding="ascii").strip()
        if len(kept) >= 50:
            return kept
    key = secrets.token_urlsafe(50)
    # Created readable by its owner only, then renamed into place: never half-written.
    partial = path.with_name(f".{SECRET_FILE}.{os.getpid()}")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(key + "\n")
    os.replace(partial, path)
    return key
