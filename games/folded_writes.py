"""Write an update and an insert of a move as one statement where the database allows it.

A move's transaction is counted in statements (issue 14: at most three), and each statement is
a round trip from a worker thread. PostgreSQL runs an UPDATE in a WITH clause of an INSERT (a
data-modifying CTE): one round trip for both. Other databases (SQLite) get the two statements.
The SQL is Django's own, compiled from the queryset and the rows: only the glue is ours.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.sql import InsertQuery, UpdateQuery


def update_then_insert(
    rows_to_update: QuerySet[Any], values: dict[str, Any], new: Sequence[Model]
) -> None:
    """Set `values` on `rows_to_update` and insert the `new` rows (all of one model).

    Nothing is read back: the new rows get no primary key here (as bulk_create on a database
    that cannot return it), and auto_now fields are not set by the update: pass them in
    `values`.
    """
    alias = rows_to_update.db
    connection = connections[alias]
    if not new:
        rows_to_update.update(**values)
        return
    if connection.vendor != "postgresql":
        rows_to_update.update(**values)
        type(new[0])._default_manager.using(alias).bulk_create(list(new))
        return
    # What QuerySet.update() builds (django/db/models/query.py), compiled instead of run.
    update = rows_to_update.query.chain(UpdateQuery)
    assert isinstance(update, UpdateQuery)  # chain(klass) returns a klass (stubs: Query)
    update.add_update_values(values)
    update_sql, update_params = update.get_compiler(alias).as_sql()
    model = type(new[0])
    insert = InsertQuery(model)
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    insert.insert_values(fields, list(new))
    ((insert_sql, insert_params),) = insert.get_compiler(alias).as_sql()
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH moved AS ({update_sql}) {insert_sql}", (*update_params, *insert_params)
        )
