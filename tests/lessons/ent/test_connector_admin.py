"""The school admin's ENT connectors: presets fill the names, bad input is refused and changes
nothing, connectors turn on and off, and `check --deploy` warns of a plain-http server.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.checks import run_checks
from django.urls import reverse
from pytest_django.fixtures import Settings

from lessons.ent.checks import ent_servers_use_https
from lessons.models import EntConnector, User
from tests.e2e.security.access_matrix import MATRIX_CONNECTOR
from tests.support.factories import make_teacher, signed_in_client
from tests.support.responses import form_errors, page_text

pytestmark = pytest.mark.django_db

GOOD: dict[str, Any] = {
    "name": "ENT Île-de-France",
    "server_url": "https://ent.example.fr/cas/",
    "protocol": "2",
    "preset": "edifice",
    "school_uai": "0751234a",
    "enabled": "on",
}


@pytest.fixture
def admin() -> User:
    user = make_teacher(username="direction")
    User.objects.filter(pk=user.pk).update(is_staff=True)
    user.refresh_from_db()
    return user


def test_the_edifice_preset_fills_the_attribute_names(admin: User) -> None:
    client = signed_in_client(admin, "en")
    response = client.post(reverse("school_ent_new"), GOOD)
    assert response.status_code == 302
    connector = EntConnector.objects.get()
    assert (
        connector.id_attribute,
        connector.name_attribute,
        connector.role_attribute,
        connector.classes_attribute,
        connector.school_attribute,
    ) == ("externalId", "displayName", "profile", "classes", "uai")
    assert connector.teacher_role_values == {"Teacher"}
    assert connector.pupil_role_values == {"Student"}
    assert connector.school_uai == "0751234A"
    assert not connector.creates_teachers
    page = page_text(client.get(reverse("school_admin")))
    assert f"http://testserver/ent/{connector.pk}/callback/" in page or (
        f"/ent/{connector.pk}/callback/" in page
    )


def test_the_gar_preset_fills_the_gar_names_and_typed_names_are_kept(admin: User) -> None:
    client = signed_in_client(admin, "en")
    data = {**GOOD, "preset": "gar", "protocol": "3", "name_attribute": "NOM"}
    assert client.post(reverse("school_ent_new"), data).status_code == 302
    connector = EntConnector.objects.get()
    assert connector.protocol == 3
    assert (connector.id_attribute, connector.role_attribute, connector.classes_attribute) == (
        "IDO",
        "PRO",
        "DIV",
    )
    assert connector.school_attribute == "UAI"
    assert connector.name_attribute == "NOM"
    assert connector.pupil_role_values == {"National_elv"}
    assert "National_ens" in connector.teacher_role_values


@pytest.mark.parametrize(
    ("changes", "field_words"),
    [
        ({"server_url": "http://ent.example.fr/cas/"}, "https://"),
        ({"server_url": "ftp://ent.example.fr/cas/"}, "https://"),
        ({"server_url": "https://ent.example.fr/cas/?x=1"}, "query"),
        ({"server_url": "not a url"}, "URL"),
        ({"server_url": ""}, "required"),
        ({"protocol": "4"}, "valid choice"),
        ({"protocol": "deux"}, "valid choice"),
        ({"preset": "moodle"}, "valid choice"),
        ({"preset": "custom"}, "preset that fills it"),
        (
            {
                "preset": "custom",
                "id_attribute": "x",
                "name_attribute": "y",
                "role_attribute": "z",
                "classes_attribute": "c",
                "school_attribute": "u",
                "teacher_roles": "T",
                "pupil_roles": " , ",
            },
            "preset that fills it",
        ),
        ({"id_attribute": "<script>"}, "letters, digits"),
        ({"id_attribute": "a" * 65}, "at most 64"),
        ({"pupil_roles": "Teacher"}, "both teacher and pupil"),
        ({"school_uai": "75012"}, "seven digits"),
        ({"name": ""}, "required"),
        ({"name": "x" * 81}, "at most 80"),
    ],
)
def test_bad_connector_input_is_refused_and_changes_nothing(
    admin: User, changes: dict[str, str], field_words: str
) -> None:
    client = signed_in_client(admin, "en")
    response = client.post(reverse("school_ent_new"), {**GOOD, **changes})
    assert response.status_code == 400
    assert any(field_words in error for error in form_errors(response)), form_errors(response)
    assert not EntConnector.objects.exists()


def test_an_http_server_is_accepted_only_where_the_settings_allow_it(
    admin: User, settings: Settings
) -> None:
    settings.ENT_ALLOW_HTTP = True
    client = signed_in_client(admin, "en")
    data = {**GOOD, "server_url": "http://127.0.0.1:9000/cas/"}
    assert client.post(reverse("school_ent_new"), data).status_code == 302


def test_editing_and_turning_off_a_connector(admin: User) -> None:
    client = signed_in_client(admin, "en")
    client.post(reverse("school_ent_new"), GOOD)
    connector = EntConnector.objects.get()
    edit = reverse("school_ent_edit", args=[connector.pk])
    assert client.get(edit).status_code == 200
    changed = {**GOOD, "name": "ONE école", "creates_teachers": "on"}
    assert client.post(edit, changed).status_code == 302
    connector.refresh_from_db()
    assert connector.name == "ONE école" and connector.creates_teachers
    bad = client.post(edit, {**changed, "server_url": "http://x.example/"})
    assert bad.status_code == 400
    connector.refresh_from_db()
    assert connector.server_url == GOOD["server_url"]
    toggle = reverse("school_ent_enabled", args=[connector.pk])
    client.post(toggle, {"enabled": "0"})
    connector.refresh_from_db()
    assert not connector.enabled
    client.post(toggle, {"enabled": "maybe"})
    connector.refresh_from_db()
    assert not connector.enabled
    client.post(toggle, {"enabled": "1"})
    connector.refresh_from_db()
    assert connector.enabled


def test_only_the_school_admin_reaches_the_connector_pages(admin: User) -> None:
    client = signed_in_client(admin, "en")
    client.post(reverse("school_ent_new"), GOOD)
    connector = EntConnector.objects.get()
    teacher = signed_in_client(make_teacher(username="prof"), "en")
    for url in (
        reverse("school_ent_new"),
        reverse("school_ent_edit", args=[connector.pk]),
    ):
        assert teacher.get(url).status_code == 403
    assert (
        teacher.post(
            reverse("school_ent_enabled", args=[connector.pk]), {"enabled": "0"}
        ).status_code
        == 403
    )
    connector.refresh_from_db()
    assert connector.enabled
    assert client.get(reverse("school_ent_edit", args=[999])).status_code == 404


def test_check_deploy_warns_of_an_enabled_plain_http_connector(settings: Settings) -> None:
    EntConnector.objects.create(
        name="Old ENT", server_url="http://ent.example.fr/cas/", **MATRIX_CONNECTOR
    )
    settings.DEBUG = False
    warnings = ent_servers_use_https(None)
    assert [w.id for w in warnings] == ["unoclass.ent.W001"]
    assert "Old ENT" in warnings[0].msg
    assert any(w.id == "unoclass.ent.W001" for w in run_checks(include_deployment_checks=True))
    EntConnector.objects.update(enabled=False)
    assert ent_servers_use_https(None) == []
    EntConnector.objects.update(enabled=True)
    settings.DEBUG = True
    assert ent_servers_use_https(None) == []


def test_changing_the_preset_replaces_the_names_it_had_filled(admin: User) -> None:
    client = signed_in_client(admin, "en")
    client.post(reverse("school_ent_new"), {**GOOD, "name_attribute": "cn"})
    connector = EntConnector.objects.get()
    edit = reverse("school_ent_edit", args=[connector.pk])
    names = ("id_attribute", "name_attribute", "role_attribute", "classes_attribute",
             "school_attribute", "teacher_roles", "pupil_roles")  # fmt: skip
    form = {**GOOD, "preset": "gar", "protocol": "3"}
    form.update({name: getattr(connector, name) for name in names})
    assert client.post(edit, form).status_code == 302
    connector.refresh_from_db()
    assert (connector.id_attribute, connector.role_attribute) == ("IDO", "PRO")
    assert connector.pupil_roles == "National_elv"
    assert connector.name_attribute == "cn"  # typed by the admin: kept
