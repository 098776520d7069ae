"""Run only by test_postgres_runs.py inside its child pytest: prove the child used PostgreSQL."""

from __future__ import annotations

import os

import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_database_is_the_one_asked_for() -> None:
    assert connection.vendor == os.environ["UNOCLASS_EXPECT_DB_VENDOR"]


@pytest.mark.django_db
def test_a_kept_connection_prepares_the_statements_it_runs_often() -> None:
    # unoclass/settings.py: server-side binding, prepared the fifth time (psycopg's count).
    from games.models import Table

    for _ in range(6):
        list(Table.objects.filter(pk=0))
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        statements = [row[0] for row in cursor.fetchall()]
    assert any('FROM "games_table"' in s for s in statements), statements
