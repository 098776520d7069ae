"""The ENT sign-in's security against the real CAS server: a ticket is checked by the configured
server only and used once, the service URL is the fixed callback with the sign-in's state,
`next` stays local, single sign-out ends the session, a homonym cannot take a linked account,
and the sign-in limits apply (the state itself: test_sign_in_state.py).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
import requests
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from lessons.classrooms import sign_in_limit
from lessons.ent.client import logout_sender_allowed
from lessons.ent.tickets import ticket_hash
from lessons.models import EntConnector, EntIdentity, EntSignIn
from tests.lessons.ent.conftest import make_connector
from tests.lessons.ent.flow import (
    callback_url,
    ent_sign_in,
    local,
    signed_in_user_id,
    started_state,
)
from tests.support.cas.server import CasServer, ticket_of
from tests.support.cas.users import SCHOOL_UAI
from tests.support.factories import TEACHER_PASSWORD, make_teacher

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

# What django-cas-server posts (cas_server.utils.logout_request), with the ticket in it.
LOGOUT_REQUEST = (
    '<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" '
    'xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="x1" Version="2.0" '
    'IssueInstant="2026-11-26T10:00:00Z"><saml:NameID xmlns:saml="urn:oasis:names:tc:SAML:2.0:'
    'assertion"></saml:NameID><samlp:SessionIndex>{ticket}</samlp:SessionIndex>'
    "</samlp:LogoutRequest>"
)


@pytest.fixture
def linked(edifice: EntConnector) -> EntIdentity:
    """Marie Curie's teacher account, linked to her ENT id EDI-T-0001."""
    teacher = make_teacher(username="mcurie")
    return EntIdentity.objects.create(connector=edifice, external_id="EDI-T-0001", user=teacher)


def test_a_replayed_ticket_is_refused_and_the_first_sign_in_stands(
    cas: CasServer, linked: EntIdentity
) -> None:
    first = Client()
    url = callback_url(cas, first, linked.connector, "prof.edifice")
    assert first.get(local(url)).status_code == 302
    assert signed_in_user_id(first) == linked.user_id
    for replayer in (first, Client(HTTP_ACCEPT_LANGUAGE="en")):
        again = replayer.get(local(url))
        assert again.status_code == 400
    assert "already used" in again.content.decode()
    assert signed_in_user_id(first) == linked.user_id
    assert EntSignIn.objects.count() == 1


def test_a_forged_ticket_is_refused_by_the_server(cas: CasServer, linked: EntIdentity) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    state = started_state(client, linked.connector)
    response = client.get(
        reverse("ent_callback", args=[linked.connector_id]),
        {"ticket": "ST-forged-0123456789", "state": state},
    )
    assert response.status_code == 403
    assert "did not confirm" in response.content.decode()
    assert signed_in_user_id(client) is None


def test_a_ticket_issued_for_another_connector_is_refused(
    cas: CasServer, linked: EntIdentity
) -> None:
    other = make_connector(cas.url, "edifice", school_uai=SCHOOL_UAI)
    client = Client()
    url = callback_url(cas, client, other, "prof.edifice")  # issued for other's service URL
    state = started_state(client, linked.connector)
    response = client.get(
        reverse("ent_callback", args=[linked.connector_id]),
        {"ticket": ticket_of(url), "state": state},
    )
    assert response.status_code == 403
    assert signed_in_user_id(client) is None


def test_a_ticket_is_checked_with_the_configured_server_only(
    cas: CasServer, linked: EntIdentity
) -> None:
    # A connector whose server is elsewhere: a genuine ticket of the test server means nothing.
    elsewhere = make_connector("http://127.0.0.1:9/cas/", "edifice", school_uai=SCHOOL_UAI)
    client = Client()
    state = started_state(client, elsewhere)
    with requests.Session() as browser:
        service = f"http://testserver/ent/{elsewhere.pk}/callback/?state={state}"
        url = cas.sign_in(browser, service, "prof.edifice")
    response = client.get(local(url))
    assert response.status_code == 403
    assert signed_in_user_id(client) is None


def test_the_service_url_is_the_fixed_callback_and_a_state_whatever_the_host_and_next(
    cas: CasServer, linked: EntIdentity
) -> None:
    client = Client(HTTP_HOST="localhost")
    start = client.get(
        reverse("ent_login", args=[linked.connector_id]), {"next": "https://evil.example/"}
    )
    query = parse_qs(urlparse(start["Location"]).query)
    assert start["Location"].startswith(cas.url + "login?")
    service = urlparse(query["service"][0])
    assert service._replace(query="").geturl() == (
        f"http://testserver/ent/{linked.connector_id}/callback/"
    )
    assert list(parse_qs(service.query)) == ["state"]  # the only thing a sign-in adds
    assert "evil" not in query["service"][0]


@pytest.mark.parametrize(
    ("next_url", "landing"),
    [
        ("/classrooms/new/", "/classrooms/new/"),
        ("https://evil.example/", "/"),
        ("//evil.example/x", "/"),
        ("/\\evil.example", "/"),
        ("javascript:alert(1)", "/"),
    ],
)
def test_next_must_be_a_local_path(
    cas: CasServer, linked: EntIdentity, next_url: str, landing: str
) -> None:
    client = Client()
    response = ent_sign_in(cas, client, linked.connector, "prof.edifice", next_url=next_url)
    assert response.status_code == 302 and response["Location"] == landing


def test_a_homonym_never_reaches_the_linked_account(cas: CasServer, linked: EntIdentity) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    # homonyme.edifice is "Marie Curie" too, with another ENT id.
    response = ent_sign_in(cas, client, linked.connector, "homonyme.edifice")
    assert response["Location"] == reverse("ent_link")
    assert signed_in_user_id(client) is None
    # Even with Marie's password, her account keeps its one link.
    tried = client.post(
        reverse("ent_link"),
        {"username": "mcurie", "password": TEACHER_PASSWORD, "confirm": "on"},
    )
    assert "already linked" in tried.content.decode()
    assert signed_in_user_id(client) is None
    assert list(EntIdentity.objects.values_list("external_id", flat=True)) == ["EDI-T-0001"]


def test_single_sign_out_ends_the_session_the_ticket_opened(
    cas: CasServer, linked: EntIdentity
) -> None:
    client, other_device = Client(), Client()
    url = callback_url(cas, client, linked.connector, "prof.edifice")
    client.get(local(url))
    ent_sign_in(cas, other_device, linked.connector, "prof.edifice")
    assert Session.objects.count() == 2
    slo = Client()  # the ENT's server: no cookie, no CSRF token
    answer = slo.post(
        reverse("ent_callback", args=[linked.connector_id]),
        {"logoutRequest": LOGOUT_REQUEST.format(ticket=ticket_of(url))},
    )
    assert answer.status_code == 200
    assert signed_in_user_id(client) is None
    assert client.get(reverse("password_change")).status_code == 302  # signed out
    assert signed_in_user_id(other_device) == linked.user_id  # another sign-in stays
    assert not EntSignIn.objects.get(ticket_hash=ticket_hash(ticket_of(url))).session_key


def test_single_sign_out_from_anyone_but_the_cas_server_ends_nothing(
    cas: CasServer, linked: EntIdentity
) -> None:
    """Issue 32 §10: a used ticket (a shared PC's history, a proxy log) signed its session out."""
    client = Client()
    url = callback_url(cas, client, linked.connector, "prof.edifice")
    assert client.get(local(url)).status_code == 302
    body = {"logoutRequest": LOGOUT_REQUEST.format(ticket=ticket_of(url))}
    for path in ("ent_callback", "ent_logout"):
        stranger = Client(REMOTE_ADDR="203.0.113.40")
        assert stranger.post(reverse(path, args=[linked.connector_id]), body).status_code == 200
    assert signed_in_user_id(client) == linked.user_id
    # Another connector's server (another ENT) cannot end this connector's sign-ins either.
    other = make_connector(cas.url, "gar", school_uai=SCHOOL_UAI)
    Client().post(reverse("ent_logout", args=[other.pk]), body)
    assert signed_in_user_id(client) == linked.user_id
    # The CAS server's own address (127.0.0.1 here) does.
    Client(REMOTE_ADDR="127.0.0.1").post(reverse("ent_logout", args=[linked.connector_id]), body)
    assert signed_in_user_id(client) is None


@pytest.mark.parametrize(
    "body",
    [
        "",
        "not xml",
        LOGOUT_REQUEST.format(ticket="ST-unknown"),
        "<x>" * 10_000,
        '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
    ],
)
def test_a_bad_logout_request_ends_nothing(cas: CasServer, linked: EntIdentity, body: str) -> None:
    client = Client()
    ent_sign_in(cas, client, linked.connector, "prof.edifice")
    answer = Client().post(
        reverse("ent_logout", args=[linked.connector_id]), {"logoutRequest": body}
    )
    assert answer.status_code == 200
    assert signed_in_user_id(client) == linked.user_id


def _forged(client: Client, connector: EntConnector, ticket: str) -> int:
    """Bring a forged ticket to a callback this client started; return the status."""
    state = started_state(client, connector)
    callback = reverse("ent_callback", args=[connector.pk])
    return int(client.get(callback, {"ticket": ticket, "state": state}).status_code)


def test_a_locked_address_refuses_new_devices_not_known_ones(
    cas: CasServer, linked: EntIdentity
) -> None:
    known = Client()
    assert ent_sign_in(cas, known, linked.connector, "prof.edifice").status_code == 302
    stranger = sign_in_limit.Client.from_address("127.0.0.1")
    for _failure in range(sign_in_limit.RULES["ent"].address_limit):
        sign_in_limit.failure("ent", stranger)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = ent_sign_in(cas, client, linked.connector, "prof.edifice")
    assert response.status_code == 429
    assert signed_in_user_id(client) is None
    # The device that signed in with this ENT before still does (its cookie says so).
    assert ent_sign_in(cas, known, linked.connector, "prof.edifice").status_code == 302
    assert signed_in_user_id(known) == linked.user_id


def test_forged_tickets_lock_their_device_not_the_school(
    cas: CasServer, linked: EntIdentity
) -> None:
    """Issue 32 §3: 52 forged tickets blocked every teacher's password and ENT sign-in."""
    limit = sign_in_limit.RULES["ent"].device_limit
    forger = Client()
    for number in range(limit):
        assert _forged(forger, linked.connector, f"ST-forged-{number}") == 403
    assert _forged(forger, linked.connector, "ST-forged-last") == 429
    # More forgers at the school's address, each under its own limit: 52 in all.
    for device in range(5):
        other = Client()
        for number in range(limit - 1):
            assert _forged(other, linked.connector, f"ST-forged-{device}-{number}") == 403
    # A teacher's first sign-in from the school, by ENT or by password, still goes through.
    teacher = Client()
    assert ent_sign_in(cas, teacher, linked.connector, "prof.edifice").status_code == 302
    assert signed_in_user_id(teacher) == linked.user_id
    password = Client().post(reverse("login"), {"username": "mcurie", "password": TEACHER_PASSWORD})
    assert password.status_code == 302


def test_a_disabled_connector_signs_nobody_in(cas: CasServer, linked: EntIdentity) -> None:
    client = Client()
    url = callback_url(cas, client, linked.connector, "prof.edifice")
    EntConnector.objects.filter(pk=linked.connector_id).update(enabled=False)
    assert client.get(reverse("ent_login", args=[linked.connector_id])).status_code == 403
    assert client.get(local(url)).status_code == 403
    assert signed_in_user_id(client) is None


def test_an_http_server_is_refused_unless_allowed(
    cas: CasServer, linked: EntIdentity, settings: object
) -> None:
    settings.ENT_ALLOW_HTTP = False  # type: ignore[attr-defined]
    client = Client()
    assert client.get(reverse("ent_login", args=[linked.connector_id])).status_code == 403
    callback = reverse("ent_callback", args=[linked.connector_id])
    assert client.get(callback, {"ticket": "ST-1"}).status_code == 403
    assert not EntSignIn.objects.exists()  # nothing sent to the server


@pytest.mark.parametrize("query", [{}, {"ticket": ""}, {"ticket": "x" * 300}])
def test_a_missing_or_oversized_ticket_is_refused(
    cas: CasServer, linked: EntIdentity, query: dict[str, str]
) -> None:
    response = Client().get(reverse("ent_callback", args=[linked.connector_id]), query)
    assert response.status_code == 400
    assert not EntSignIn.objects.exists()


def test_an_unknown_connector_is_not_found(db: None) -> None:
    client = Client()
    assert client.get(reverse("ent_login", args=[999])).status_code == 404
    assert client.get(reverse("ent_callback", args=[999]), {"ticket": "ST-1"}).status_code == 404
    assert client.post(reverse("ent_logout", args=[999])).status_code == 404
    assert client.get(reverse("ent_logout", args=[999])).status_code == 405


def test_the_link_page_without_a_pending_ent_sign_in_is_refused(db: None) -> None:
    response = Client().post(reverse("ent_link"), {"username": "x", "password": "y"})
    assert response.status_code == 403


@pytest.mark.django_db
def test_the_cas_servers_back_channel_is_known_by_any_spelling_of_its_address(
    settings: Settings,
) -> None:
    """A dual-stack daphne sees the CAS server's IPv4 address as ::ffff:a.b.c.d."""
    settings.ENT_LOGOUT_ADDRESSES = ["2001:db8::53"]
    connector = make_connector("https://127.0.0.1:8443/cas/", "edifice")
    senders = {
        "127.0.0.1": True,
        "::ffff:127.0.0.1": True,
        "2001:db8:0:0::53": True,
        "127.0.0.2": False,
        "::ffff:127.0.0.2": False,
        "2001:db8::54": False,
        "": False,
        "localhost": False,
    }
    assert {sender: logout_sender_allowed(connector, sender) for sender in senders} == senders
