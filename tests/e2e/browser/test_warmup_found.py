"""The class warm-up found from the pupil's home in one tap, in Debian's chromium (issue 30 §1.4).

A class session with the warm-up is open: the pupil's home has one big button, "Échauffement",
in the first screen of a 390×844 phone; one tap opens the first card. A touch phone is never
told about number keys or Escape; a desktop is (a fine pointer that hovers), and a phone shows
them once a key was pressed. The option cards show no Braille marking ("2/3r") outside an
accessible session.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.browser.conftest import (
    DESKTOP,
    PHONE,
    live_server_sign_in,
    outside_the_event_loop,
    serious_violations,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _value(text: str) -> Fraction:
    num, den = text.strip().split("/")
    return Fraction(int(num), int(den))


def _build() -> dict[str, Any]:
    from lessons.sessions.services import session_join, session_start
    from tests.support.factories import make_classroom, make_students, make_teacher

    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher, name="CM1 Échauffement")
    ada, bob = (login.student for login in make_students(classroom=classroom, names=["Ada", "Bob"]))
    session = session_start(teacher=teacher, classroom=classroom, warmup=True)
    for student in (ada, bob):
        session_join(session=session, student=student)
    return {"session": session, "ada": ada, "bob": bob}


def _context(browser: Browser, live_server: Any, user: Any, *, phone: bool) -> BrowserContext:
    if phone:
        context = browser.new_context(
            viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True, device_scale_factor=2
        )
    else:
        context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    live_server_sign_in(context, live_server, user)
    return context


def _open_from_home(page: Page, live_server: Any, *, tap: bool) -> None:
    """Open the warm-up from the home: the one big button, "Échauffement"."""
    page.goto(live_server.url + reverse("home"))
    big = page.locator("main .button--big")
    expect(big).to_have_count(1)
    expect(big).to_have_text("Échauffement")
    expect(big).to_be_in_viewport()
    if tap:
        big.tap()
    else:
        big.click()
    expect(page.locator("#warmup")).to_have_attribute("data-step", "item")
    # warmup.js focuses the question just before it listens for keys (a module runs after
    # the page shows: a key pressed earlier was lost under load, and the test timed out).
    expect(page.locator("#warmup-question")).to_be_focused()


def _wrong_index(page: Page) -> int:
    """Return the first option not equal to the top card (its reason informs: asked why)."""
    top = _value(page.locator("#warmup-top .card__value").inner_text())
    values = [_value(v) for v in page.locator(".warmup__card .card__value").all_inner_texts()]
    return next(i for i, v in enumerate(values) if v != top)


@pytest.mark.django_db(transaction=True)
def test_a_phone_finds_the_warm_up_in_one_tap_and_is_told_no_keys(
    browser: Browser, live_server: Any
) -> None:
    world = outside_the_event_loop(_build)
    context = _context(browser, live_server, world["ada"].user, phone=True)
    try:
        page = context.new_page()
        _open_from_home(page, live_server, tap=True)
        # No marking under the values: the code a child read as part of the card.
        expect(page.locator(".warmup__card .card__mark")).to_have_count(0)
        first = page.locator(".warmup__card").first
        value = first.locator(".card__value").inner_text()
        expect(first).to_have_accessible_name(f"Carte 1\u202f: {value}")
        # Nothing about number keys on a touch phone.
        expect(page.locator("#warmup-help")).to_be_visible()
        expect(page.locator("#warmup-keys")).to_be_hidden()
        expect(page.locator(".warmup__key").first).to_be_hidden()
        assert "appuie" not in page.locator("main").inner_text()
        assert serious_violations(page) == []
        with page.expect_navigation():
            page.locator(".warmup__card").nth(_wrong_index(page)).tap()
        expect(page.locator("#warmup")).to_have_attribute("data-step", "reason")
        expect(page.locator("#warmup-reason-help")).to_be_hidden()
        expect(page.locator(".reason__choice kbd").first).to_be_hidden()
        assert "Échap" not in page.locator("main").inner_text()
        # A keyboard plugged into the phone: the hints show from the first key pressed.
        expect(page.locator("#warmup-question")).to_be_focused()  # the script listens
        page.keyboard.press("Tab")
        expect(page.locator("#warmup-reason-help")).to_be_visible()
        with page.expect_navigation():
            page.locator("#warmup-skip").tap()
        expect(page.locator("#warmup")).to_have_attribute("data-step", "item")
        expect(page.locator("#warmup-keys")).to_be_visible()  # kept for the next items
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_a_desktop_is_told_the_keys(browser: Browser, live_server: Any) -> None:
    world = outside_the_event_loop(_build)
    context = _context(browser, live_server, world["bob"].user, phone=False)
    try:
        page = context.new_page()
        _open_from_home(page, live_server, tap=False)
        expect(page.locator("#warmup-keys")).to_be_visible()
        expect(page.locator("#warmup-keys")).to_contain_text("appuyer sur son numéro")
        expect(page.locator(".warmup__key").first).to_be_visible()
        expect(page.locator(".warmup__card .card__mark")).to_have_count(0)
        with page.expect_navigation():
            page.keyboard.press(str(_wrong_index(page) + 1))
        expect(page.locator("#warmup")).to_have_attribute("data-step", "reason")
        expect(page.locator("#warmup-reason-help")).to_be_visible()
        expect(page.locator(".reason__choice kbd").first).to_be_visible()
    finally:
        context.close()
