"""The school admin: teachers (deactivate, invite), sign-up by invitation, retention period."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from lessons.models import SchoolPolicy, TeacherInvitation, User
from lessons.notices.retention import retention_in_force
from tests.conftest import ClassWorld
from tests.support.factories import TEACHER_PASSWORD, make_teacher, signed_in_client
from tests.support.responses import form_errors, page_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin() -> User:
    user = make_teacher(username="direction")
    User.objects.filter(pk=user.pk).update(is_staff=True)
    user.refresh_from_db()
    return user


def test_create_school_admin_makes_a_teacher_who_reaches_the_school_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SCHOOL_ADMIN_PASSWORD", TEACHER_PASSWORD)
    call_command("create_school_admin", "direction")
    user = User.objects.get(username="direction")
    assert user.is_teacher and user.is_staff and user.check_password(TEACHER_PASSWORD)
    assert signed_in_client(user, "en").get(reverse("school_admin")).status_code == 200
    monkeypatch.setenv("SCHOOL_ADMIN_PASSWORD", "1234")
    with pytest.raises(CommandError):
        call_command("create_school_admin", "other")
    assert not User.objects.filter(username="other").exists()


def test_a_teacher_is_not_a_school_admin(class_a: ClassWorld) -> None:
    assert signed_in_client(class_a.teacher, "en").get(reverse("school_admin")).status_code == 403


def test_a_deactivated_teacher_cannot_sign_in_and_their_lone_class_is_listed(
    admin: User, class_a: ClassWorld
) -> None:
    url = reverse("school_teacher_active", args=[class_a.teacher.pk])
    assert signed_in_client(admin, "en").post(url, {"active": "0"}).status_code == 302
    class_a.teacher.refresh_from_db()
    assert not class_a.teacher.is_active
    assert not Client().login(username="teacher_A", password=TEACHER_PASSWORD)
    page = page_text(signed_in_client(admin, "en").get(reverse("school_admin")))
    assert "Classe A (teacher_A)" in page
    signed_in_client(admin, "en").post(url, {"active": "1"})
    assert Client().login(username="teacher_A", password=TEACHER_PASSWORD)


def test_an_admin_cannot_deactivate_themselves(admin: User) -> None:
    url = reverse("school_teacher_active", args=[admin.pk])
    response = signed_in_client(admin, "en").post(url, {"active": "0"}, follow=True)
    assert "You cannot deactivate your own account." in page_text(response)
    admin.refresh_from_db()
    assert admin.is_active


@pytest.mark.parametrize("teacher_id", [999999])
def test_deactivating_an_unknown_teacher_is_404(admin: User, teacher_id: int) -> None:
    url = reverse("school_teacher_active", args=[teacher_id])
    assert signed_in_client(admin, "en").post(url, {"active": "0"}).status_code == 404


def test_a_student_account_cannot_be_deactivated_as_a_teacher(
    admin: User, class_a: ClassWorld
) -> None:
    url = reverse("school_teacher_active", args=[class_a.student.user.pk])
    assert signed_in_client(admin, "en").post(url, {"active": "0"}).status_code == 404


def test_sign_up_by_invitation_only_needs_a_valid_unused_link(
    admin: User, settings: Settings
) -> None:
    settings.TEACHER_SIGNUP = "invitation"
    closed = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("signup"))
    assert closed.status_code == 403 and "Sign-up by invitation only" in page_text(closed)
    signed_in_client(admin, "en").post(reverse("school_invite"), {"note": "Mme Martin"})
    invitation = TeacherInvitation.objects.get()
    assert invitation.token in page_text(signed_in_client(admin, "en").get(reverse("school_admin")))
    url = f"{reverse('signup')}?invite={invitation.token}"
    data = {"username": "martin", "password1": TEACHER_PASSWORD, "password2": TEACHER_PASSWORD}
    assert Client().post(url, data).status_code == 302
    invitation.refresh_from_db()
    assert invitation.used_by == User.objects.get(username="martin")
    # Once only.
    again = {**data, "username": "martin2"}
    assert Client().post(url, again).status_code == 403
    assert not User.objects.filter(username="martin2").exists()


def test_an_expired_invitation_is_refused(admin: User, settings: Settings) -> None:
    settings.TEACHER_SIGNUP = "invitation"
    signed_in_client(admin, "en").post(reverse("school_invite"), {"note": ""})
    invitation = TeacherInvitation.objects.get()
    TeacherInvitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert Client().get(f"{reverse('signup')}?invite={invitation.token}").status_code == 403
    assert Client().get(f"{reverse('signup')}?invite=forged").status_code == 403


def test_open_sign_up_needs_no_invitation(settings: Settings) -> None:
    settings.TEACHER_SIGNUP = "open"
    assert Client().get(reverse("signup")).status_code == 200


def test_the_retention_period_is_set_and_stated_in_the_notice(admin: User) -> None:
    response = signed_in_client(admin, "en").post(reverse("school_policy"), {"months": "6"})
    assert response.status_code == 302
    assert SchoolPolicy.objects.get().retention_months == 6
    assert retention_in_force() is not None and retention_in_force().months == 6  # type: ignore[union-attr]


@pytest.mark.parametrize("months", ["0", "-1", "37", "abc", "", "3.5"])
def test_a_bad_retention_period_is_refused_and_changes_nothing(admin: User, months: str) -> None:
    SchoolPolicy.objects.create(retention_months=3)
    for language in ("en", "fr"):
        response = signed_in_client(admin, language).post(
            reverse("school_policy"), {"months": months}
        )
        assert response.status_code == 200
        assert form_errors(response), (months, language)
    assert SchoolPolicy.objects.get().retention_months == 3


def test_an_over_long_invitation_note_is_refused(admin: User) -> None:
    signed_in_client(admin, "en").post(reverse("school_invite"), {"note": "x" * 81})
    assert not TeacherInvitation.objects.exists()
