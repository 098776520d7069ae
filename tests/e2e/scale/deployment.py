"""A test deployment: daphne processes sharing one database and one Redis, and its checks."""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from tests.support.live import LiveApp, seed_table

# A database migrated once in this test run, copied for each SQLite deployment after it.
_migrated: list[Path] = []

# Uno Fractions for four, small hands so a game is short: seat 1 plays first on 1/3.
FOUR_SETUP: dict[str, Any] = {
    "dealer": 0,
    "hands": [
        ["2/6r", "5/6v", "1/2b"],
        ["4/12j", "2/3r", "10/12v"],
        ["3/6b", "8/24j", "1/6r"],
        ["6/12v", "16/48b", "2/12j"],
    ],
    "start": "1/3v",
}
NAMES = ["Léa Martin", "Hugo Bernard", "Inès Petit", "Noah Durand"]

AUDIT = """
import json
from games.models import Table
from games.services import table_replay
t = Table.objects.get(pk=TABLE)
events = list(t.events.order_by("seq").values_list("seq", flat=True))
print(json.dumps({
    "state_id": t.state_id, "moves": t.moves, "status": t.status,
    "seqs": events, "replay_matches": table_replay(t).to_dict() == t.state,
    "winner": t.state["winner"],
}))
"""


def migrate(app: LiveApp) -> None:
    """Create the deployment's database: a copy of one migrated earlier in this run, if it is
    an SQLite file.

    `manage.py migrate` took 2 to 3.5 s a deployment (a process starting Django, then every
    migration), about half of a short scale test; copying the file takes milliseconds. The
    first deployment of the run still migrates (the migrations run for real every time).
    """
    if app.env["DATABASE_URL"] != f"sqlite:///{app.db_path}":
        app.migrate()  # another database (PostgreSQL): its own migrate
        return
    if not _migrated:
        app.migrate()
        folder = Path(tempfile.mkdtemp(prefix="unoclass-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _copy(app.db_path, folder / "db.sqlite3")
        _migrated.append(folder / "db.sqlite3")
        return
    _copy(_migrated[0], app.db_path)


def _copy(source: Path, target: Path) -> None:
    """Copy an SQLite database whole (SQLite's backup: its WAL included)."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    src.close()
    dst.close()


def deploy(env: dict[str, str], *, setup: Any = FOUR_SETUP, **table: Any) -> tuple[LiveApp, Any]:
    """Create a deployment's database and a four-student table; return the app and its ids."""
    app = LiveApp(env)
    migrate(app)
    ids = seed_table(app, NAMES, setup=setup, **table)
    return app, ids


def audit(app: LiveApp, table: int) -> dict[str, Any]:
    """Read the table back from the database: counters, event numbers, replay check."""
    return app.script(AUDIT.replace("TABLE", str(int(table))))  # type: ignore[no-any-return]


def check_audit(found: dict[str, Any]) -> None:
    """Assert every stored action is there, numbered 1..moves, and replays to the state."""
    assert found["seqs"] == list(range(1, found["moves"] + 1))
    assert found["replay_matches"] is True
