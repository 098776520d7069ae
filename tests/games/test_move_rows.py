"""A move's writes done with less work: they store exactly what the ORM's own calls store."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import move_rows
from games.models import Table, TableEvent
from games.move_rows import (
    first_row,
    insert_one,
    read_row,
    save_then_insert,
    select_columns,
    update_then_insert,
)
from lessons.models import Attempt, MissedEquivalence
from tests.games.helpers import make_table

pytestmark = pytest.mark.django_db(transaction=True)

FOLDED = connection.vendor == "postgresql"


def _attempt_values(class_a: Any, table_id: int) -> dict[str, Any]:
    """Every column of an attempt, with JSON, None, accents and booleans among them."""
    return {
        "classroom_id": class_a.classroom.pk,
        "student_id": class_a.student.student.pk,
        "session_id": None,
        "table_id": table_id,
        "created_at": timezone.now(),
        "reference_num": 2,
        "reference_den": 3,
        "named_denominator": None,
        "played_num": 4,
        "played_den": 9,
        "card": "4/9b",
        "claim": "equal",
        "claim_source": "asked",
        "outcome": "wrong",
        "tags": ["M1"],
        "p0": 0.25,
        "opportunities": {"M1": 1, "M2": 0},
        "skills": {"équivalence": 1},
        "hand": ["1/2r", "4/9b"],
        "response_ms": 1830,
        "rules_version": "r1",
        "turn": 7,
        "reason": "",
        "drew": True,
    }


def _stored(table_id: int) -> list[dict[str, Any]]:
    columns = [f.attname for f in Attempt._meta.concrete_fields if not f.primary_key]
    return list(Attempt.objects.filter(table_id=table_id).order_by("id").values(*columns))


def test_insert_one_stores_what_create_stores_in_one_statement(
    class_a: Any, django_assert_num_queries: Any
) -> None:
    table = make_table([class_a.student.user, None])
    values = _attempt_values(class_a, table.pk)
    Attempt.objects.create(**values)
    with django_assert_num_queries(1):
        insert_one(Attempt(**values))
    by_create, by_insert_one = _stored(table.pk)
    assert by_insert_one == by_create
    assert by_insert_one["skills"] == {"équivalence": 1} and by_insert_one["session_id"] is None


def test_insert_one_stores_another_model_with_its_own_columns(class_a: Any) -> None:
    table = make_table([class_a.student.user, None])
    before = timezone.now()
    insert_one(
        MissedEquivalence(
            classroom_id=class_a.classroom.pk,
            student_id=class_a.student.student.pk,
            table_id=table.pk,
            created_at=before,
            reference="2/3",
            equal_cards=["4/6r"],
            rules_version="r1",
        )
    )
    (stored,) = MissedEquivalence.objects.filter(table_id=table.pk)
    assert stored.created_at == before and stored.equal_cards == ["4/6r"]


def test_update_then_insert_updates_only_the_filtered_rows_and_inserts_all(
    class_a: Any, django_assert_num_queries: Any
) -> None:
    table = make_table([class_a.student.user, None])
    values = _attempt_values(class_a, table.pk)
    for turn in (7, 7, 8):
        Attempt.objects.create(**(values | {"turn": turn, "drew": False}))
    new = [Attempt(**(values | {"turn": 9, "card": card})) for card in ("1/3r", "2/6b")]
    turn_seven = Attempt.objects.filter(table_id=table.pk, turn=7)
    # Inside the move's transaction, as in games.services and the attempt log.
    with transaction.atomic(), django_assert_num_queries(1 if FOLDED else 2):
        update_then_insert(turn_seven, {"drew": True}, new)
    stored = _stored(table.pk)
    assert [(row["turn"], row["drew"]) for row in stored] == [
        (7, True),
        (7, True),
        (8, False),
        (9, True),
        (9, True),
    ]
    assert [row["card"] for row in stored[3:]] == ["1/3r", "2/6b"]


def test_update_then_insert_with_no_new_rows_is_the_update_alone(
    class_a: Any, django_assert_num_queries: Any
) -> None:
    table = make_table([class_a.student.user, None])
    Attempt.objects.create(**(_attempt_values(class_a, table.pk) | {"drew": False}))
    with django_assert_num_queries(1):
        update_then_insert(Attempt.objects.filter(table_id=table.pk), {"drew": True}, [])
    assert [row["drew"] for row in _stored(table.pk)] == [True]


def test_save_then_insert_stores_the_row_and_the_new_rows_as_save_and_bulk_create_do(
    class_a: Any, django_assert_num_queries: Any
) -> None:
    table = make_table([class_a.student.user, None])
    other = make_table([class_a.other_student.user, None])
    table.refresh_from_db()
    before = table.updated_at
    table.state_id += 1
    table.moves += 2
    table.memo = {"seat_seq": {"0": 2}, "note": "élève"}
    events = [
        TableEvent(table=table, seq=seq, seat=0, actor="player", action={"type": "draw"},
                   result=[{"type": "drew", "seat": 0, "count": 1}])
        for seq in (1, 2)
    ]  # fmt: skip
    with transaction.atomic(), django_assert_num_queries(1 if FOLDED else 2):
        save_then_insert(table, ["state_id", "moves", "memo", "updated_at"], events)
    stored = Table.objects.get(pk=table.pk)
    assert (stored.state_id, stored.moves, stored.memo) == (1, 2, table.memo)
    assert stored.updated_at > before  # auto_now, as save() sets it
    assert Table.objects.get(pk=other.pk).state_id == 0  # only that row
    rows = list(TableEvent.objects.filter(table=table).order_by("seq"))
    assert [(e.seq, e.action, e.result) for e in rows] == [
        (1, {"type": "draw"}, [{"type": "drew", "seat": 0, "count": 1}]),
        (2, {"type": "draw"}, [{"type": "drew", "seat": 0, "count": 1}]),
    ]


def test_save_then_insert_with_no_new_rows_is_the_update_alone(
    class_a: Any, django_assert_num_queries: Any
) -> None:
    table = make_table([class_a.student.user, None])
    table.moves = 5
    with django_assert_num_queries(1):
        save_then_insert(table, ["moves"], [])
    assert Table.objects.get(pk=table.pk).moves == 5


def test_read_row_builds_the_instance_a_queryset_builds(class_a: Any) -> None:
    table = make_table([class_a.student.user, None])
    Table.objects.filter(pk=table.pk).update(memo={"note": "élève", "n": [1, 2]})
    sql = (
        f"SELECT {select_columns(Table, 'default')}, 42 FROM games_table WHERE games_table.id = %s"
    )
    found = read_row(Table, sql, [table.pk])
    assert found is not None
    read, extra = found
    expected = Table.objects.get(pk=table.pk)
    assert extra == (42,)
    for field in Table._meta.concrete_fields:  # JSON, dates and choices converted alike
        assert getattr(read, field.attname) == getattr(expected, field.attname), field.name
    assert read.memo == {"note": "élève", "n": [1, 2]} and read.updated_at.tzinfo is not None
    assert read_row(Table, sql, [table.pk + 1000]) is None


def _attempts_of(student_id: int, table_id: int) -> Any:
    return (
        Attempt.objects.filter(student_id=student_id, table_id=table_id)
        .order_by("-id")
        .values_list("turn", "outcome")
    )


def _attempts_swapped(table_id: int, student_id: int) -> Any:
    # Its parameters reach the SQL in the other order (student first): it cannot be cached.
    return _attempts_of(student_id, table_id)


def test_first_row_answers_as_the_queryset_and_compiles_its_sql_once(class_a: Any) -> None:
    table = make_table([class_a.student.user, None])
    student = class_a.student.student.pk
    assert first_row(Attempt, _attempts_of, student, table.pk) is None
    for turn, outcome in ((3, "wrong"), (4, "equal")):
        Attempt.objects.create(
            **_attempt_values(class_a, table.pk) | {"turn": turn, "outcome": outcome}
        )
    with CaptureQueriesContext(connection) as queries:
        found = first_row(Attempt, _attempts_of, student, table.pk)
    assert found == _attempts_of(student, table.pk).first() == (4, "equal")
    assert len(queries) == 1 and (_attempts_of, "default") in move_rows._first_sql
    assert first_row(Attempt, _attempts_of, student, table.pk + 1000) is None


def test_first_row_does_not_cache_sql_whose_parameters_it_cannot_place(class_a: Any) -> None:
    table = make_table([class_a.student.user, None])
    student = class_a.student.student.pk
    Attempt.objects.create(**_attempt_values(class_a, table.pk))
    # In the other order, and with equal values (which one went where?): run as the ORM runs.
    assert first_row(Attempt, _attempts_swapped, table.pk, student) == (7, "wrong")
    assert first_row(Attempt, _attempts_swapped, table.pk, student) == (7, "wrong")
    assert first_row(Attempt, _attempts_swapped, table.pk + 1000, student) is None
    assert (_attempts_swapped, "default") not in move_rows._first_sql
    same = student
    assert first_row(Attempt, _attempts_of, same, same) == _attempts_of(same, same).first()
