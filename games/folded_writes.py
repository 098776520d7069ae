"""Write a move's rows with as little work per move as the database allows.

`update_then_insert`: an update and an insert as one statement where the database allows it.

A move's transaction is counted in statements (issue 14: at most three), and each statement is
a round trip from a worker thread. PostgreSQL runs an UPDATE in a WITH clause of an INSERT (a
data-modifying CTE): one round trip for both. Other databases (SQLite) get the two statements.
The SQL is Django's own, compiled from the queryset and the rows: only the glue is ours.

`insert_one`: one new row, its SQL built once per model. Django compiles an INSERT for every
create(), field by field: for the attempt log's 24 columns that was a tenth of a move's CPU
(bench/load.py --profile-gil). The values go through the fields as create() sends them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import connections, router
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


def insert_one(obj: Model) -> None:
    """Insert `obj` as a new row; its primary key is not read back (the caller needs none)."""
    model = type(obj)
    alias = router.db_for_write(model)
    connection = connections[alias]
    values = [
        # What Django's insert compiler sends for a plain value (SQLInsertCompiler).
        field.get_db_prep_save(field.pre_save(obj, True), connection=connection)
        for field in _insert_fields(model)
    ]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(model, alias), values)


def _insert_fields(model: type[Model]) -> list[Any]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@functools.cache
def _insert_sql(model: type[Model], alias: str) -> str:
    quote = connections[alias].ops.quote_name
    fields = _insert_fields(model)
    columns = ", ".join(quote(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"
