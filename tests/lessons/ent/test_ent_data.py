"""What the ENT sign-in keeps, and for how long: the seen-pupil records and tickets are purged;
an erased or pseudonymised pupil keeps no ENT link; the privacy notice lists what is kept.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from lessons.ent.purge import ent_purge
from lessons.models import (
    ENT_SEEN_RETENTION_DAYS,
    EntConnector,
    EntIdentity,
    EntSeenPupil,
    EntSignIn,
)
from lessons.school.erasure import student_erase, student_pseudonymise
from tests.conftest import ClassWorld
from tests.e2e.security.access_matrix import MATRIX_CONNECTOR

pytestmark = pytest.mark.django_db


@pytest.fixture
def connector() -> EntConnector:
    return EntConnector.objects.create(
        name="ENT", server_url="https://ent.example.fr/cas/", **MATRIX_CONNECTOR
    )


def test_seen_pupils_and_old_tickets_are_purged_on_time(connector: EntConnector) -> None:
    now = timezone.now()
    old = now - timedelta(days=ENT_SEEN_RETENTION_DAYS, minutes=1)
    fresh = now - timedelta(days=ENT_SEEN_RETENTION_DAYS - 1)
    EntSeenPupil.objects.create(connector=connector, external_id="old", seen_at=old)
    EntSeenPupil.objects.create(connector=connector, external_id="fresh", seen_at=fresh)
    EntSignIn.objects.create(
        connector=connector, ticket_hash="a" * 64, created_at=now - timedelta(days=15)
    )
    EntSignIn.objects.create(connector=connector, ticket_hash="b" * 64, created_at=now)
    assert ent_purge(now=now) == (1, 1)
    assert list(EntSeenPupil.objects.values_list("external_id", flat=True)) == ["fresh"]
    assert list(EntSignIn.objects.values_list("ticket_hash", flat=True)) == ["b" * 64]


def test_the_daily_purge_command_forgets_them_with_apply_only(connector: EntConnector) -> None:
    old = timezone.now() - timedelta(days=ENT_SEEN_RETENTION_DAYS + 1)
    EntSeenPupil.objects.create(connector=connector, external_id="old", seen_at=old)
    call_command("purge_expired")
    assert EntSeenPupil.objects.exists()
    call_command("purge_expired", "--apply")
    assert not EntSeenPupil.objects.exists()


@pytest.mark.parametrize("remove", [student_erase, student_pseudonymise])
def test_an_erased_or_pseudonymised_pupil_keeps_no_ent_link(
    connector: EntConnector, class_a: ClassWorld, remove: object
) -> None:
    student = class_a.student.student
    user_id = student.user_id
    EntIdentity.objects.create(connector=connector, external_id="EDI-P-1", user_id=user_id)
    remove(student=student)  # type: ignore[operator]
    assert not EntIdentity.objects.filter(external_id="EDI-P-1").exists()


def test_the_privacy_notice_lists_what_the_ent_sign_in_keeps(db: None) -> None:
    for language, words in [
        ("fr", ["identifiant ENT", f"{ENT_SEEN_RETENTION_DAYS} jours"]),
        ("en", ["ENT id", f"{ENT_SEEN_RETENTION_DAYS} days"]),
    ]:
        page = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("privacy")).content.decode()
        for word in words:
            assert word in page, (language, word)
