"""Each page runs a fixed number of queries, whatever the number of students or attempts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from lessons.models import ClassSession, SessionMember
from tests.conftest import ClassWorld
from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_miss, log_plays
from tests.support.factories import make_students, student_client, teacher_client
from tests.support.responses import body_of

pytestmark = pytest.mark.django_db

# Queries per page, request overhead included (session and user: 2).
# The class dashboard: + classroom, window, students, rows, trend (2), missed, versions, plans,
# the learning curves' rows.
CLASS_DASHBOARD_QUERIES = 12
STUDENT_PAGE_QUERIES = 9  # + classroom, student, window, history, window rows, missed, plans
SESSION_PAGE_QUERIES = 8  # + classroom, session, rows, members with students, missed, changes
REPORT_QUERIES = 7  # + student with classroom, window, history, window rows, missed
EXPORT_STUDENTS_QUERIES = 12  # + classroom, totals, missed, then the class dashboard's 7


def _play(world: ClassWorld, extra_students: int, sessions: int) -> ClassSession:
    """Let every student of the class play `sessions` sessions; return the last one."""
    if extra_students:
        make_students(
            classroom=world.classroom, names=[f"Extra {i}" for i in range(extra_students)]
        )
    students = list(world.classroom.students.all())
    session = None
    for index in range(sessions):
        start = timezone.now() - timedelta(days=sessions - index)
        session = ClassSession.objects.create(classroom=world.classroom, started_at=start)
        for student in students:
            SessionMember.objects.create(session=session, student=student)
            log_plays(student, M1_PLAYS + RIGHT_PLAYS, session=session, start=start)
            log_miss(student, "1/2", ["3/6"], session=session)
    assert session is not None
    return session


@pytest.mark.parametrize(("extra_students", "sessions"), [(0, 1), (4, 3)])
def test_query_counts_do_not_grow_with_the_class(
    class_a: ClassWorld,
    django_assert_num_queries: DjangoAssertNumQueries,
    extra_students: int,
    sessions: int,
) -> None:
    session = _play(class_a, extra_students, sessions)
    classroom = class_a.classroom
    student = class_a.student.student
    teacher = teacher_client(class_a.teacher)
    pages = [
        (reverse("dashboard_class", args=[classroom.pk]), CLASS_DASHBOARD_QUERIES),
        (reverse("dashboard_student", args=[classroom.pk, student.pk]), STUDENT_PAGE_QUERIES),
        (reverse("dashboard_session", args=[classroom.pk, session.pk]), SESSION_PAGE_QUERIES),
        # + the group plans whose family note the report links to
        (reverse("report_student", args=[classroom.pk, student.pk]), REPORT_QUERIES + 2),
    ]
    for url, expected in pages:
        with django_assert_num_queries(expected):
            assert teacher.get(url).status_code == 200
    own = student_client(student)
    with django_assert_num_queries(REPORT_QUERIES):
        assert own.get(reverse("report_me")).status_code == 200
    with django_assert_num_queries(EXPORT_STUDENTS_QUERIES):
        response = teacher.get(reverse("export_students", args=[classroom.pk]))
        body_of(response)


def test_attempt_export_streams_in_chunks(
    class_a: ClassWorld, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    _play(class_a, 2, 2)
    teacher = teacher_client(class_a.teacher)
    with django_assert_max_num_queries(5):  # 4, and the group plans' marker rows (one query)
        response = teacher.get(reverse("export_attempts", args=[class_a.classroom.pk]))
        assert len(body_of(response).splitlines()) == 1 + 4 * 2 * 7
