"""The new session form of a CM1 class (issue 21, point 10), on a phone and a desktop.

The deck starts at the class's grade (halves, thirds and sixths), not the 2-48 deck, and only
the chosen game's options show: classic UNO's variants never show for Uno Fractions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.browser.conftest import DESKTOP, PHONE, live_server_sign_in
from tests.support.factories import make_classroom, make_teacher

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_cm1_session_form(
    browser: Any, live_server: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    teacher = make_teacher(username="cm1_teacher")
    classroom = make_classroom(teacher=teacher, name="CM1 Tilleuls")
    classroom.grade = "CM1"
    classroom.save(update_fields=["grade"])
    context = browser.new_context(viewport=viewport, locale="fr-FR")
    live_server_sign_in(context, live_server, teacher)
    try:
        page = context.new_page()
        page.goto(live_server.url + reverse("session_new", args=[classroom.pk]))
        deck = page.locator("#id_deck")
        expect(deck).to_have_value("sixths")
        fractions = page.locator('[data-for-ruleset="fractions"]')
        classic = page.locator('[data-for-ruleset="classic"]')
        expect(fractions).to_be_visible()
        expect(classic).to_be_hidden()
        expect(page.get_by_label("Intercepter une carte identique (classique)")).to_be_hidden()
        page.screenshot(path=str(tmp_path / "session-form.png"), full_page=True)
        page.select_option("#id_ruleset", "classic")
        expect(classic).to_be_visible()
        expect(fractions).to_be_hidden()
        page.select_option("#id_ruleset", "family_quick")
        expect(classic).to_be_hidden()
        expect(fractions).to_be_hidden()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
