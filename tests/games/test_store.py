"""games.store: the lock reads what querysets read, on the write database; the move's writes
store exactly what the ORM's own calls store, in one statement on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.db.models.signals import post_save, pre_save
from django.test.utils import CaptureQueriesContext, override_settings
from django.utils import timezone

from games.models import Seat, Table, TableEvent
from games.store import Insert, Update, lock, store
from lessons.models import Attempt, MissedEquivalence, SeatStudent
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


def test_an_insert_stores_what_create_stores_in_one_statement(
    class_a: Any, django_assert_num_queries: Any
) -> None:
    table = make_table([class_a.student.user, None])
    values = _attempt_values(class_a, table.pk)
    Attempt.objects.create(**values)
    with django_assert_num_queries(1):
        store(writes=[Insert(Attempt(**values))])
    by_create, by_store = _stored(table.pk)
    assert by_store == by_create
    assert by_store["skills"] == {"équivalence": 1} and by_store["session_id"] is None


def test_an_insert_of_another_model_with_its_own_columns(class_a: Any) -> None:
    table = make_table([class_a.student.user, None])
    before = timezone.now()
    store(
        writes=[
            Insert(
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
        ]
    )
    (stored,) = MissedEquivalence.objects.filter(table_id=table.pk)
    assert stored.created_at == before and stored.equal_cards == ["4/6r"]


def test_an_insert_keeps_a_key_that_is_not_numbered_by_the_database(class_a: Any) -> None:
    table = make_table([class_a.student.user, None])
    seat = Seat.objects.get(table=table, index=0)
    store(
        writes=[
            Insert(
                SeatStudent(
                    seat_id=seat.pk,
                    user_id=class_a.student.user.pk,
                    student_id=class_a.student.student.pk,
                    classroom_id=class_a.classroom.pk,
                    open_turn=3,
                )
            )
        ]
    )
    assert SeatStudent.objects.get(seat=seat).open_turn == 3


def test_an_update_sets_only_the_matching_rows(class_a: Any) -> None:
    table = make_table([class_a.student.user, None])
    values = _attempt_values(class_a, table.pk)
    for turn in (7, 7, 8):
        Attempt.objects.create(**(values | {"turn": turn, "drew": False}))
    where = {"student_id": class_a.student.student.pk, "table_id": table.pk, "turn": 7}
    store(writes=[Update(Attempt, where, {"drew": True})])
    assert [(row["turn"], row["drew"]) for row in _stored(table.pk)] == [
        (7, True),
        (7, True),
        (8, False),
    ]


def test_a_move_is_stored_as_save_and_bulk_create_store_it(
    class_a: Any, django_assert_num_queries: Any
) -> None:
    table = make_table([class_a.student.user, None])
    other = make_table([class_a.other_student.user, None])
    table.refresh_from_db()
    before = table.updated_at
    table.state_id += 1
    table.moves += 2
    table.last_moves = {"0": 2}
    events = [
        TableEvent(table=table, seq=seq, seat=0, actor="player", action={"type": "draw"},
                   result=[{"type": "drew", "seat": 0, "count": 1, "name": "élève"}])
        for seq in (1, 2)
    ]  # fmt: skip
    attempt = Attempt(**_attempt_values(class_a, table.pk))
    # Inside the move's transaction, as in games.services.
    with transaction.atomic(), django_assert_num_queries(1 if FOLDED else 3):
        store(
            table=table,
            fields=["state_id", "moves", "last_moves", "updated_at"],
            events=events,
            writes=[Insert(attempt)],
        )
    stored = Table.objects.get(pk=table.pk)
    assert (stored.state_id, stored.moves, stored.last_moves) == (1, 2, {"0": 2})
    assert stored.updated_at > before  # auto_now, as save() sets it
    assert Table.objects.get(pk=other.pk).state_id == 0  # only that row
    rows = list(TableEvent.objects.filter(table=table).order_by("seq"))
    assert [(e.seq, e.action, e.result) for e in rows] == [
        (seq, {"type": "draw"}, [{"type": "drew", "seat": 0, "count": 1, "name": "élève"}])
        for seq in (1, 2)
    ]
    assert len(_stored(table.pk)) == 1


def test_the_table_alone_is_one_statement(class_a: Any, django_assert_num_queries: Any) -> None:
    table = make_table([class_a.student.user, None])
    table.moves = 5
    with django_assert_num_queries(1):
        store(table=table, fields=["moves"])
    assert Table.objects.get(pk=table.pk).moves == 5


def test_the_lock_reads_the_instances_a_queryset_reads(
    class_a: Any, django_assert_num_queries: Any
) -> None:
    table = make_table([class_a.student.user, None, class_a.other_student.user])
    Table.objects.filter(pk=table.pk).update(last_moves={"0": 1, "note": "élève"})
    seat = Seat.objects.get(table=table, index=2)
    SeatStudent.objects.create(
        seat=seat,
        user=class_a.other_student.user,
        student=class_a.other_student.student,
        classroom=class_a.classroom,
        open_turn=4,
    )
    with transaction.atomic(), django_assert_num_queries(1):
        locked = lock(table.pk, SeatStudent)
    assert locked is not None
    expected = Table.objects.get(pk=table.pk)
    for field in Table._meta.concrete_fields:  # JSON, dates and choices converted alike
        assert getattr(locked.table, field.attname) == getattr(expected, field.attname), field
    assert locked.table.updated_at.tzinfo is not None
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    assert [s.index for s in locked.seats] == [0, 1, 2]
    for read, queried in zip(locked.seats, seats, strict=True):
        for field in Seat._meta.concrete_fields:
            assert getattr(read, field.attname) == getattr(queried, field.attname), field
        assert read.table is locked.table  # a public FK assignment, no query
    assert list(locked.seat_rows) == [2]
    row = locked.seat_rows[2]
    assert isinstance(row, SeatStudent) and (row.seat_id, row.open_turn) == (seat.pk, 4)
    assert lock(table.pk + 1000) is None


class _ReplicaRouter:
    """Reads go to the replica, writes to the primary (a school's read replica)."""

    def db_for_read(self, model: Any, **hints: Any) -> str:
        return "replica"

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return "default"


@pytest.fixture
def replica() -> Iterator[str]:
    """A second database alias, an empty SQLite database: a read sent there finds no table."""
    connections.settings["replica"] = {
        **connections.settings["default"],
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": ":memory:",
        "TEST": {"NAME": ":memory:"},
        "OPTIONS": {},
    }
    try:
        yield "replica"
    finally:
        connections["replica"].close()
        del connections["replica"]
        del connections.settings["replica"]


def test_the_locking_read_goes_to_the_write_database(class_a: Any, replica: str) -> None:
    from django.db import router

    table = make_table([class_a.student.user, None])
    with (
        override_settings(DATABASE_ROUTERS=[_ReplicaRouter()]),
        transaction.atomic(),
        CaptureQueriesContext(connection) as primary,
    ):
        assert router.db_for_read(Table) == replica  # the router is in force
        # A read sent to the replica fails: the test forbids that alias, and it has no table.
        locked = lock(table.pk, SeatStudent)
    assert locked is not None and locked.table.pk == table.pk
    assert len(primary) == 1 and "games_table" in primary[0]["sql"]
    if connection.features.has_select_for_update_of:
        assert "FOR UPDATE" in primary[0]["sql"]


def test_an_insert_refuses_a_model_with_a_save_receiver(class_a: Any) -> None:
    """A receiver connected to a model the move inserts would be skipped: the move fails."""
    table = make_table([class_a.student.user, None])
    heard: list[Any] = []

    def receiver(**kwargs: Any) -> None:
        heard.append(kwargs)

    for signal in (post_save, pre_save):
        signal.connect(receiver, sender=Attempt)
        try:
            with pytest.raises(RuntimeError, match="receiver"):
                store(writes=[Insert(Attempt(**_attempt_values(class_a, table.pk)))])
        finally:
            signal.disconnect(receiver, sender=Attempt)
    assert _stored(table.pk) == []
