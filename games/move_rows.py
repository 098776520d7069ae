"""Read and write a move's own rows with as little work per move as the database allows.

`update_then_insert`: an update and an insert as one statement where the database allows it.

A move's transaction is counted in statements (issue 14: at most three), and each statement is
a round trip from a worker thread. PostgreSQL runs an UPDATE in a WITH clause of an INSERT (a
data-modifying CTE): one round trip for both. Other databases (SQLite) get the two statements.
The UPDATE is Django's own, compiled from the queryset; the INSERT is `insert_one`'s.

`read_row`: the row a move locks, read from SQL built once and turned into a model instance
as a queryset would (each field's converters, then Model.from_db): the table lock was a tenth
of a move's CPU through Django's raw() machinery.

`save_then_insert` and `insert_one`: the same writes for the move's own rows (the table's
state, its events, a judged play's attempt) with SQL built once per shape. Django compiles an
UPDATE or INSERT on every save() and create(), field by field: for a move that was a fifth of
its CPU (bench/load.py --profile-gil). The values go through the fields (pre_save, then
get_db_prep_save) as Django's compilers send plain values.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import connections, router
from django.db.models import Model, QuerySet
from django.db.models.sql import UpdateQuery
from psycopg.types.json import Jsonb

from games import jsontext

M = TypeVar("M", bound=Model)


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
    insert_sql, insert_params = _insert_statement(new, alias)
    with connection.cursor() as cursor:
        cursor.execute(_folded(update_sql, insert_sql), [*update_params, *insert_params])


def insert_one(obj: Model) -> None:
    """Insert `obj` as a new row; its primary key is not read back (the caller needs none)."""
    alias = router.db_for_write(type(obj))
    sql, params = _insert_statement([obj], alias)
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)


def _folded(update_sql: str, insert_sql: str) -> str:
    """Return PostgreSQL's one statement for both: the UPDATE in a WITH of the INSERT."""
    return f"WITH moved AS ({update_sql}) {insert_sql}"


def _insert_statement(rows: Sequence[Model], alias: str) -> tuple[str, list[Any]]:
    """Return the INSERT of `rows` (one model) and its values, as Django's compiler sends them."""
    model = type(rows[0])
    connection = connections[alias]
    fields = _insert_fields(model)
    params = [
        _db_value(field, field.pre_save(row, True), connection) for row in rows for field in fields
    ]
    return _insert_sql(model, alias, len(rows)), params


def _db_value(field: Any, value: Any, connection: Any) -> Any:
    """Return `value` as the field sends it to the database (get_db_prep_save).

    Django's JSONField hands psycopg the standard library's encoder; the same JSON is written
    by orjson (games.jsontext) when the field has no encoder of its own: a move's state was
    the largest value it sends.
    """
    prepared = field.get_db_prep_save(value, connection=connection)
    if isinstance(prepared, Jsonb) and getattr(field, "encoder", None) is None:
        return Jsonb(prepared.obj, dumps=jsontext.dumps)
    return prepared


def _concrete(model: type[Model]) -> dict[str, Any]:
    return {field.name: field for field in model._meta.concrete_fields}


def _insert_fields(model: type[Model]) -> list[Any]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@functools.cache
def _insert_sql(model: type[Model], alias: str, rows: int) -> str:
    quote = connections[alias].ops.quote_name
    fields = _insert_fields(model)
    columns = ", ".join(quote(field.column) for field in fields)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    table = quote(model._meta.db_table)
    return f"INSERT INTO {table} ({columns}) VALUES {', '.join([row] * rows)}"


@functools.cache
def _update_sql(model: type[Model], fields: tuple[str, ...], alias: str) -> str:
    quote = connections[alias].ops.quote_name
    columns = [quote(_concrete(model)[name].column) for name in fields]
    assignments = ", ".join(f"{column} = %s" for column in columns)
    table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
    return f"UPDATE {table} SET {assignments} WHERE {table}.{pk} = %s"


def save_then_insert(obj: Model, fields: Sequence[str], new: Sequence[Model]) -> None:
    """Store `fields` of `obj`'s row (as save(update_fields=...) does, auto_now included) and
    insert the `new` rows (all of one model): one statement on PostgreSQL, two elsewhere."""
    model = type(obj)
    alias = router.db_for_write(model)
    connection = connections[alias]
    updated = [_concrete(model)[name] for name in fields]
    params = [_db_value(field, field.pre_save(obj, False), connection) for field in updated]
    params.append(model._meta.pk.get_db_prep_value(obj.pk, connection))
    update_sql = _update_sql(model, tuple(fields), alias)
    if not new:
        with connection.cursor() as cursor:
            cursor.execute(update_sql, params)
        return
    insert_sql, insert_params = _insert_statement(new, alias)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(_folded(update_sql, insert_sql), [*params, *insert_params])
        else:
            cursor.execute(update_sql, params)
            cursor.execute(insert_sql, insert_params)


def select_columns(model: type[Model], alias: str) -> str:
    """Return the model's concrete columns, qualified, in field order (for `read_row`)."""
    quote = connections[alias].ops.quote_name
    table = quote(model._meta.db_table)
    return ", ".join(f"{table}.{quote(field.column)}" for field in model._meta.concrete_fields)


def read_row(model: type[M], sql: str, params: Sequence[Any]) -> tuple[M, tuple[Any, ...]] | None:
    """Run `sql`, whose first columns are `select_columns(model)`, and return its first row as
    a model instance (converted as a queryset converts) and the row's other columns; None when
    there is no row."""
    alias = router.db_for_read(model)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    fields = model._meta.concrete_fields
    values = list(row[: len(fields)])
    for index, converters, column in _converters(model, connection):
        value = values[index]
        for convert in converters:
            value = convert(value, column, connection)
        values[index] = value
    instance = model.from_db(alias, [field.attname for field in fields], values)
    return instance, tuple(row[len(fields) :])


def first_row(
    model: type[Model], build: Callable[..., QuerySet[Any]], *params: Any
) -> tuple[Any, ...] | None:
    """Return the first row of `build(*params)`, a `values_list` queryset of `model`, or None.

    Its SQL is compiled once per `build` and database: `build` must put `params` into its
    query as the query's only parameters. The first call with distinct values checks that (a
    call that cannot check it runs the queryset as Django would). Only for columns that need
    no converter (numbers, text): the row comes as the database driver gives it. A look-up on
    a seat's first play spent most of its time building and compiling its queryset.
    """
    alias = router.db_for_read(model)
    sql = _first_sql.get((build, alias))
    if sql is None:
        queryset = build(*params).using(alias)[:1]
        compiled, compiled_params = queryset.query.get_compiler(alias).as_sql()
        distinct = len({repr(p) for p in params}) == len(params)
        if not distinct or list(compiled_params) != list(params):
            return next(iter(queryset), None)
        sql = _first_sql[(build, alias)] = compiled
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        row: tuple[Any, ...] | None = cursor.fetchone()
    return row


# first_row's SQL by query builder and database alias.
_first_sql: dict[tuple[Callable[..., Any], str], str] = {}


@functools.cache
def _converters(model: type[Model], connection: Any) -> list[tuple[int, list[Any], Any]]:
    # What SQLCompiler.get_converters() finds for each selected column (per connection: a
    # backend's converters are methods of that thread's connection).
    found = []
    for index, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if converters:
            found.append((index, converters, column))
    return found
