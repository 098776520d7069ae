"""`manage.py backup_db`: a consistent copy of the SQLite database while the site writes, which
restores into a fresh deployment; and clear refusals that write nothing."""

from __future__ import annotations

import io
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.db import connections

from tests.support.live import BASE_DIR, LiveApp
from tests.support.waiting import Deadline

ROSTER = ["Zoé", "Émile", "Anaïs"]

SETUP = """
import json
from lessons.classrooms.services import classroom_create, roster_add, teacher_create
teacher = teacher_create(username="backup_teacher", password="a-long-pass-phrase-9")
room = classroom_create(teacher=teacher, name="CM1 Backup", grade="CM1", language="fr")
roster_add(classroom=room, text="Zoé\\nÉmile\\nAnaïs")
print(json.dumps(room.pk))
"""

# Writes until the stop file appears: each transaction adds a class with exactly two students,
# so a copy holding a "Probe" class with another number of students caught half a transaction.
WRITER = """
import os
from django.db import transaction
from lessons.classrooms.services import classroom_create, roster_add
from lessons.models import User
teacher = User.objects.get(username="backup_teacher")
n = 0
while not os.path.exists({stop!r}):
    with transaction.atomic():
        room = classroom_create(teacher=teacher, name=f"Probe {{n}}", grade="", language="fr")
        roster_add(classroom=room, text=f"P{{n}}a\\nP{{n}}b")
    n += 1
print(n)
"""

READ_BACK = """
import json
from django.core.management import call_command
from lessons.models import Classroom, Student
call_command("migrate", check=True, verbosity=0)  # exits non-zero if the schema is incomplete
print(json.dumps({
    "roster": sorted(Student.objects.filter(classroom__name="CM1 Backup")
                     .values_list("display_name", flat=True)),
    "probes": [r.students.count() for r in Classroom.objects.filter(name__startswith="Probe ")],
    "teacher": Classroom.objects.get(name="CM1 Backup").teacher.username,
}))
"""


def _read(path: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return list(db.execute(sql))


def _probe_sizes(path: Path) -> list[int]:
    rows = _read(
        path,
        "SELECT COUNT(s.id) FROM lessons_classroom c LEFT JOIN lessons_student s "
        "ON s.classroom_id = c.id WHERE c.name LIKE 'Probe %' GROUP BY c.id",
    )
    return [int(str(count)) for (count,) in rows]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[LiveApp]:
    """A deployment with its own SQLite database (WAL mode, as in production) and a class."""
    app = LiveApp(directory=tmp_path / "site")
    app.migrate()
    app.script(SETUP)
    yield app
    app.close()


@pytest.mark.slow
def test_backup_while_writing_restores_into_a_fresh_deployment(
    site: LiveApp, tmp_path: Path
) -> None:
    # 1. A write transaction is open in another connection: the copy does not wait for it and
    #    holds only what was committed.
    writer = sqlite3.connect(site.db_path, isolation_level=None, timeout=30)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE lessons_student SET display_name = 'UNCOMMITTED' || id")
    first = tmp_path / "first.sqlite3"
    site.manage("backup_db", str(first))
    writer.execute("ROLLBACK")
    writer.close()
    names = sorted(
        str(name) for (name,) in _read(first, "SELECT display_name FROM lessons_student")
    )
    assert names == sorted(ROSTER)

    # 2. Another process commits classes while the copy is made.
    stop = tmp_path / "stop"
    process = subprocess.Popen(
        [sys.executable, "manage.py", "shell", "-c", WRITER.format(stop=str(stop))],
        cwd=BASE_DIR,
        env=site.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = Deadline(60, "the writer's first committed classes")
        while len(_probe_sizes(site.db_path)) < 3:
            deadline.check()
            time.sleep(0.05)
        second = tmp_path / "second.sqlite3"
        site.manage("backup_db", str(second))
    finally:
        stop.touch()
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err[-2000:]
    written = int(out.strip().splitlines()[-1])
    copied = _probe_sizes(second)
    assert len(copied) >= 3 and all(size == 2 for size in copied), copied
    assert len(copied) <= written

    # 3. Restore = copy the file back into a stopped site; here a brand-new deployment.
    restored = LiveApp(directory=tmp_path / "restored")
    try:
        shutil.copyfile(second, restored.db_path)
        data = restored.script(READ_BACK)
    finally:
        restored.close()
    assert data["roster"] == sorted(ROSTER)
    assert data["teacher"] == "backup_teacher"
    assert data["probes"] == copied


@pytest.mark.django_db
def test_the_copy_is_one_self_contained_file(tmp_path: Path) -> None:
    target = tmp_path / "copy.sqlite3"
    out = io.StringIO()
    call_command("backup_db", str(target), stdout=out)
    assert f"Database copied to {target}." in out.getvalue()
    assert _read(target, "PRAGMA journal_mode") == [("delete",)]
    assert _read(target, "PRAGMA integrity_check") == [("ok",)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.sqlite3"]


@pytest.mark.django_db
def test_existing_path_is_refused_unless_forced(tmp_path: Path) -> None:
    target = tmp_path / "backup.sqlite3"
    target.write_bytes(b"yesterday's backup")
    with pytest.raises(CommandError, match="already exists.*--force"):
        call_command("backup_db", str(target))
    assert target.read_bytes() == b"yesterday's backup"
    call_command("backup_db", str(target), "--force", stdout=io.StringIO())
    assert _read(target, "PRAGMA integrity_check") == [("ok",)]
    migrations = _read(target, "SELECT COUNT(*) FROM django_migrations")[0][0]
    assert isinstance(migrations, int) and migrations > 0


@pytest.mark.django_db
def test_missing_directory_and_directory_paths_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="does not exist"):
        call_command("backup_db", str(tmp_path / "no-such-dir" / "backup.sqlite3"))
    assert not (tmp_path / "no-such-dir").exists()
    with pytest.raises(CommandError, match="is a directory"):
        call_command("backup_db", str(tmp_path), "--force")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db
def test_the_database_itself_is_refused() -> None:
    name = str(connections["default"].settings_dict["NAME"])
    with pytest.raises(CommandError, match="the database itself"):
        call_command("backup_db", name, "--force")


@pytest.mark.django_db
def test_postgresql_is_refused_pointing_to_pg_dump(tmp_path: Path) -> None:
    with (
        mock.patch.object(connections["default"], "vendor", "postgresql"),
        pytest.raises(CommandError, match="pg_dump"),
    ):
        call_command("backup_db", str(tmp_path / "backup.sqlite3"))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db
def test_a_database_locked_too_long_is_given_up(tmp_path: Path) -> None:
    # A rollback-journal database under an exclusive lock: nobody may read it until it ends.
    locked = tmp_path / "locked.sqlite3"
    holder = sqlite3.connect(locked, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO t VALUES (1)")
    target = tmp_path / "backup.sqlite3"
    started = time.monotonic()
    try:
        with (
            mock.patch.dict(connections["default"].settings_dict, {"NAME": str(locked)}),
            mock.patch("lessons.management.commands.backup_db.BUSY_SECONDS", 0.3),
            pytest.raises(CommandError, match="stayed busy"),
        ):
            call_command("backup_db", str(target))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert time.monotonic() - started < 10
    assert sorted(p.name for p in tmp_path.iterdir()) == ["locked.sqlite3"]


def test_a_path_is_required() -> None:
    with pytest.raises(CommandError, match="path"):
        call_command("backup_db")
