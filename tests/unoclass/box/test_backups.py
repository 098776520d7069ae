"""The box's backups: kept N days by the date in their names, and a restore that refuses what
is not a unoclass database and replaces the database whole."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from unoclass.box.backups import (
    REQUIRED_TABLES,
    NotABackup,
    backup_folder,
    backup_taken_at,
    backups,
    prune,
    restore,
)

NOW = timezone.make_aware(datetime(2026, 12, 3, 18, 0, 0))


def _backup(folder: Path, moment: datetime) -> Path:
    path = backup_folder(folder) / f"unoclass-{moment.strftime('%Y-%m-%d-%H%M%S')}.sqlite3"
    path.write_bytes(b"copy")
    return path


def test_backups_older_than_the_days_kept_go_and_the_others_stay(tmp_path: Path) -> None:
    made = {days: _backup(tmp_path, NOW - timedelta(days=days, minutes=1)) for days in range(6)}
    other = backup_folder(tmp_path) / "notes.txt"
    other.write_text("the teacher's own file")
    newest = _backup(tmp_path, NOW)
    removed = prune(tmp_path, keep_days=3, now=NOW, keep=newest)
    assert sorted(removed) == sorted([made[3], made[4], made[5]])
    assert backups(tmp_path) == [made[2], made[1], made[0], newest]
    assert other.exists()


def test_the_backup_just_written_stays_even_with_a_clock_gone_back(tmp_path: Path) -> None:
    # Written "in the future" by a clock that was wrong, then the clock is right again.
    future = _backup(tmp_path, NOW + timedelta(days=30))
    assert prune(tmp_path, keep_days=1, now=NOW + timedelta(days=40), keep=future) == []
    assert future.exists()


def test_a_backup_s_date_comes_from_its_name_only(tmp_path: Path) -> None:
    assert backup_taken_at(Path("unoclass-2026-12-03-180000.sqlite3")) == NOW
    for name in ("unoclass-2026-13-03-180000.sqlite3", "unoclass-latest.sqlite3", "x.sqlite3"):
        assert backup_taken_at(Path(name)) is None


def _database(path: Path, *, tables: tuple[str, ...] = REQUIRED_TABLES, marker: str) -> Path:
    connection = sqlite3.connect(path)
    for table in tables:
        connection.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, note TEXT)")
    connection.execute("CREATE TABLE marker (text TEXT)")
    connection.execute("INSERT INTO marker VALUES (?)", (marker,))
    connection.commit()
    connection.close()
    return path


def _marker(path: Path) -> str:
    connection = sqlite3.connect(path)
    try:
        return str(connection.execute("SELECT text FROM marker").fetchone()[0])
    finally:
        connection.close()


def test_restore_into_an_empty_data_folder_puts_the_copy_in_place(tmp_path: Path) -> None:
    source = _database(tmp_path / "copy.sqlite3", marker="the class of Monday")
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "unoclass.sqlite3-wal").write_bytes(b"a stale log")
    assert restore(folder, source) is None
    assert _marker(folder / "unoclass.sqlite3") == "the class of Monday"
    assert not (folder / "unoclass.sqlite3-wal").exists()
    assert source.exists()


@pytest.mark.parametrize("kind", ["missing", "text", "another app's database"])
def test_restore_refuses_what_is_not_a_unoclass_backup(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    current = _database(folder / "unoclass.sqlite3", marker="today's class")
    source = tmp_path / "given.sqlite3"
    if kind == "text":
        source.write_text("not a database at all, " * 100)
    elif kind == "another app's database":
        _database(source, tables=("django_migrations", "wiki_page"), marker="a wiki")
    with pytest.raises(NotABackup):
        restore(folder, source)
    assert _marker(current) == "today's class"
    assert list(folder.iterdir()) == [current]
