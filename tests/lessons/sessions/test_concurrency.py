"""Several requests deal the same waiting students at the same moment: they are seated once."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections

from games.models import Seat
from lessons.models import SessionMember, SessionTable
from lessons.sessions.services import SETTLE_SECONDS, session_seat_due
from tests.conftest import ClassWorld
from tests.lessons.sessions.helpers import at, class_of, join_all, start

pytestmark = pytest.mark.django_db(transaction=True)


def test_simultaneous_deals_seat_every_student_once(class_a: ClassWorld) -> None:
    classroom, students = class_of(class_a.teacher, 8)
    session = start(class_a.teacher, classroom)
    join_all(session, students)
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def deal() -> None:
        barrier.wait()
        try:
            session_seat_due(session=session, now=at(SETTLE_SECONDS))
        except BaseException as exc:  # reported below, with the thread's own error
            errors.append(exc)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=deal) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert SessionTable.objects.filter(session=session).count() == 2
    assert not SessionMember.objects.filter(session=session, table__isnull=True).exists()
    for student in students:
        assert Seat.objects.filter(user=student.user).count() == 1
