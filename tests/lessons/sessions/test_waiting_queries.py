"""The waiting page, asked every few seconds by every waiting pupil, costs a few queries.

It plans the pending deal again (a restarted server): the pending deal is read in one query,
so a class of 30 waiting costs what a class of one does.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from lessons.models import WarmupRound
from lessons.sessions.services import session_join
from tests.lessons.sessions.helpers import at, class_of, start
from tests.support.factories import student_client

# Two for the sign-in (its session, its user), the student, the session, their membership and
# the pending deal.
WAITING_PAGE_QUERIES = 6


def _poll_queries(class_a: Any, pupils: int, **session: Any) -> int:
    """Let `pupils` join and wait; count the queries of one poll of the first one's page."""
    classroom, students = class_of(class_a.teacher, pupils)
    opened = start(class_a.teacher, classroom, **session)
    for student in students:
        session_join(session=opened, student=student, now=at(0))
    WarmupRound.objects.update(finished_at=at(1))  # answered: they wait to be seated
    client = student_client(students[0])
    url = reverse("session_play", args=[opened.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200 and 'id="waiting-check"' in response.content.decode()
    return len(queries.captured_queries)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("warmup", "most"),
    # A warm-up session also reads the pupil's round, and whether the class was seated once.
    [(False, WAITING_PAGE_QUERIES), (True, WAITING_PAGE_QUERIES + 2)],
)
def test_a_poll_costs_the_same_for_one_pupil_waiting_as_for_thirty(
    class_a: Any, warmup: bool, most: int
) -> None:
    one = _poll_queries(class_a, 1, warmup=warmup)
    assert one <= most
    assert _poll_queries(class_a, 30, warmup=warmup) == one
