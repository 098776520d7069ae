"""purge_expired: time moved forward, a dry run, other classes untouched, a second run idle."""

from __future__ import annotations

import io
import logging
from datetime import datetime
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from games.models import Seat, TableEvent
from lessons.attempts.seat_students import seat_students_write
from lessons.models import (
    Attempt,
    Classroom,
    MissedEquivalence,
    SchoolPolicy,
    SeatStudent,
    Student,
    User,
)
from lessons.school.purge import classes_expired, purge_expired
from lessons.school.retention import classroom_expires_at, months_later, school_year_end_after
from tests.conftest import ClassWorld
from tests.lessons.school.helpers import plays_make, row_counts, texts_with
from tests.support.responses import page_text

pytestmark = pytest.mark.django_db


def _at(day: str) -> datetime:
    return timezone.make_aware(datetime.fromisoformat(day))


def _dates(world: ClassWorld, *, created: str, archived: str | None) -> None:
    Classroom.objects.filter(pk=world.classroom.pk).update(
        created_at=_at(created), archived_at=_at(archived) if archived else None
    )
    world.classroom.refresh_from_db()


def _class_rows(world: ClassWorld) -> list[int]:
    classroom = world.classroom
    return row_counts(
        Student.objects.filter(classroom=classroom),
        User.objects.filter(student__classroom=classroom),
        Attempt.objects.filter(classroom=classroom),
        MissedEquivalence.objects.filter(classroom=classroom),
        Seat.objects.filter(user__student__classroom=classroom),
        TableEvent.objects.filter(table__lesson_table__session__classroom=classroom),
    )


@pytest.fixture
def two_years(class_a: ClassWorld, class_b: ClassWorld) -> tuple[ClassWorld, ClassWorld]:
    """Class A archived on 20 June 2025; class B of the next school year, not archived."""
    plays_make(class_a)
    plays_make(class_b)
    _dates(class_a, created="2024-09-02 08:00", archived="2025-06-20 17:00")
    _dates(class_b, created="2025-09-01 08:00", archived=None)
    return class_a, class_b


def test_expiry_is_the_retention_after_archiving_or_after_the_school_year(
    settings: Settings,
) -> None:
    settings.SCHOOL_YEAR_END = "07-07"
    archived = Classroom(created_at=_at("2024-09-02"), archived_at=_at("2025-06-20 17:00"))
    assert classroom_expires_at(archived, months=3) == _at("2025-09-20 17:00")
    never_archived = Classroom(created_at=_at("2024-09-02"), archived_at=None)
    assert classroom_expires_at(never_archived, months=3) == _at("2025-10-07 23:59:59")
    # Archived long after its year ended: the year's end came first.
    late = Classroom(created_at=_at("2024-09-02"), archived_at=_at("2025-12-01"))
    assert classroom_expires_at(late, months=3) == _at("2025-10-07 23:59:59")
    assert school_year_end_after(_at("2025-07-08 09:00")) == _at("2026-07-07 23:59:59")
    # The whole last day belongs to the school year ending that night; the next day does not.
    assert school_year_end_after(_at("2025-07-07 09:00")) == _at("2025-07-07 23:59:59")
    assert school_year_end_after(_at("2025-07-06 23:00")) == _at("2025-07-07 23:59:59")
    assert months_later(_at("2025-01-31"), 1) == _at("2025-02-28")
    assert months_later(_at("2025-11-30"), 3) == _at("2026-02-28")


def test_dry_run_lists_the_expired_class_and_changes_nothing(
    two_years: tuple[ClassWorld, ClassWorld],
) -> None:
    class_a, class_b = two_years
    before = _class_rows(class_a), _class_rows(class_b)
    out = io.StringIO()
    with mock.patch("django.utils.timezone.now", return_value=_at("2025-09-21")):
        call_command("purge_expired", stdout=out)
    assert f"would purge class {class_a.classroom.pk} (Classe A): 2 pupils, erase" in out.getvalue()
    assert "Dry run: nothing was changed" in out.getvalue()
    assert str(class_b.classroom.pk) + " (" not in out.getvalue()
    assert (_class_rows(class_a), _class_rows(class_b)) == before
    assert texts_with("AnaïsA")


def test_nothing_expires_before_the_retention_period_ends(
    two_years: tuple[ClassWorld, ClassWorld],
) -> None:
    class_a, _ = two_years
    assert classes_expired(now=_at("2025-09-20 16:59")) == []
    before = _class_rows(class_a)
    assert purge_expired(apply=True, now=_at("2025-09-20 16:59")) == []
    assert _class_rows(class_a) == before


def test_apply_erases_the_expired_class_only_and_a_second_run_does_nothing(
    two_years: tuple[ClassWorld, ClassWorld],
) -> None:
    class_a, class_b = two_years
    b_before = _class_rows(class_b)
    b_texts = texts_with("AnaïsB")
    pin_hash = class_a.student.student.pin_hash
    out = io.StringIO()
    with mock.patch("django.utils.timezone.now", return_value=_at("2025-09-21")):
        call_command("purge_expired", "--apply", stdout=out)
    assert f"purged class {class_a.classroom.pk}" in out.getvalue()
    assert _class_rows(class_a) == [0, 0, 0, 0, 0, 1]  # the table's event stays, nameless
    for name in ("AnaïsA", "BasileA"):
        assert texts_with(name) == []
    assert texts_with(pin_hash) == []
    assert _class_rows(class_b) == b_before
    assert texts_with("AnaïsB") == b_texts
    class_a.classroom.refresh_from_db()
    assert class_a.classroom.purged_at == _at("2025-09-21")
    # Idempotent: the next day's run finds nothing and changes nothing.
    again = io.StringIO()
    with mock.patch("django.utils.timezone.now", return_value=_at("2025-09-22")):
        call_command("purge_expired", "--apply", stdout=again)
    assert "Nothing has expired." in again.getvalue()
    class_a.classroom.refresh_from_db()
    assert class_a.classroom.purged_at == _at("2025-09-21")
    assert _class_rows(class_b) == b_before


def test_a_class_never_archived_goes_after_the_school_year_and_is_archived(
    two_years: tuple[ClassWorld, ClassWorld],
) -> None:
    _, class_b = two_years
    assert [c.classroom_id for c in classes_expired(now=_at("2026-10-07 23:00"))] == [
        two_years[0].classroom.pk
    ]
    purge_expired(apply=True, now=_at("2026-10-08"))
    class_b.classroom.refresh_from_db()
    assert class_b.classroom.purged_at == _at("2026-10-08")
    assert class_b.classroom.archived_at == _at("2026-10-08")  # read-only from now on
    assert not Student.objects.filter(classroom=class_b.classroom).exists()


def test_keeping_research_data_pseudonymises_names_and_pins_but_keeps_plays(
    two_years: tuple[ClassWorld, ClassWorld],
) -> None:
    class_a, _ = two_years
    SchoolPolicy.objects.create(retention_months=3, keep_pseudonymised=True)
    attempts = Attempt.objects.filter(classroom=class_a.classroom).count()
    purged = purge_expired(apply=True, now=_at("2025-09-21"))
    assert [(c.classroom_id, c.mode, c.students) for c in purged] == [
        (class_a.classroom.pk, "pseudonymise", 2)
    ]
    assert Attempt.objects.filter(classroom=class_a.classroom).count() == attempts
    names = set(
        Student.objects.filter(classroom=class_a.classroom).values_list("display_name", "pin_hash")
    )
    assert names == {("Élève retiré 1", ""), ("Élève retiré 2", "")}
    for name in ("AnaïsA", "BasileA"):
        assert texts_with(name) == []
    assert purge_expired(apply=True, now=_at("2025-09-22")) == []


def test_the_school_policy_months_decide(two_years: tuple[ClassWorld, ClassWorld]) -> None:
    class_a, _ = two_years
    SchoolPolicy.objects.create(retention_months=1)
    assert [c.classroom_id for c in classes_expired(now=_at("2025-07-21"))] == [
        class_a.classroom.pk
    ]


def test_the_purge_logs_no_name(
    two_years: tuple[ClassWorld, ClassWorld], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        purge_expired(apply=True, now=_at("2025-09-21"))
    assert "purged class" in caplog.text
    assert "AnaïsA" not in caplog.text and "BasileA" not in caplog.text


def test_the_privacy_notice_states_the_schools_retention(db: None) -> None:
    SchoolPolicy.objects.create(retention_months=6)
    text = page_text(Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("privacy")))
    assert "plays automatically 6 months after their class is archived" in text
    assert "erases nothing automatically" not in text


@pytest.mark.parametrize("keep_pseudonymised", [False, True])
def test_a_purged_class_leaves_no_seat_facts(
    two_years: tuple[ClassWorld, ClassWorld], keep_pseudonymised: bool
) -> None:
    """The attempt log's seat facts (SeatStudent) name the pupil: the purge takes them too."""
    class_a, class_b = two_years
    for world in (class_a, class_b):
        for table in {
            s.table_id for s in Seat.objects.filter(user__student__classroom=world.classroom)
        }:
            seat_students_write(table_id=table)
    assert SeatStudent.objects.filter(classroom=class_a.classroom).exists()
    SchoolPolicy.objects.create(retention_months=3, keep_pseudonymised=keep_pseudonymised)
    purge_expired(apply=True, now=_at("2025-09-21"))
    students = Student.objects.filter(
        pk__in=[class_a.student.student.pk, class_a.other_student.student.pk]
    )
    assert not SeatStudent.objects.filter(classroom=class_a.classroom).exists()
    assert not SeatStudent.objects.filter(student__in=students).exists()
    assert SeatStudent.objects.filter(classroom=class_b.classroom).exists()  # not expired
