"""A class warm-up in Debian's chromium: a pupil on a phone, keyboard only, then the teacher.

The pupil's round is real (lessons.diagnosis.probe_next chooses every item): the test reads
the top card and the cards shown, presses the number of an equal card (a wrong one on the
first item, so the end shows a worked example), answers or skips the reason prompt with one
key, and goes on until the end. The teacher's overview then shows each pupil's progress (never
their answers) and the class picture; "seat by need" puts the two pupils likely on M1 at one
table aimed at it. Screenshots go to a temporary folder (docs/screenshots/ with
UNOCLASS_SCREENSHOTS=1, as the other browser tests).
"""

from __future__ import annotations

import os
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser.conftest import (
    DESKTOP,
    PHONE,
    live_server_sign_in,
    outside_the_event_loop,
    serious_violations,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
REFRESH_DOCS = bool(os.environ.get("UNOCLASS_SCREENSHOTS"))
QUESTION = "Quelle carte lui est égale\u202f?"
WHY = "Pourquoi as-tu choisi cette carte\u202f?"
# More than probe_next's cap (24 items), each with its prompt: a loop that never ends fails.
MAX_STEPS = 60
DEADLINE_SECONDS = 240


FITS = """() => [...document.querySelectorAll('.warmup__card, #warmup-top')].every((card) => {
  const box = card.getBoundingClientRect();
  const value = card.querySelector('.card__value').getBoundingClientRect();
  return value.left >= box.left - 0.5 && value.right <= box.right + 0.5;
})"""


def _value(text: str) -> Fraction:
    num, den = text.strip().split("/")
    return Fraction(int(num), int(den))


def _build() -> dict[str, Any]:
    from lessons.sessions.services import session_join, session_start
    from tests.lessons.reporting.helpers import M1_PLAYS, RIGHT_PLAYS, log_plays
    from tests.support.factories import make_classroom, make_students, make_teacher

    teacher = make_teacher()
    classroom = make_classroom(teacher=teacher, name="CM1 Échauffement")
    ada, bob, cleo = (
        login.student for login in make_students(classroom=classroom, names=["Ada", "Bob", "Cléo"])
    )
    for student in (bob, cleo):
        log_plays(student, M1_PLAYS + RIGHT_PLAYS)
    session = session_start(teacher=teacher, classroom=classroom, warmup=True)
    for student in (ada, bob, cleo):
        session_join(session=session, student=student)
    return {"teacher": teacher, "session": session, "ada": ada, "bob": bob, "cleo": cleo}


def _answer_round(page: Page, folder: Path) -> tuple[int, int]:
    """Answer every item with keys only; return (items answered, prompts answered).

    "Why?" follows only some answers (lessons.diagnosis.why): never two right answers in a row.
    """
    answered = prompts = 0
    last_right_asked = False
    deadline = time.monotonic() + DEADLINE_SECONDS
    for _step in range(MAX_STEPS):
        assert time.monotonic() < deadline, "the warm-up did not end in time"
        step = page.locator("#warmup").get_attribute("data-step")
        if step == "done":
            return answered, prompts
        if step == "item":
            expect(page.locator("#warmup-question")).to_have_text(QUESTION)
            expect(page.locator("#warmup-question")).to_be_focused()
            top = _value(page.locator("#warmup-top .card__value").inner_text())
            cards = page.locator(".warmup__card")
            values = [_value(v) for v in cards.locator(".card__value").all_inner_texts()]
            equal = [i for i, v in enumerate(values) if v == top]
            wrong = [i for i, v in enumerate(values) if v != top]
            # Every value fits its card on the phone ("17/24" was cut at both ends).
            assert page.evaluate(FITS), values
            # The first answer is wrong (the end then shows an example), the others right.
            index = wrong[0] if answered == 0 and wrong else (equal or wrong)[0]
            if answered == 0:
                page.screenshot(path=str(folder / "warmup-phone-item.png"), full_page=True)
                assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
                assert serious_violations(page) == []
            right = index in equal
            with page.expect_navigation():
                page.keyboard.press(str(index + 1))
            answered += 1
            after = page.locator("#warmup").get_attribute("data-step")
            if after == "reason":
                assert not (right and last_right_asked), "asked twice in a row after right answers"
                last_right_asked = right
            else:
                last_right_asked = False
                if after == "item":  # no question: the next card at once
                    expect(page.locator("#warmup-count")).to_have_text(f"Carte {answered + 1}")
            continue
        assert step == "reason", step
        expect(page.locator("#warmup-question")).to_have_text(WHY)
        expect(page.locator("#warmup-question")).to_be_focused()
        # The same five answers after a right and a wrong card: nothing gives the answer away.
        expect(page.locator(".reason__choice")).to_have_count(5)
        body = page.locator("main").inner_text()
        assert "Bravo" not in body and "Faux" not in body and "Juste" not in body
        if prompts == 0:
            page.screenshot(path=str(folder / "warmup-phone-reason.png"), full_page=True)
            assert serious_violations(page) == []
        before = answered
        if prompts % 2:
            page.keyboard.press("Escape")  # skipped
        else:
            page.keyboard.press("1")
        prompts += 1
        expect(page.locator("#warmup")).not_to_have_attribute("data-step", "reason")
        assert answered == before
    raise AssertionError("the warm-up did not end within MAX_STEPS steps")


@pytest.mark.django_db(transaction=True)
def test_a_class_warm_up_on_a_phone_then_the_teacher_seats_by_need(
    browser: Browser, live_server: Any, tmp_path: Path
) -> None:
    world = outside_the_event_loop(_build)
    session, ada = world["session"], world["ada"]
    folder = DOCS_SCREENSHOTS if REFRESH_DOCS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    phone = browser.new_context(
        viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True, device_scale_factor=2
    )
    phone.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    live_server_sign_in(phone, live_server, ada.user)
    teacher = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    teacher.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    live_server_sign_in(teacher, live_server, world["teacher"])
    try:
        page = phone.new_page()
        # The class game sends the pupil to the warm-up first.
        page.goto(live_server.url + reverse("session_play", args=[session.pk]))
        expect(page.locator("#warmup")).to_be_visible()
        answered, prompts = _answer_round(page, folder)
        # "Why?" after the first (wrong, informing) answer, not after every item.
        assert 1 <= answered <= 24 and 1 <= prompts < answered
        expect(page.locator("#warmup-question")).to_contain_text("l’échauffement est terminé")
        # One worked example on a number line, for the wrong answer.
        expect(page.locator("#play-example")).to_be_visible()
        expect(page.locator("#play-example svg[role='img']")).to_be_visible()
        page.screenshot(path=str(folder / "warmup-phone-done.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert serious_violations(page) == []

        from lessons.models import Attempt

        stored = outside_the_event_loop(
            lambda: Attempt.objects.filter(student=ada, source="probe").count()
        )
        assert stored == answered

        overview = teacher.new_page()
        overview.goto(live_server.url + reverse("session_overview", args=[session.pk]))
        row = overview.locator(f"#warmup-progress tr[data-student='{ada.pk}']")
        expect(row.locator("td").first).to_have_text(str(answered))
        expect(row).to_contain_text("terminé")
        for name in ("bob", "cleo"):
            other = overview.locator(f"#warmup-progress tr[data-student='{world[name].pk}']")
            expect(other).to_contain_text("en cours")
        # Progress only: none of Ada's fractions shows on the teacher's warm-up section.
        progress = overview.locator("#warmup-progress").inner_text()
        assert "/" not in progress
        expect(overview.locator("#class-picture")).to_contain_text("Ada")
        overview.screenshot(path=str(folder / "warmup-teacher-overview.png"), full_page=True)
        assert serious_violations(overview) == []

        # Seat by need (ticked by default after a warm-up): Bob and Cléo together, aimed.
        expect(overview.locator("#seat-by-need")).to_be_checked()
        overview.locator("#seat-form button[type='submit']").click()
        expect(overview.locator(".messages")).to_contain_text("par besoin")
        # The rounds still going ended: the class picture now names Bob and Cléo for M1.
        group = overview.locator("#class-picture [data-rule='M1']")
        expect(group).to_contain_text("Bob")
        expect(group).to_contain_text("Cléo")
        assert "Ada" not in group.inner_text()
        overview.screenshot(path=str(folder / "warmup-seated-by-need.png"), full_page=True)

        def tables() -> dict[str, Any]:
            members = session.members.select_related("table__table", "student")
            return {m.student.display_name: m.table for m in members}

        seated = outside_the_event_loop(tables)
        assert seated["Bob"].pk == seated["Cléo"].pk != seated["Ada"].pk
        assert seated["Bob"].table.options.get("aim_pairs")
        assert "aim_pairs" not in seated["Ada"].table.options
    finally:
        phone.close()
        teacher.close()
