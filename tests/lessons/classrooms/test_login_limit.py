"""The per-account teacher password limit, as a unit: the 11th guess is refused, and every
spelling Django signs in as the same account (NFKC, case) shares one counter."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from lessons.classrooms import login_limit
from lessons.classrooms.login_limit import LimitedAuthenticationForm
from tests.support.factories import TEACHER_PASSWORD, make_teacher

pytestmark = pytest.mark.django_db


def _form(username: str, password: str, address: str = "10.1.1.1") -> LimitedAuthenticationForm:
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=address)
    return LimitedAuthenticationForm(request, data={"username": username, "password": password})


def test_the_eleventh_guess_is_refused_even_with_the_right_password() -> None:
    make_teacher(username="victimprof")
    assert login_limit.ACCOUNT_FAILURE_LIMIT == 10
    for number in range(10):
        # Each guess from its own address: only the account's counter can stop the 11th.
        assert not _form("victimprof", "wrong-password", f"10.2.0.{number}").is_valid()
    eleventh = _form("victimprof", TEACHER_PASSWORD, "10.2.1.1")
    assert not eleventh.is_valid()
    assert [e.code for e in eleventh.non_field_errors().as_data()] == ["login_blocked"]


def test_the_tenth_guess_still_signs_in_with_the_right_password() -> None:
    make_teacher(username="victimprof")
    for number in range(9):
        assert not _form("victimprof", "wrong-password", f"10.2.0.{number}").is_valid()
    assert _form("victimprof", TEACHER_PASSWORD, "10.2.1.1").is_valid()


@pytest.mark.parametrize(
    "variant", ["ｖictimprof", "VictimProf", " victimprof ", "ＶＩＣＴＩＭＰＲＯＦ"]
)
def test_look_alike_spellings_count_on_the_same_account(variant: str) -> None:
    make_teacher(username="victimprof")
    for number in range(login_limit.ACCOUNT_FAILURE_LIMIT):
        assert not _form("victimprof", "wrong-password", f"10.3.0.{number}").is_valid()
    assert not _form(variant, TEACHER_PASSWORD, "10.3.1.1").is_valid()


def test_forty_guesses_through_four_variants_are_blocked_after_ten() -> None:
    make_teacher(username="victimprof")
    variants = ["victimprof", "ｖictimprof", "vｉctimprof", "victimproｆ"]
    for number in range(login_limit.ACCOUNT_FAILURE_LIMIT):
        _form(variants[number % 4], "wrong-password", f"10.4.0.{number}").is_valid()
    for variant in variants:
        assert not _form(variant, TEACHER_PASSWORD, "10.4.1.1").is_valid()


def test_the_fullwidth_variant_is_refused_through_the_sign_in_page() -> None:
    make_teacher(username="victimprof")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    url = reverse("login")
    for number in range(login_limit.ACCOUNT_FAILURE_LIMIT):
        client.post(
            url, {"username": "victimprof", "password": "no"}, REMOTE_ADDR=f"10.5.0.{number}"
        )
    # Django would sign "ｖictimprof" in as victimprof: the limit holds for it too.
    answer = client.post(
        url, {"username": "ｖictimprof", "password": TEACHER_PASSWORD}, REMOTE_ADDR="10.5.1.1"
    )
    assert answer.status_code == 200 and "_auth_user_id" not in client.session
    assert login_limit.BLOCKED["en"] in answer.content.decode()
