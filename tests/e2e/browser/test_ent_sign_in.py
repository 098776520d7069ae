"""A teacher signs in with the school's ENT in chromium, against a real CAS server
(django-cas-server in its own process and environment, tests/support/cas) and a real daphne:
the first sign-in links the account after its password, or creates one when the school allows;
a replayed or forged ticket is refused with a clear page; a ticket URL another browser started
(the first step of an account takeover) is refused in the victim's browser and changes nothing;
the ENT's single sign-out (the CAS server's own logoutRequest) ends the session.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.browser.conftest import DESKTOP, SETTINGS, serious_violations
from tests.support.cas.server import CasServer, cas_server
from tests.support.cas.users import PASSWORD, SCHOOL_UAI
from tests.support.factories import TEACHER_PASSWORD
from tests.support.live import Daphne, LiveApp
from tests.support.servers import free_port
from tests.support.waiting import Deadline

pytestmark = pytest.mark.timeout(240)

SETUP = """
import json
from lessons.ent.presets import PRESETS
from lessons.models import EntConnector, User
teacher = User(username="mcurie", role="teacher")
teacher.set_password(%(password)r)
teacher.save()
ids = {}
for name, preset, creates in [("ONE", "edifice", False), ("GAR", "gar", True)]:
    ids[preset] = EntConnector.objects.create(
        name=name, server_url=%(cas)r, preset=preset, school_uai=%(uai)r,
        creates_teachers=creates, **PRESETS[preset],
    ).pk
print(json.dumps({"teacher": teacher.pk, **ids}))
"""


class EntSite:
    """The app on daphne with two ENT connectors to the test CAS server."""

    def __init__(self, app: LiveApp, daphne: Daphne, cas: CasServer, ids: dict[str, int]):
        self.app, self.daphne, self.cas, self.ids = app, daphne, cas, ids

    @property
    def url(self) -> str:
        """Return the app's address (also its ENT_SITE_URL)."""
        return self.daphne.http

    def query(self, code: str) -> object:
        """Run Python in the app's environment; return the JSON it prints last."""
        return self.app.script(code)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EntSite]:
    """Start the CAS server and a daphne whose service URLs point at itself."""
    with cas_server(tmp_path_factory.mktemp("cas")) as cas:
        port = free_port()
        app = LiveApp(
            {"ENT_SITE_URL": f"http://127.0.0.1:{port}", "ENT_ALLOW_HTTP": "1"},
            settings_module=SETTINGS,
            directory=tmp_path_factory.mktemp("ent-app"),
        )
        try:
            app.migrate()
            ids = app.script(
                SETUP % {"password": TEACHER_PASSWORD, "cas": cas.url, "uai": SCHOOL_UAI}
            )
            daphne = Daphne(app.env, app.dir / "daphne.log", port=port)
            app.servers.append(daphne)
            yield EntSite(app, daphne, cas, ids)
        finally:
            app.close()


LINK_MCURIE = """
import json
from lessons.models import EntConnector, EntIdentity, User
EntIdentity.objects.get_or_create(
    user=User.objects.get(username="mcurie"),
    defaults={"connector": EntConnector.objects.get(preset="edifice"), "external_id": "EDI-T-0001"},
)
print(json.dumps(True))
"""


def _cas_login(page: Page, username: str) -> None:
    """Sign in at the CAS server's own form (the page the ENT button led to)."""
    expect(page.locator("#login_form")).to_be_visible()
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("#login_form button[type=submit]").click()


def _ent_button(page: Page, site: EntSite, name: str) -> None:
    page.goto(f"{site.url}/login/")
    page.get_by_role("link", name=re.compile(f"Se connecter avec l.ENT.*{name}")).click()


def _through_the_ent(
    browser: Browser, site: EntSite, connector: str, username: str
) -> tuple[BrowserContext, Page]:
    """Open a fresh browser, press the connector's ENT button, sign in at the CAS server."""
    context = browser.new_context(viewport=DESKTOP, locale="fr")
    page = context.new_page()
    _ent_button(page, site, connector)
    _cas_login(page, username)
    return context, page


def _session_key(context: BrowserContext) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == "sessionid")


def _callbacks(page: Page) -> list[str]:
    """Record every callback URL (with its ticket) the browser is sent to."""
    seen: list[str] = []
    page.on(
        "request",
        lambda request: seen.append(request.url) if CALLBACK.match(request.url) else None,
    )
    return seen


# A callback with its ticket (the state comes first in the query, the CAS server adds the ticket).
CALLBACK = re.compile(r".*/ent/[0-9]+/callback/\?state=[^&]+&ticket=.+")


def test_first_ent_sign_in_links_after_the_password_then_the_ent_alone(
    browser: Browser, site: EntSite
) -> None:
    with browser.new_context(viewport=DESKTOP, locale="fr") as first_look:
        sign_in_page = first_look.new_page()
        sign_in_page.goto(f"{site.url}/login/")
        assert serious_violations(sign_in_page) == []  # with its two ENT buttons
    context, page = _through_the_ent(browser, site, "ONE", "prof.edifice")
    expect(page.get_by_role("heading", name="Reliez votre compte ENT")).to_be_visible()
    expect(page.get_by_text("Marie Curie", exact=True)).to_be_visible()
    expect(page.get_by_text("EDI-T-0001", exact=True)).to_be_visible()
    assert serious_violations(page) == []
    page.get_by_label("Nom d’utilisateur").fill("mcurie")
    page.get_by_label("Mot de passe", exact=True).fill(TEACHER_PASSWORD)
    page.get_by_label(re.compile("Lier le compte unoclass .*EDI-T-0001")).check()
    page.get_by_role("button", name="Relier et se connecter").click()
    expect(page.get_by_role("button", name="Se déconnecter")).to_be_visible()
    linked = site.query(
        "import json; from lessons.models import EntIdentity as E;"
        "print(json.dumps([e.external_id for e in E.objects.filter(user__username='mcurie')]))"
    )
    assert linked == ["EDI-T-0001"]
    context.close()

    # Later, in a fresh browser: the ENT alone signs her in.
    context, page = _through_the_ent(browser, site, "ONE", "prof.edifice")
    expect(page.get_by_role("button", name="Se déconnecter")).to_be_visible()
    assert page.url.rstrip("/") == site.url
    context.close()


def test_an_unknown_ent_teacher_gets_an_account_where_the_school_allows(
    browser: Browser, site: EntSite
) -> None:
    context, page = _through_the_ent(browser, site, "GAR", "prof.gar")
    page.get_by_role("button", name="Créer mon compte avec l’ENT").click()
    expect(page.get_by_role("button", name="Se déconnecter")).to_be_visible()
    created = site.query(
        "import json; from lessons.models import EntIdentity as E;"
        "e = E.objects.select_related('user').get(external_id='GAR-ens-0003');"
        "print(json.dumps([e.user.username, e.user.role]))"
    )
    assert created == ["helene", "teacher"]
    context.close()


def test_a_replayed_ticket_gets_a_clear_refusal(browser: Browser, site: EntSite) -> None:
    site.query(LINK_MCURIE)
    context = browser.new_context(viewport=DESKTOP, locale="fr")
    page = context.new_page()
    callbacks = _callbacks(page)
    _ent_button(page, site, "ONE")
    _cas_login(page, "prof.edifice")
    expect(page.get_by_role("button", name="Se déconnecter")).to_be_visible()
    assert len(callbacks) == 1
    thief = browser.new_context(viewport=DESKTOP, locale="fr")
    stolen = thief.new_page()
    answer = stolen.goto(callbacks[0])
    assert answer is not None and answer.status == 400
    expect(stolen.get_by_role("alert")).to_contain_text("déjà servi")
    expect(stolen.get_by_role("link", name="Connexion enseignant")).to_be_visible()
    thief.close()
    context.close()


def test_a_forged_ticket_gets_a_clear_refusal(browser: Browser, site: EntSite) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en")
    page = context.new_page()
    page.goto(f"{site.url}/ent/{site.ids['edifice']}/login/")  # this browser starts a sign-in
    service = parse_qs(urlparse(page.url).query)["service"][0]
    answer = page.goto(f"{service}&ticket=ST-1-forged")
    assert answer is not None and answer.status == 403
    expect(page.get_by_role("alert")).to_contain_text("did not confirm")
    assert serious_violations(page) == []
    expect(page.get_by_role("link", name="Teacher sign-in")).to_be_visible()
    context.close()


VICTIM = """
import json
from lessons.models import User
victim, _ = User.objects.get_or_create(username="victime", defaults={"role": "teacher"})
victim.set_password(%(password)r)
victim.save()
print(json.dumps(victim.pk))
"""

VICTIM_LINKS = """
import json
from lessons.models import EntIdentity
print(json.dumps(list(EntIdentity.objects.filter(user__username="victime").values_list(
    "external_id", flat=True))))
"""


def test_a_ticket_url_sent_by_someone_else_is_refused_in_the_victims_browser(
    browser: Browser, site: EntSite
) -> None:
    site.query(VICTIM % {"password": TEACHER_PASSWORD})
    # The attacker signs in at the ENT with their own teacher account and stops before the
    # callback: its URL, ticket and all, is what they send the victim.
    attacker = browser.new_context(viewport=DESKTOP, locale="fr")
    attacker_page = attacker.new_page()
    _ent_button(attacker_page, site, "ONE")
    expect(attacker_page.locator("#login_form")).to_be_visible()
    fields = dict(
        attacker_page.eval_on_selector_all(
            "#login_form input[type=hidden]", "inputs => inputs.map(i => [i.name, i.value])"
        )
    )
    action = attacker_page.eval_on_selector("#login_form", "form => form.action")
    # The CAS form posted from the attacker's browser (its cookies), its redirect not followed.
    sent = attacker.request.post(
        action,
        form={**fields, "username": "homonyme.edifice", "password": PASSWORD},
        max_redirects=0,
    )
    assert sent.status == 302, sent.text()[-500:]
    stopped = [sent.headers["location"]]
    assert CALLBACK.match(stopped[0]), stopped

    victim = browser.new_context(viewport=DESKTOP, locale="fr")
    page = victim.new_page()
    page.goto(f"{site.url}/login/")
    page.get_by_label("Nom d’utilisateur").fill("victime")
    page.get_by_label("Mot de passe").fill(TEACHER_PASSWORD)
    page.get_by_role("button", name="Se connecter", exact=True).click()
    expect(page.get_by_role("button", name="Se déconnecter")).to_be_visible()
    answer = page.goto(stopped[0])
    assert answer is not None and answer.status == 400
    expect(page.get_by_role("alert")).to_contain_text("pas été commencée dans ce navigateur")
    assert serious_violations(page) == []
    link_page = page.goto(f"{site.url}/ent/link/")
    assert link_page is not None and link_page.status == 403  # nothing pending to link
    page.goto(f"{site.url}/")
    expect(page.get_by_role("button", name="Se déconnecter")).to_be_visible()  # still herself
    assert site.query(VICTIM_LINKS) == []
    victim.close()

    # The ticket was not spent by the refusal: in the browser that started it, it works.
    attacker_page.goto(stopped[0])
    expect(attacker_page.get_by_text("EDI-T-0009", exact=True)).to_be_visible()
    attacker.close()


def test_signing_out_of_the_ent_ends_the_unoclass_session(browser: Browser, site: EntSite) -> None:
    site.query(LINK_MCURIE)
    context, page = _through_the_ent(browser, site, "ONE", "prof.edifice")
    expect(page.get_by_role("button", name="Se déconnecter")).to_be_visible()
    other, other_page = _through_the_ent(browser, site, "ONE", "prof.edifice")  # another device
    expect(other_page.get_by_role("button", name="Se déconnecter")).to_be_visible()
    ended = _session_key(context)

    # Sign out at the ENT: the CAS server posts its logoutRequest to our service URL.
    page.goto(f"{site.cas.url}logout")
    deadline = Deadline(20, "the ENT's single sign-out to end the session")
    while True:
        page.goto(f"{site.url}/")
        if page.get_by_role("link", name="Connexion enseignant").count():
            break
        deadline.check(site.cas.log()[-2000:])
        page.wait_for_timeout(200)
    other_page.goto(f"{site.url}/")
    expect(other_page.get_by_role("button", name="Se déconnecter")).to_be_visible()
    stored = site.query(
        "import json; from django.contrib.sessions.models import Session;"
        f"print(json.dumps([Session.objects.filter(session_key=k).exists() for k in "
        f"{[ended, _session_key(other)]!r}]))"
    )
    assert stored == [False, True]  # deleted from the store, not only forgotten by the browser
    other.close()
    context.close()
