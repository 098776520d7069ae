"""Run only by test_postgres_runs.py inside its child pytest: prove the child used PostgreSQL."""

from __future__ import annotations

import os

import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_database_is_the_one_asked_for() -> None:
    assert connection.vendor == os.environ["UNOCLASS_EXPECT_DB_VENDOR"]
