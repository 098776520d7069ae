"""A pupil signs in with the school's ENT, in chromium, against a real CAS server (issue 24.3).

The CAS server is django-cas-server in its own environment (tests/support/cas), releasing the
Édifice/ONE shape (CAS 2.0) and the GAR shape (CAS 3.0). Unmatched, the pupil reads "ask your
teacher" and nothing of any class; the teacher links them on the class's matching screen; the
pupil's next ENT sign-in lands in the class, without code or PIN.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.fixtures import Settings

from lessons.ent.presets import PRESETS
from lessons.models import Classroom, EntConnector, EntIdentity, EntSeenPupil
from tests.e2e.browser.conftest import DESKTOP, live_server_sign_in, serious_violations
from tests.support.cas.server import CasServer, cas_server
from tests.support.cas.users import PASSWORD, SCHOOL_UAI
from tests.support.factories import make_classroom, make_students, make_teacher

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def cas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CasServer]:
    """Run the real CAS server for this module."""
    with cas_server(tmp_path_factory.mktemp("cas-pupils")) as server:
        yield server


@pytest.fixture
def ent_site(settings: Settings, live_server: Any) -> Any:
    """Build the service URL on the live server; let the loopback CAS server answer over http."""
    settings.ENT_SITE_URL = live_server.url
    settings.ENT_ALLOW_HTTP = True
    return live_server


def _connector(cas: CasServer, preset: str) -> EntConnector:
    return EntConnector.objects.create(
        name=f"ENT {preset}",
        server_url=cas.url,
        preset=preset,
        school_uai=SCHOOL_UAI,
        **PRESETS[preset],
    )


def _ent_sign_in(page: Page, live_server: Any, username: str) -> None:
    """From /join/, take the ENT button; sign in at the CAS server's own form if it asks."""
    page.goto(live_server.url + reverse("join"))
    page.get_by_role("link", name="Se connecter avec l’ENT").click()
    if page.url.startswith(live_server.url):
        return  # still signed in at the ENT: straight back with a new ticket
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill(PASSWORD)
    page.locator('button[type="submit"]').first.click()
    page.wait_for_url(f"{live_server.url}/**")


@dataclass(frozen=True)
class School:
    """A class with its list, an ENT connector, and two browsers: the pupil's and the teacher's."""

    classroom: Classroom
    pupil: Page
    teacher: Page


@contextmanager
def _school(
    browser: Any, live_server: Any, cas: CasServer, preset: str, class_name: str, names: list[str]
) -> Iterator[School]:
    teacher = make_teacher(username=f"prof_{preset}")
    classroom = make_classroom(teacher=teacher, name=class_name)
    make_students(classroom=classroom, names=names)
    _connector(cas, preset)
    pupil = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    teacher_context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    live_server_sign_in(teacher_context, live_server, teacher)
    try:
        yield School(classroom, pupil.new_page(), teacher_context.new_page())
    finally:
        pupil.close()
        teacher_context.close()


@pytest.mark.django_db(transaction=True)
def test_an_edifice_pupil_waits_is_matched_by_the_teacher_then_lands_in_class(
    browser: Any, ent_site: Any, cas: CasServer, tmp_path: Path
) -> None:
    live_server = ent_site
    names = ["Léa M.", "Lucas", "Zoé"]
    with _school(browser, live_server, cas, "edifice", "CM2 A", names) as school:
        classroom, page, screen = school.classroom, school.pupil, school.teacher
        # Not linked yet: "ask your teacher", and nothing of the class or its pupils.
        _ent_sign_in(page, live_server, "eleve.edifice")
        expect(page.get_by_role("heading", name="Demande à ton enseignant")).to_be_visible()
        body = page.locator("main").inner_text()
        for secret in ("CM2 A", *names, classroom.join_code):
            assert secret not in body
        assert serious_violations(page) == []
        page.screenshot(path=str(tmp_path / "ask-your-teacher.png"), full_page=True)
        assert EntSeenPupil.objects.get().display_name == "Léa Martin"

        # The teacher's matching screen: "Léa Martin" proposed as "Léa M." (near: not ticked).
        screen.goto(live_server.url + reverse("ent_matching", args=[classroom.pk]))
        row = screen.get_by_role("row").filter(has_text="Léa Martin")
        expect(row).to_contain_text("Proche : initiale")
        box = row.get_by_role("checkbox")
        expect(box).not_to_be_checked()
        expect(row.get_by_role("combobox")).to_have_value(
            str(classroom.students.get(display_name="Léa M.").pk)
        )
        assert serious_violations(screen) == []
        screen.screenshot(path=str(tmp_path / "waiting.png"), full_page=True)
        box.check()
        screen.get_by_role("button", name="Lier les élèves cochés").click()
        expect(screen.get_by_text("1 élève lié")).to_be_visible()
        linked = screen.get_by_role("row").filter(has_text="Léa M.")
        expect(linked).to_contain_text("prof_edifice")
        screen.screenshot(path=str(tmp_path / "matching.png"), full_page=True)

        # The pupil's next ENT sign-in lands in the class: no code, no PIN.
        _ent_sign_in(page, live_server, "eleve.edifice")
        assert page.url == live_server.url + reverse("home")
        expect(page.locator("main")).to_contain_text("Léa M.")
        assert EntIdentity.objects.get().external_id == "EDI-P-0002"


@pytest.mark.django_db(transaction=True)
def test_a_gar_pupil_matched_exactly_is_linked_in_one_click(
    browser: Any, ent_site: Any, cas: CasServer
) -> None:
    live_server = ent_site
    with _school(browser, live_server, cas, "gar", "3A", ["Hugo", "Inès"]) as school:
        page, screen = school.pupil, school.teacher
        _ent_sign_in(page, live_server, "eleve.gar")
        expect(page.get_by_role("heading", name="Demande à ton enseignant")).to_be_visible()
        screen.goto(live_server.url + reverse("ent_matching", args=[school.classroom.pk]))
        row = screen.get_by_role("row").filter(has_text="Même nom")
        expect(row.get_by_role("checkbox")).to_be_checked()  # exact: pre-ticked
        screen.get_by_role("button", name="Lier les élèves cochés").click()
        expect(screen.get_by_text("1 élève lié")).to_be_visible()
        _ent_sign_in(page, live_server, "eleve.gar")
        assert page.url == live_server.url + reverse("home")
        expect(page.locator("main")).to_contain_text("Hugo")
        assert EntIdentity.objects.get().external_id == "GAR-elv-0004"
