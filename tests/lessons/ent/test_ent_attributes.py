"""Hostile ENT attributes (issue 32 §9), against the real CAS server: a role holding both a
teacher's and a pupil's value is refused with a clear page and makes nothing (no link to make,
no account, no pupil waiting); names and class names lose their bidi and other invisible
characters and are cleaned as typed names are, before anything stores or shows them.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from lessons.ent.profile import ent_text_clean, profile_from_answer
from lessons.models import EntConnector, EntIdentity, EntSeenPupil, User
from tests.lessons.ent.flow import ent_sign_in, signed_in_user_id
from tests.support.cas.server import CasServer
from tests.support.factories import make_classroom, make_teacher

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

INVISIBLE = ("\u202e", "\u202c", "\u200b", "\u200f", "\u00a0")


@pytest.mark.parametrize(
    ("connector_name", "username"),
    [("edifice", "double.edifice"), ("gar", "double.gar")],
)
def test_a_role_with_both_values_is_refused_and_makes_nothing(
    cas: CasServer, request: pytest.FixtureRequest, connector_name: str, username: str
) -> None:
    connector: EntConnector = request.getfixturevalue(connector_name)
    connector.creates_teachers = True  # even where an unknown teacher would get an account
    connector.save()
    for language, words in [("en", "both a teacher and a pupil"), ("fr", "à la fois")]:
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        response = ent_sign_in(cas, client, connector, username)
        assert response.status_code == 403
        assert words in response.content.decode()
        assert signed_in_user_id(client) is None
        assert "ent_pending_link" not in client.session
        assert client.post(reverse("ent_link"), {"action": "create"}).status_code == 403
    assert not User.objects.exists()
    assert not EntIdentity.objects.exists()
    assert not EntSeenPupil.objects.exists()


def test_a_pupils_name_and_classes_lose_their_bidi_controls(
    cas: CasServer, edifice: EntConnector
) -> None:
    teacher = make_teacher(username="prof")
    classroom = make_classroom(teacher=teacher, name="CM2 A")
    client = Client()
    assert ent_sign_in(cas, client, edifice, "bidi.edifice").status_code == 200
    seen = EntSeenPupil.objects.get()
    assert seen.display_name == "Léa NITRAM"
    assert seen.classes == ["CM2 A"]
    teacher_client = Client()
    teacher_client.force_login(teacher)
    page = teacher_client.get(reverse("ent_matching", args=[classroom.pk])).content.decode()
    assert "Léa NITRAM" in page
    assert not any(char in page for char in INVISIBLE[:4])


def test_a_teachers_name_loses_its_bidi_controls_on_the_link_page(
    cas: CasServer, edifice: EntConnector
) -> None:
    edifice.creates_teachers = True
    edifice.save()
    client = Client()
    ent_sign_in(cas, client, edifice, "bidi.prof")
    page = client.get(reverse("ent_link")).content.decode()
    assert "eiruC eiraM" in page and "\u202e" not in page
    client.post(reverse("ent_link"), {"action": "create"})
    assert User.objects.get().username == "eiruc-eiram"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Léa \u202eNITRAM\u202c", "Léa NITRAM"),
        ("\u200bMarie\u200d Curie\u2066", "Marie Curie"),
        ("Marie\u00a0\u00a0Curie", "Marie Curie"),
        ("Marie\tCurie\n", "Marie Curie"),
        ("\u202e\u202c", ""),
        ("Élodie N’Diaye", "Élodie N’Diaye"),
    ],
)
def test_ent_text_is_cleaned_as_typed_names_are(raw: str, clean: str) -> None:
    assert ent_text_clean(raw) == clean


def test_an_id_with_invisible_characters_is_no_usable_id(edifice: EntConnector) -> None:
    attributes: dict[str, object] = {"externalId": "EDI-T-0001\u202e", "profile": "Teacher"}
    assert profile_from_answer(edifice, "x", attributes) is None
    attributes["externalId"] = "EDI-T-0001"
    profile = profile_from_answer(edifice, "x", attributes)
    assert profile is not None and profile.role == "teacher" and not profile.role_ambiguous
