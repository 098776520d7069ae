"""The school admin's first steps (issue 21, point 11).

Every management command runs with the README's environment or says what is missing (no
traceback); the admin lands on a home that leads to /school/; an invitation without a name
reads well.
"""

from __future__ import annotations

import os

import pytest
from django.test import Client
from django.urls import reverse

from lessons.models import User
from tests.support.factories import make_teacher
from tests.support.live import manage
from tests.support.responses import page_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin() -> User:
    user = make_teacher(username="direction")
    User.objects.filter(pk=user.pk).update(is_staff=True)
    user.refresh_from_db()
    return user


def _env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return {**env, **values}


def test_a_command_without_its_environment_says_what_is_missing() -> None:
    done = manage("create_school_admin", "--help", env=_env())
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "SECRET_KEY" in done.stderr and "DEBUG=1" in done.stderr


def test_a_command_runs_with_the_readmes_environment() -> None:
    done = manage("create_school_admin", "--help", env=_env(DEBUG="1"))
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


def test_the_admin_lands_on_a_home_that_leads_to_the_school_page(admin: User) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(admin)
    html = client.get(reverse("home")).content.decode()
    school = reverse("school_admin")
    assert f'href="{school}"' in html
    assert "Open the school administration" in html
    teacher = make_teacher(username="not_admin")
    client.force_login(teacher)
    assert f'href="{school}"' not in client.get(reverse("home")).content.decode()


def test_an_invitation_without_a_name_reads_well(admin: User) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(admin)
    client.post(reverse("school_invite"), {"note": ""})
    text = page_text(client.get(reverse("school_admin")))
    assert "—:" not in text
    assert "An invitation without a name" in text
