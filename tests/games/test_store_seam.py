"""games/store.py is the one module with SQL for a move, and nothing writes Django's private
attributes (issue 23)."""

from __future__ import annotations

import contextlib
import re
import traceback
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from games.errors import TableError
from games.models import Table
from games.services import table_act
from lessons.models import Attempt, SeatStudent, SessionMember
from lessons.sessions.services import session_join, session_seat_now, session_start

BASE_DIR = Path(__file__).resolve().parents[2]
STORE = BASE_DIR / "games" / "store.py"
SKIPPED_DIRS = {
    "tests",
    "migrations",
    "node_modules",
    "static",
    "templates",
    "docs",
    "locale",
    "bench",
}

# Hand-built SQL or ORM compiler use outside games/store.py, each with why it is not a move's.
SQL_ELSEWHERE = {
    "unoclass/health.py": "the health check's SELECT 1",
    "lessons/evidence/loading.py": "a report's read of thousands of attempts",
    "lessons/demo/history.py": "demo data and benchmarks: bulk insert (COPY)",
    "lessons/management/commands/generate_attempts.py": "a benchmark's SQLite pragma",
    "lessons/management/sqlite_copy.py": "SQLite's backup checks (every backup's one copy)",
    "unoclass/box/backups.py": "the box's backup: a copy's tables and quick_check",
}
SQL_MARKS = re.compile(
    r"\.cursor\(|\.execute\(|get_compiler|\bRawSQL\b|\.raw\(|UpdateQuery|InsertQuery|\.as_sql\("
    r"|\.extra\("
)
# Django's private attributes of querysets and instances: written only by Django itself.
PRIVATE_DJANGO = re.compile(
    r"_result_cache|_prefetch_done|_prefetched_objects_cache|_known_related_objects"
    r"|\._state\b|\._sticky_filter|\._for_write\b"
)


def _product_modules() -> list[Path]:
    found = []
    for path in sorted(BASE_DIR.rglob("*.py")):
        parts = path.relative_to(BASE_DIR).parts[:-1]
        if any(p.startswith(".") or p.endswith(".egg-info") or p in SKIPPED_DIRS for p in parts):
            continue
        found.append(path)
    return found


def test_only_games_store_and_the_listed_modules_hold_sql() -> None:
    modules = _product_modules()
    assert STORE in modules and BASE_DIR / "games" / "services" / "commit.py" in modules
    holding = {
        str(path.relative_to(BASE_DIR))
        for path in modules
        if path != STORE and SQL_MARKS.search(path.read_text(encoding="utf-8"))
    }
    # pubsub_layer's `pipe.execute()` is Redis' pipeline, not SQL.
    holding.discard("games/realtime/pubsub_layer.py")
    assert holding == set(SQL_ELSEWHERE), (
        "SQL for a move belongs in games/store.py; anything else is listed with its reason: "
        f"{sorted(holding ^ set(SQL_ELSEWHERE))}"
    )
    assert SQL_MARKS.search(STORE.read_text(encoding="utf-8"))  # the check sees SQL


def test_no_module_writes_djangos_private_attributes() -> None:
    offences = {
        str(path.relative_to(BASE_DIR)): PRIVATE_DJANGO.findall(path.read_text(encoding="utf-8"))
        for path in _product_modules()
    }
    assert {path: found for path, found in offences.items() if found} == {}


def test_the_private_attribute_check_notices_a_faked_prefetch() -> None:
    planted = "cached = table.seats.all()\ncached._result_cache = seats\n"
    assert PRIVATE_DJANGO.search(planted)


def _issuer(stack: list[traceback.FrameSummary]) -> str:
    """Return the product module (outside tests) closest to the statement, or ""."""
    for frame in reversed(stack):
        path = Path(frame.filename).resolve()
        if BASE_DIR in path.parents and ".venv" not in path.parts and "tests" not in path.parts:
            return str(path.relative_to(BASE_DIR))
    return ""


@pytest.mark.django_db(transaction=True)
def test_every_statement_of_a_move_comes_from_games_store(class_a: Any) -> None:
    """Plays, refused tries and draws at a class session's table: the statements of each
    move's transaction are all sent by games/store.py."""
    session = session_start(teacher=class_a.teacher, classroom=class_a.classroom)
    for login in (class_a.student, class_a.other_student):
        session_join(session=session, student=login.student)
    session_seat_now(session=session, teacher=class_a.teacher)
    member = SessionMember.objects.select_related("table").get(student=class_a.student.student)
    assert member.table is not None
    table = member.table.table
    assert SeatStudent.objects.filter(seat__table=table).count() == 2  # written on seating
    issuers: list[tuple[str, str]] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if connection.in_atomic_block and not sql.lstrip().upper().startswith(
            ("BEGIN", "SAVEPOINT", "RELEASE", "COMMIT", "ROLLBACK")
        ):
            issuers.append((_issuer(traceback.extract_stack()), sql[:60]))
        return execute(sql, params, many, context)

    users = {seat.index: seat.user for seat in table.seats.select_related("user")}
    with connection.execute_wrapper(record):
        for _move in range(12):
            table.refresh_from_db()
            seat = table.state.get("turn")
            user = users.get(seat) if isinstance(seat, int) else None
            if user is None:
                break
            # Fraction cards first, so that judged tries happen whatever the deal.
            hand = sorted(table.state["hands"][seat], key=lambda card: "/" not in card)
            for card in hand[:2]:  # a play (often refused: a judged try), then a draw
                try:
                    table_act(
                        table_id=table.pk,
                        user=user,
                        action={"type": "play", "card": card, "claim": "equal"},
                        state_id=table.state_id,
                    )
                    break
                except TableError:
                    table.refresh_from_db()
            else:
                with contextlib.suppress(TableError):
                    table_act(
                        table_id=table.pk,
                        user=user,
                        action={"type": "draw"},
                        state_id=table.state_id,
                    )
    assert Attempt.objects.filter(table_id=table.pk).exists()  # judged plays were logged
    assert issuers, "no statement seen"
    assert {issuer for issuer, _sql in issuers} == {"games/store.py"}, issuers
    assert Table.objects.get(pk=table.pk).moves > 0
