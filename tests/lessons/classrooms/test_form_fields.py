"""Form fields say one clear thing, next to the box it is about (issue 11.13).

The PIN: one message in one tone, whatever is wrong with it. The password rules: right after the
password box, in an element a <p> does not break, named by the box's aria-describedby.
"""

from __future__ import annotations

import re
from typing import cast

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from tests.conftest import ClassWorld
from tests.support.factories import make_teacher, teacher_client
from tests.support.responses import form_errors

pytestmark = pytest.mark.django_db

PIN_MESSAGE = {
    "fr": "Ton code secret a exactement 4 chiffres.",
    "en": "Your PIN has exactly 4 digits.",
}


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("pin", ["", "12", "12345", "abcd", "12a4", "1" * 500])
def test_a_malformed_pin_gets_one_message(class_a: ClassWorld, language: str, pin: str) -> None:
    url = reverse("join_pin", args=[class_a.classroom.join_code, class_a.student.student.pk])
    response = Client().post(url, {"pin": pin}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert form_errors(cast(HttpResponse, response)) == [PIN_MESSAGE[language]]


def test_a_wrong_pin_gets_one_message(class_a: ClassWorld) -> None:
    url = reverse("join_pin", args=[class_a.classroom.join_code, class_a.student.student.pk])
    response = Client().post(url, {"pin": "0000"}, HTTP_ACCEPT_LANGUAGE="en")
    (message,) = form_errors(cast(HttpResponse, response))
    assert message.startswith("Wrong PIN.")


def test_the_pin_box_still_takes_four_digits_at_most(class_a: ClassWorld) -> None:
    url = reverse("join_pin", args=[class_a.classroom.join_code, class_a.student.student.pk])
    html = Client().get(url).content.decode()
    box = re.search(r"<input[^>]*name=\"pin\"[^>]*>", html)
    assert box is not None and 'maxlength="4"' in box.group(0)


def _field_block(html: str, name: str) -> tuple[str, str]:
    """Return a field's <input> tag and what follows it up to the next field."""
    match = re.search(
        rf'(<input[^>]*name="{name}"[^>]*>)(.*?)(?=<div class="field|</form>)', html, re.S
    )
    assert match is not None, name
    return match.group(1), match.group(2)


def _assert_rules_next_to_the_box(html: str, name: str, rule: str) -> None:
    box, after = _field_block(html, name)
    help_id = f"id_{name}_helptext"
    described = re.search(r'aria-describedby="([^"]*)"', box)
    assert described is not None and help_id in described.group(1).split()
    # The rules come right after the box, in a <div> that holds the whole list.
    block = re.match(rf'\s*<div class="help" id="{help_id}">(.*?)</div>', after, re.S)
    assert block is not None, after[:200]
    assert "<ul>" in block.group(1) and rule in block.group(1)
    # No paragraph holds a list (the browser would close it before the list).
    assert not re.search(r"<p\b[^>]*>(?:(?!</p>).)*<ul", html, re.S)


@pytest.mark.parametrize(
    ("language", "rule"),
    [("fr", "au minimum 8 caractères"), ("en", "at least 8 characters")],
)
def test_signup_password_rules_sit_under_the_password_box(language: str, rule: str) -> None:
    html = Client().get(reverse("signup"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    _assert_rules_next_to_the_box(html, "password1", rule)


def test_signup_errors_and_rules_are_both_described() -> None:
    response = Client().post(
        reverse("signup"),
        {"username": "newteacher", "password1": "123", "password2": "123"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    html = response.content.decode()
    box, _after = _field_block(html, "password2")
    described = re.search(r'aria-describedby="([^"]*)"', box)
    assert described is not None
    assert {"id_password2_helptext", "id_password2_error"} <= set(described.group(1).split())
    assert 'id="id_password2_error"' in html


def test_password_change_rules_sit_under_the_new_password_box() -> None:
    client = teacher_client(make_teacher())
    html = client.get(reverse("password_change"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    _assert_rules_next_to_the_box(html, "new_password1", "at least 8 characters")


def test_session_form_checkboxes_come_before_their_labels(class_a: ClassWorld) -> None:
    client = teacher_client(class_a.teacher)
    url = reverse("session_new", kwargs={"classroom_id": class_a.classroom.pk})
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    check = re.search(
        r'<div class="field field--check">\s*<span class="field__check">'
        r'<input type="checkbox" name="accessible"[^>]*> <label for="id_accessible">',
        html,
    )
    assert check is not None
    assert re.search(r'<input type="number" name="table_size"', html)
