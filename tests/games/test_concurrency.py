"""Two actions for one table sent at the same moment: exactly one is applied."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections

from games.errors import TableError
from games.models import Table, TableEvent
from games.services import table_act
from tests.conftest import ClassWorld
from tests.games.helpers import FRACTIONS_SETUP, make_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_simultaneous_actions_apply_exactly_once(class_a: ClassWorld) -> None:
    users = [class_a.student.user, class_a.other_student.user]
    table = make_table(users, setup=FRACTIONS_SETUP)
    barrier = threading.Barrier(2)
    results: list[str] = []

    def act(action: dict) -> None:  # type: ignore[type-arg]
        barrier.wait()
        try:
            table_act(table_id=table.pk, user=users[1], action=action, state_id=0)
            results.append("applied")
        except TableError as exc:
            results.append(exc.code)
        finally:
            close_old_connections()

    threads = [
        threading.Thread(target=act, args=({"type": "play", "card": "4/12j"},)),
        threading.Thread(target=act, args=({"type": "draw"},)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(results) == ["applied", "stale_state"]
    table.refresh_from_db()
    assert table.state_id == 1
    assert TableEvent.objects.filter(table=table).count() == 1
    assert Table.objects.get(pk=table.pk).moves == 1
