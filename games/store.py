"""The one module with SQL for a move: lock a table with its seats, then store the move's rows.

`lock` reads the table row, its seats and, for each seat, the row another app keeps about it
(a model with a one-to-one `seat` key, named by the registered move listener: lessons' seat
student) in one statement, on the write database, and locks the table row for the
transaction. `store` writes the move: the table's new state, its events and the listener's
rows; on PostgreSQL all of them are one statement (data-modifying WITH clauses), elsewhere
one statement each.

Why hand-built SQL: a move's transaction is counted in statements (docs/performance.md,
goal 8), and Django compiles a queryset or an INSERT field by field on every call: for a move
that was a fifth of its CPU. The SQL text here is built once per shape and database alias;
values go through each field's documented hooks (`pre_save`, `get_db_prep_save`,
`get_db_prep_value`); values read back go through the converters a queryset applies
(undocumented: guarded by tests/unoclass/test_private_apis.py, which names each use:
test_django_db_converters_are_what_store_calls, test_django_model_meta_concrete_fields_and_from_db,
test_django_features_has_select_for_update_of, test_django_signal_has_listeners).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connections, router
from django.db.models import Max, Model, OneToOneField, signals
from psycopg.types.json import Jsonb

from games import jsontext
from games.models import Seat, Table, TableEvent


@dataclass(frozen=True)
class LockedTable:
    """A table locked for this transaction, its seats by index, and each seat's listener row."""

    table: Table
    seats: list[Seat]
    # The listener's row of each seat that has one, by seat index.
    seat_rows: dict[int, Model] = field(default_factory=dict)

    def seat_at(self, index: int) -> Seat | None:
        """Return the seat with this index, or None."""
        return next((seat for seat in self.seats if seat.index == index), None)


@dataclass(frozen=True)
class Insert:
    """A new row of any model (its primary key is not read back)."""

    row: Model


@dataclass(frozen=True)
class Update:
    """Set `values` on the rows of `model` whose fields equal `where` (field names)."""

    model: type[Model]
    where: dict[str, Any]
    values: dict[str, Any]


Write = Insert | Update


def lock(table_id: int, seat_row: type[Model] | None = None) -> LockedTable | None:
    """Lock a table row on the write database; read its seats (and `seat_row`s) with it.

    None when there is no such table. The seats are not locked: every change of a seat
    locks its table row first. SQLite has no FOR UPDATE: its IMMEDIATE transactions take the
    write lock (settings).
    """
    alias = router.db_for_write(Table)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(alias, seat_row), [table_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    models: list[type[Model]] = [Table, Seat] + ([seat_row] if seat_row is not None else [])
    first = _instances(models, rows[0], alias)
    table = first[0]
    assert isinstance(table, Table)
    seats: list[Seat] = []
    seat_rows: dict[int, Model] = {}
    for row in rows:
        made = first if row is rows[0] else _instances(models, row, alias)
        seat = made[1]
        if not isinstance(seat, Seat):
            continue  # a table without seats (LEFT JOIN)
        seat.table = table
        seats.append(seat)
        if len(made) > 2 and made[2] is not None:
            seat_rows[seat.index] = made[2]
    return LockedTable(table, seats, seat_rows)


def store(
    *,
    table: Table | None = None,
    fields: Sequence[str] = (),
    events: Sequence[TableEvent] = (),
    writes: Sequence[Write] = (),
) -> None:
    """Store the move: `writes` (the listener's), then `fields` of `table` and its `events`.

    The table's fields are stored as save(update_fields=...) stores them (auto_now too).
    Inserted rows skip save(): a model with a pre_save or post_save receiver is refused, so
    a receiver can never be skipped silently. The writes of one move must not read each
    other's rows (an update of a row inserted by the same move): on PostgreSQL they run on
    one snapshot. Every row goes to the table's write database, in the move's transaction.
    """
    alias = router.db_for_write(Table)
    statements = [_write_statement(write, alias) for write in writes]
    if table is not None and fields:
        values = _field_values(table, fields)
        statements.append(_update_statement(Table, {"id": table.pk}, values, alias))
    if events:
        statements.append(_insert_statement(list(events), alias))
    if not statements:
        return
    connection = connections[alias]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and len(statements) > 1:
            cursor.execute(*_folded(statements))
        else:
            for sql, params in statements:
                cursor.execute(sql, params)


Statement = tuple[str, list[Any]]


def _folded(statements: list[Statement]) -> Statement:
    """Return PostgreSQL's one statement for all: each but the last in a WITH clause.

    They see the same snapshot and touch different rows, so their order does not matter.
    """
    *leading, (last_sql, last_params) = statements
    clauses = ", ".join(f"w{n} AS ({sql})" for n, (sql, _params) in enumerate(leading))
    params = [param for _sql, statement_params in leading for param in statement_params]
    return f"WITH {clauses} {last_sql}", [*params, *last_params]


def _write_statement(write: Write, alias: str) -> Statement:
    if isinstance(write, Insert):
        return _insert_statement([write.row], alias)
    return _update_statement(write.model, write.where, write.values, alias)


def _same_database(model: type[Model], alias: str) -> None:
    """Refuse a row the router sends elsewhere: a move is one transaction on one database."""
    if router.db_for_write(model) != alias:
        raise RuntimeError(f"{model.__name__} is not written to {alias!r}, the tables' database")


def _field_values(obj: Model, names: Sequence[str]) -> dict[str, Any]:
    """Return `obj`'s values of these fields as save() sends them (auto_now set by pre_save)."""
    concrete = _concrete(type(obj))
    return {name: concrete[name].pre_save(obj, False) for name in names}


def _update_statement(
    model: type[Model], where: dict[str, Any], values: dict[str, Any], alias: str
) -> Statement:
    _same_database(model, alias)
    connection = connections[alias]
    concrete = _concrete(model)
    params = [_db_value(concrete[name], value, connection) for name, value in values.items()]
    params += [
        concrete[name].get_db_prep_value(value, connection=connection)
        for name, value in where.items()
    ]
    return _update_sql(model, tuple(values), tuple(where), alias), params


def _insert_statement(rows: Sequence[Model], alias: str) -> Statement:
    """Return the INSERT of `rows` (one model) and its values, as Django's compiler sends them."""
    model = type(rows[0])
    if signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model):
        raise RuntimeError(
            f"{model.__name__} has a pre_save or post_save receiver that games.store would skip:"
            " save these rows with save(), or let the receiver's work be done by the listener."
        )
    _same_database(model, alias)
    connection = connections[alias]
    fields = _insert_fields(model)
    params = [
        _db_value(field, field.pre_save(row, True), connection) for row in rows for field in fields
    ]
    return _insert_sql(model, alias, len(rows)), params


def _db_value(field: Any, value: Any, connection: Any) -> Any:
    """Return `value` as the field sends it to the database (get_db_prep_save).

    Django's JSONField hands psycopg the standard library's encoder; the same JSON is written
    by orjson (games.jsontext) when the field has no encoder of its own: a move's state is
    the largest value it sends.
    """
    prepared = field.get_db_prep_save(value, connection=connection)
    if isinstance(prepared, Jsonb) and getattr(field, "encoder", None) is None:
        return Jsonb(prepared.obj, dumps=jsontext.dumps)
    return prepared


@functools.cache
def _concrete(model: type[Model]) -> dict[str, Any]:
    found = {f.name: f for f in model._meta.concrete_fields}
    found.update({f.attname: f for f in model._meta.concrete_fields})
    return found


_AUTO_KEYS = ("AutoField", "BigAutoField", "SmallAutoField")


def _insert_fields(model: type[Model]) -> list[Any]:
    """Return the fields an INSERT sends: all but a key the database numbers itself."""
    return [
        f
        for f in model._meta.concrete_fields
        if not (f.primary_key and f.get_internal_type() in _AUTO_KEYS)
    ]


@functools.cache
def _insert_sql(model: type[Model], alias: str, rows: int) -> str:
    quote = connections[alias].ops.quote_name
    fields = _insert_fields(model)
    columns = ", ".join(quote(field.column) for field in fields)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    table = quote(model._meta.db_table)
    return f"INSERT INTO {table} ({columns}) VALUES {', '.join([row] * rows)}"


@functools.cache
def _update_sql(
    model: type[Model], values: tuple[str, ...], where: tuple[str, ...], alias: str
) -> str:
    quote = connections[alias].ops.quote_name
    concrete = _concrete(model)
    assignments = ", ".join(f"{quote(concrete[name].column)} = %s" for name in values)
    table = quote(model._meta.db_table)
    conditions = " AND ".join(f"{table}.{quote(concrete[name].column)} = %s" for name in where)
    return f"UPDATE {table} SET {assignments} WHERE {conditions}"


@functools.cache
def _lock_sql(alias: str, seat_row: type[Model] | None) -> str:
    """Return the SQL that locks a table row and reads its seats, one row per seat."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    table, seat = quote(Table._meta.db_table), quote(Seat._meta.db_table)
    models: list[type[Model]] = [Table, Seat] + ([seat_row] if seat_row is not None else [])
    columns = ", ".join(
        f"{quote(model._meta.db_table)}.{quote(f.column)}"
        for model in models
        for f in model._meta.concrete_fields
    )
    joins = f" LEFT JOIN {seat} ON {seat}.{quote('table_id')} = {table}.{quote('id')}"
    if seat_row is not None:
        row_table = quote(seat_row._meta.db_table)
        key = seat_row._meta.get_field("seat")
        assert isinstance(key, OneToOneField), f"{seat_row.__name__}.seat is a one-to-one key"
        row_key = quote(key.column)
        joins += f" LEFT JOIN {row_table} ON {row_table}.{row_key} = {seat}.{quote('id')}"
    lock = f" FOR UPDATE OF {table}" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {columns} FROM {table}{joins} WHERE {table}.{quote('id')} = %s"
        f" ORDER BY {seat}.{quote('index')}{lock}"
    )


def _instances(models: list[type[Model]], row: Sequence[Any], alias: str) -> list[Model | None]:
    """Split a row of `_lock_sql` into one instance per model (None where its key is NULL)."""
    connection = connections[alias]
    made: list[Model | None] = []
    start = 0
    for model in models:
        attnames, pk_index = _columns(model)
        values = list(row[start : start + len(attnames)])
        start += len(attnames)
        if values[pk_index] is None:
            made.append(None)
            continue
        for index, converters, column in _converters(model, connection):
            value = values[index]
            for convert in converters:
                value = convert(value, column, connection)
            values[index] = value
        made.append(model.from_db(alias, attnames, values))
    return made


@functools.cache
def _columns(model: type[Model]) -> tuple[list[str], int]:
    """Return the model's concrete attnames (select order) and its primary key's index."""
    fields = model._meta.concrete_fields
    return [f.attname for f in fields], next(i for i, f in enumerate(fields) if f.primary_key)


@functools.cache
def _converters(model: type[Model], connection: Any) -> list[tuple[int, list[Any], Any]]:
    # What SQLCompiler.get_converters() finds for each selected column, per connection (a
    # backend's converters are methods of that thread's connection). Undocumented:
    # tests/unoclass/test_private_apis.py::test_django_db_converters_are_what_store_calls.
    found = []
    for index, field_ in enumerate(model._meta.concrete_fields):
        column = field_.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if converters:
            found.append((index, converters, column))
    return found


def sign(table_id: int, seat_index: int, now: datetime) -> bool:
    """Set a seat's last sign of its player (Seat.last_seen); False when it has no player.

    games.presence writes one every few frames of every open table link: one statement built
    once, as `QuerySet.update` would send it (no signal, no auto_now field).
    """
    alias = router.db_for_write(Seat)
    connection = connections[alias]
    value = _db_value(_concrete(Seat)["last_seen"], now, connection)
    with connection.cursor() as cursor:
        cursor.execute(_sign_sql(alias), [value, table_id, seat_index])
        return bool(cursor.rowcount)


@functools.cache
def _sign_sql(alias: str) -> str:
    quote = connections[alias].ops.quote_name
    concrete = _concrete(Seat)
    table = quote(Seat._meta.db_table)
    column = {
        name: quote(concrete[name].column) for name in ("last_seen", "table", "index", "user")
    }
    return (
        f"UPDATE {table} SET {column['last_seen']} = %s WHERE {column['table']} = %s "
        f"AND {column['index']} = %s AND {column['user']} IS NOT NULL"
    )


def latest_sign(user_id: int) -> Any:
    """Return a player's latest sign (Seat.last_seen) over all their seats, or None.

    games.presence asks it when a move's robot rules need to know whether a student is there
    (games.services): a move's one statement more, sent from here as every other of a move.
    """
    return Seat.objects.filter(user_id=user_id).aggregate(latest=Max("last_seen"))["latest"]
