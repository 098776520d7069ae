"""A callback belongs to the sign-in this browser started (issue 32 §1), against the real CAS
server: the attacker's ticket URL opened in the victim's browser is refused and changes
nothing; a tampered, missing, reused, expired or other connector's state is refused before
the ticket is claimed or sent to the ENT; the link page names the ENT account's own id and
links only once the teacher confirms what will happen.
"""

from __future__ import annotations

import pytest
import requests
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from lessons.ent import states
from lessons.models import EntConnector, EntIdentity, EntSignIn
from tests.lessons.ent.conftest import make_connector
from tests.lessons.ent.flow import (
    callback_url,
    ent_sign_in,
    local,
    signed_in_user_id,
    started_state,
    with_query,
)
from tests.support.cas.server import CasServer, ticket_of
from tests.support.cas.users import SCHOOL_UAI
from tests.support.factories import TEACHER_PASSWORD, make_teacher

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

REFUSED = "not started in this browser"


def _sessions() -> dict[str, str]:
    return {row.session_key: row.session_data for row in Session.objects.all()}


def test_the_attackers_ticket_url_in_the_victims_browser_is_refused_and_changes_nothing(
    cas: CasServer, edifice: EntConnector
) -> None:
    victim = make_teacher(username="mcurie")
    # The attacker (an ENT teacher account of their own) stops before their own callback.
    attacker = Client()
    url = callback_url(cas, attacker, edifice, "homonyme.edifice")
    # The victim, signed in to unoclass with their password, opens the link they were sent.
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert browser.login(username="mcurie", password=TEACHER_PASSWORD)
    before = _sessions()
    opened = browser.get(local(url))
    assert opened.status_code == 400
    assert REFUSED in opened.content.decode()
    assert signed_in_user_id(browser) == victim.pk  # still signed in as themself
    assert "ent_pending_link" not in browser.session
    assert _sessions() == before  # no session changed, none added
    assert not EntSignIn.objects.exists()  # the ticket was neither claimed nor validated
    # Nothing to link on the link page either, even with the victim's password.
    linking = browser.post(
        reverse("ent_link"),
        {"username": "mcurie", "password": TEACHER_PASSWORD, "confirm": "on"},
    )
    assert linking.status_code == 403
    assert not EntIdentity.objects.exists()


def test_a_victim_who_started_a_sign_in_of_their_own_is_still_refused(
    cas: CasServer, edifice: EntConnector
) -> None:
    make_teacher(username="mcurie")
    attacker = Client()
    url = callback_url(cas, attacker, edifice, "homonyme.edifice")
    victim = Client(HTTP_ACCEPT_LANGUAGE="en")
    started_state(victim, edifice)  # e.g. a page made the victim's browser press the button
    opened = victim.get(local(url))
    assert opened.status_code == 400 and REFUSED in opened.content.decode()
    assert "ent_pending_link" not in victim.session
    assert not EntSignIn.objects.exists()


def test_the_sign_in_that_started_it_still_works_after_a_refused_stranger(
    cas: CasServer, edifice: EntConnector
) -> None:
    teacher = make_teacher(username="mcurie")
    EntIdentity.objects.create(connector=edifice, external_id="EDI-T-0001", user=teacher)
    owner = Client()
    url = callback_url(cas, owner, edifice, "prof.edifice")
    assert Client().get(local(url)).status_code == 400  # a stranger's browser
    assert owner.get(local(url)).status_code == 302  # the ticket was not spent by it
    assert signed_in_user_id(owner) == teacher.pk


@pytest.mark.parametrize(
    "state",
    [None, "", "x", "A" * 43, "A" * 500, "../../etc", "%00"],
    ids=["missing", "empty", "short", "guessed", "oversized", "path", "nul"],
)
def test_a_missing_or_tampered_state_is_refused_before_the_ticket_is_claimed(
    cas: CasServer, edifice: EntConnector, state: str | None
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    url = callback_url(cas, client, edifice, "prof.edifice")
    response = client.get(local(with_query(url, state=state)))
    assert response.status_code == 400
    assert REFUSED in response.content.decode()
    assert signed_in_user_id(client) is None
    assert not EntSignIn.objects.exists()


def test_a_state_is_used_once(cas: CasServer, edifice: EntConnector) -> None:
    make_teacher(username="mcurie")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    url = callback_url(cas, client, edifice, "prof.edifice")
    assert client.get(local(url))["Location"] == reverse("ent_link")
    again = client.get(local(url))
    assert again.status_code == 400 and REFUSED in again.content.decode()
    # A new ticket with the spent state (the CAS server issues one for that service URL).
    with requests.Session() as browser:
        service = with_query(url, ticket=None)
        fresh = cas.sign_in(browser, service, "prof.edifice")
    assert client.get(local(fresh)).status_code == 400
    assert EntSignIn.objects.count() == 1


def test_an_expired_state_is_refused(
    cas: CasServer, edifice: EntConnector, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    url = callback_url(cas, client, edifice, "prof.edifice")
    later = states.now() + states.STATE_SECONDS + 1
    monkeypatch.setattr(states, "now", lambda: later)
    response = client.get(local(url))
    assert response.status_code == 400 and REFUSED in response.content.decode()
    assert not EntSignIn.objects.exists()


def test_a_state_started_for_another_connector_is_refused(
    cas: CasServer, edifice: EntConnector
) -> None:
    other = make_connector(cas.url, "edifice", school_uai=SCHOOL_UAI)
    client = Client()
    url = callback_url(cas, client, other, "prof.edifice")
    moved = local(url).replace(f"/ent/{other.pk}/", f"/ent/{edifice.pk}/")
    assert client.get(moved).status_code == 400
    assert not EntSignIn.objects.exists()


def test_the_ticket_is_validated_for_the_sign_ins_own_service_url(
    cas: CasServer, edifice: EntConnector
) -> None:
    # A ticket issued for one sign-in's service URL, brought with another sign-in's state of
    # the same browser: the ENT's server refuses it (the service URLs differ).
    client = Client()
    first = callback_url(cas, client, edifice, "prof.edifice")
    second_state = started_state(client, edifice)
    response = client.get(local(with_query(first, state=second_state)))
    assert response.status_code == 403
    assert signed_in_user_id(client) is None
    assert ticket_of(first)  # (the ticket was real)


def test_a_session_keeps_a_few_sign_ins_under_way(cas: CasServer, edifice: EntConnector) -> None:
    teacher = make_teacher(username="mcurie")
    EntIdentity.objects.create(connector=edifice, external_id="EDI-T-0001", user=teacher)
    client = Client()
    first = callback_url(cas, client, edifice, "prof.edifice")  # one tab
    for _tab in range(states.STATES_MAX - 1):
        started_state(client, edifice)
    assert client.get(local(first)).status_code == 302  # still under way
    # One more than STATES_MAX tabs: the oldest gives way.
    oldest = callback_url(cas, client, edifice, "prof.edifice")
    for _tab in range(states.STATES_MAX):
        started_state(client, edifice)
    assert client.get(local(oldest)).status_code == 400


def test_past_the_limit_the_oldest_sign_in_gives_way_not_a_newer_one(
    cas: CasServer, edifice: EntConnector
) -> None:
    teacher = make_teacher(username="mcurie")
    EntIdentity.objects.create(connector=edifice, external_id="EDI-T-0001", user=teacher)
    client = Client()
    for _tab in range(states.STATES_MAX - 1):
        started_state(client, edifice)  # older tabs, never finished
    newer = callback_url(cas, client, edifice, "prof.edifice")  # the last of STATES_MAX
    started_state(client, edifice)  # one more: the oldest tab gives way
    assert client.get(local(newer)).status_code == 302


def test_the_link_page_names_the_ent_id_and_links_only_when_confirmed(
    cas: CasServer, edifice: EntConnector
) -> None:
    teacher = make_teacher(username="mcurie")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert ent_sign_in(cas, client, edifice, "prof.edifice")["Location"] == reverse("ent_link")
    page = client.get(reverse("ent_link")).content.decode()
    assert "EDI-T-0001" in page and "Marie Curie" in page
    assert 'name="confirm"' in page
    unconfirmed = client.post(
        reverse("ent_link"), {"username": "mcurie", "password": TEACHER_PASSWORD}
    )
    assert unconfirmed.status_code == 200
    assert "Tick the box to confirm" in unconfirmed.content.decode()
    assert not EntIdentity.objects.exists() and signed_in_user_id(client) is None
    confirmed = client.post(
        reverse("ent_link"),
        {"username": "mcurie", "password": TEACHER_PASSWORD, "confirm": "on"},
    )
    assert confirmed.status_code == 302
    assert EntIdentity.objects.get(user=teacher).external_id == "EDI-T-0001"


def test_the_link_page_is_translated(cas: CasServer, edifice: EntConnector) -> None:
    make_teacher(username="mcurie")
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    ent_sign_in(cas, client, edifice, "prof.edifice")
    page = client.get(reverse("ent_link")).content.decode()
    assert "EDI-T-0001" in page and "Lier le compte unoclass" in page
    refused = Client(HTTP_ACCEPT_LANGUAGE="fr").get(
        reverse("ent_callback", args=[edifice.pk]), {"ticket": "ST-1", "state": "x"}
    )
    assert "pas été commencée dans ce navigateur" in refused.content.decode()
