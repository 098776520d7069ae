"""A teacher's ENT sign-in against the real CAS server: link once with the password, or a new
account when the school allows it; later sign-ins land signed in; the ENT's role decides.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from lessons.models import EntConnector, EntIdentity, EntSeenPupil, User
from tests.lessons.ent.flow import ent_sign_in, signed_in_user_id
from tests.support.cas.server import CasServer
from tests.support.factories import TEACHER_PASSWORD, make_teacher

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def test_first_sign_in_links_the_existing_account_after_its_password(
    cas: CasServer, edifice: EntConnector
) -> None:
    teacher = make_teacher(username="mcurie")
    client = Client()
    response = ent_sign_in(cas, client, edifice, "prof.edifice", next_url="/classrooms/new/")
    assert response.status_code == 302 and response["Location"] == reverse("ent_link")
    assert signed_in_user_id(client) is None  # not signed in before the password
    page = client.get(reverse("ent_link"))
    assert "Marie Curie" in page.content.decode()
    done = client.post(
        reverse("ent_link"), {"username": "mcurie", "password": TEACHER_PASSWORD, "confirm": "on"}
    )
    assert done.status_code == 302 and done["Location"] == "/classrooms/new/"
    assert signed_in_user_id(client) == teacher.pk
    identity = EntIdentity.objects.get(user=teacher)
    assert (identity.connector, identity.external_id) == (edifice, "EDI-T-0001")

    # Later: the ENT alone signs the teacher in, in a fresh browser.
    later = Client()
    again = ent_sign_in(cas, later, edifice, "prof.edifice")
    assert again.status_code == 302 and again["Location"] == reverse("home")
    assert signed_in_user_id(later) == teacher.pk
    assert EntIdentity.objects.count() == 1


def test_a_wrong_password_links_nothing_and_counts_toward_the_limit(
    cas: CasServer, edifice: EntConnector
) -> None:
    teacher = make_teacher(username="mcurie")
    client = Client()
    ent_sign_in(cas, client, edifice, "prof.edifice")
    for _attempt in range(10):
        wrong = client.post(
            reverse("ent_link"), {"username": "mcurie", "password": "nope", "confirm": "on"}
        )
        assert wrong.status_code == 200
    assert not EntIdentity.objects.exists()
    # The teacher login's limiter applies here too: the right password is now refused.
    blocked = client.post(
        reverse("ent_link"), {"username": "mcurie", "password": TEACHER_PASSWORD, "confirm": "on"}
    )
    assert "Too many failed sign-ins" in blocked.content.decode() or "Trop de connexions" in (
        blocked.content.decode()
    )
    assert not EntIdentity.objects.filter(user=teacher).exists()
    assert signed_in_user_id(client) is None


def test_a_new_account_is_created_only_when_the_school_allows_it(
    cas: CasServer, edifice: EntConnector
) -> None:
    client = Client()
    ent_sign_in(cas, client, edifice, "prof.edifice")
    refused = client.post(reverse("ent_link"), {"action": "create"})
    assert refused.status_code == 403
    assert not User.objects.exists()

    edifice.creates_teachers = True
    edifice.save()
    page = client.get(reverse("ent_link"))
    assert 'value="create"' in page.content.decode()
    created = client.post(reverse("ent_link"), {"action": "create"})
    assert created.status_code == 302
    user = User.objects.get()
    assert user.is_teacher and not user.has_usable_password()
    assert user.username == "marie-curie"
    assert EntIdentity.objects.get(user=user).external_id == "EDI-T-0001"
    assert signed_in_user_id(client) == user.pk


def test_the_gar_shape_over_cas_3_links_a_teacher(cas: CasServer, gar: EntConnector) -> None:
    teacher = make_teacher(username="hlamy")
    client = Client()
    ent_sign_in(cas, client, gar, "prof.gar")
    client.post(
        reverse("ent_link"), {"username": "hlamy", "password": TEACHER_PASSWORD, "confirm": "on"}
    )
    assert EntIdentity.objects.get(user=teacher).external_id == "GAR-ens-0003"
    assert signed_in_user_id(client) == teacher.pk


@pytest.mark.parametrize(
    ("connector_name", "username", "external_id"),
    [
        ("edifice", "eleve.edifice", "EDI-P-0002"),
        ("gar", "eleve.gar", "GAR-elv-0004"),
    ],
)
def test_the_ent_role_pupil_never_reaches_the_teacher_link(
    cas: CasServer,
    request: pytest.FixtureRequest,
    connector_name: str,
    username: str,
    external_id: str,
) -> None:
    connector = request.getfixturevalue(connector_name)
    make_teacher(username="mcurie")
    client = Client()
    response = ent_sign_in(cas, client, connector, username)
    assert response.status_code == 200
    assert signed_in_user_id(client) is None
    assert "ent_pending_link" not in client.session
    # The form cannot make a pupil a teacher: with no pending teacher link it refuses.
    link = client.post(reverse("ent_link"), {"username": "mcurie", "password": TEACHER_PASSWORD})
    assert link.status_code == 403
    assert not EntIdentity.objects.exists()
    assert EntSeenPupil.objects.get().external_id == external_id


def test_a_pupil_ent_account_linked_to_a_teacher_is_refused(
    cas: CasServer, edifice: EntConnector
) -> None:
    teacher = make_teacher(username="mcurie")
    EntIdentity.objects.create(connector=edifice, external_id="EDI-P-0002", user=teacher)
    client = Client()
    response = ent_sign_in(cas, client, edifice, "eleve.edifice")
    assert response.status_code == 403
    assert signed_in_user_id(client) is None


def test_a_parent_and_a_teacher_of_another_school_are_refused(
    cas: CasServer, edifice: EntConnector
) -> None:
    for username, words in [("parent.edifice", "Only teachers"), ("prof.autre", "another school")]:
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        response = ent_sign_in(cas, client, edifice, username)
        assert response.status_code == 403
        assert words in response.content.decode()
        assert signed_in_user_id(client) is None
    assert not EntIdentity.objects.exists() and not EntSeenPupil.objects.exists()


def test_a_deactivated_linked_teacher_is_refused(cas: CasServer, edifice: EntConnector) -> None:
    teacher = make_teacher(username="mcurie")
    EntIdentity.objects.create(connector=edifice, external_id="EDI-T-0001", user=teacher)
    User.objects.filter(pk=teacher.pk).update(is_active=False)
    client = Client()
    assert ent_sign_in(cas, client, edifice, "prof.edifice").status_code == 403
    assert signed_in_user_id(client) is None


def test_the_sign_in_page_has_one_ent_button_per_enabled_connector(
    cas: CasServer, edifice: EntConnector, gar: EntConnector
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    page = client.get(reverse("login"), {"next": "/classrooms/new/"}).content.decode()
    assert page.count(">Se connecter avec l’ENT\u202f: ") == 2  # one button each
    assert f'href="/ent/{edifice.pk}/login/?next=/classrooms/new/"' in page
    assert f'href="/ent/{gar.pk}/login/?next=/classrooms/new/"' in page
    EntConnector.objects.filter(pk=gar.pk).update(enabled=False)
    page = client.get(reverse("login")).content.decode()
    assert f"/ent/{gar.pk}/login/" not in page and f"/ent/{edifice.pk}/login/" in page
    EntConnector.objects.update(enabled=False)
    assert "/ent/" not in client.get(reverse("login")).content.decode()
