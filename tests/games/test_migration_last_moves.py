"""games 0003: each seat's last stored action moves from Table.memo to Table.last_moves."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0002_table_memo"), ("lessons", "0004_practice_assignments")]
AFTER = [("games", "0003_table_last_moves"), ("lessons", "0005_seat_students")]


def _migrate(targets: list[tuple[str, str]]) -> object:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_the_last_moves_are_carried_over_and_the_memo_goes() -> None:
    try:
        apps = _migrate(BEFORE)
        Table = apps.get_model("games", "Table")  # type: ignore[attr-defined]
        kept = Table.objects.create(
            ruleset="fractions", seed=1, state={}, moves=3,
            memo={"seat_seq": {"0": 3, "1": 2}, "lessons": {"session": None}},
        )  # fmt: skip
        older = Table.objects.create(ruleset="fractions", seed=2, state={}, memo={})
        apps = _migrate(AFTER)
        Table = apps.get_model("games", "Table")  # type: ignore[attr-defined]
        assert Table.objects.get(pk=kept.pk).last_moves == {"0": 3, "1": 2}
        assert Table.objects.get(pk=older.pk).last_moves is None  # unknown: events are read
        assert "memo" not in {f.name for f in Table._meta.get_fields()}
    finally:
        executor = MigrationExecutor(connection)
        _migrate(executor.loader.graph.leaf_nodes())  # back to the latest state, every app
