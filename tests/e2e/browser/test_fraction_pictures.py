"""Pictures of fractions on the cards (issue 30 §2), chromium at 390×844 with 15 cards.

- At a practice table with pictures on, each fraction card shows a bar under its value,
  hidden from assistive technology (the card's name is unchanged), the value unclipped; axe-core
  finds no violation at all.
- At a class session's table asked for the same, no card shows one.
- After FADE_AFTER right plays in a row (counted by the server) the pictures fade: opacity with
  motion on, hidden at once and nothing animated under prefers-reduced-motion; a refused play
  brings them back, and a reload keeps what the server counted.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page, expect

from lessons.attempts.pictures import FADE_AFTER
from tests.e2e.browser.conftest import PHONE, Server, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector
from tests.e2e.browser.test_play_motion_sound import WATCH_ANIMATIONS
from tests.e2e.browser.test_play_table import FOUR_SEATS, HAND

pytestmark = pytest.mark.browser

FRACTIONS = [card for card in HAND if "/" in card]
PICTURES = {"pictures": "bar"}


def _open(server: Server, browser: Browser, *, right_before: int = 0, **spec: object) -> Page:
    """Open Alice's table; `right_before` right plays already logged at it (a practice table)."""
    reduced = str(spec.pop("reduced", "no-preference"))
    world = server.world(students=["Alice"], bots=3, setup=FOUR_SEATS, **spec)
    if right_before:
        alice = world["students"][0]
        server.app.script(
            "from games.models import Seat, Table\n"
            "from lessons.models import SeatStudent, Student\n"
            "from tests.lessons.reporting.helpers import log_attempt\n"
            f"student = Student.objects.get(pk={alice['id']})\n"
            f"table = Table.objects.get(pk={world['table']})\n"
            "seat = Seat.objects.get(table=table, index=0)\n"
            "SeatStudent.objects.create(seat=seat, user_id=student.user_id, student=student,\n"
            "    classroom_id=student.classroom_id)\n"
            f"for _ in range({right_before}):\n"
            "    log_attempt(student, (1, 2), (3, 6), table=table)\n"
            "print('{}')\n"
        )
    context = signed_in(
        browser, server, world["students"][0]["session"], lang="fr", viewport=PHONE,
        is_mobile=True, has_touch=True, reduced_motion=reduced,
    )  # fmt: skip
    page = context.new_page()
    page.goto(f"{server.url}/tables/{world['table']}/")
    PlayPage(page).wait_state(0)
    return page


@pytest.mark.parametrize("kind", ["bar", "line"])
def test_a_practice_table_shows_a_picture_under_each_fraction(
    server: Server, browser: Browser, kind: str
) -> None:
    page = _open(server, browser, settings={"pictures": kind})
    try:
        expect(page.locator("#play")).to_have_attribute("data-pictures", "shown")
        hand = page.locator("#play-hand")
        expect(hand.locator(".card__picture")).to_have_count(len(FRACTIONS))
        for card in FRACTIONS:
            button = page.locator(card_selector(card))
            picture = button.locator(f".card__picture--{kind}")
            expect(picture).to_be_visible()
            # Under the value, inside the card, hidden from assistive technology.
            value, drawn = button.locator(".card__value").bounding_box(), picture.bounding_box()
            box = button.bounding_box()
            assert value and drawn and box
            assert drawn["y"] >= value["y"] + value["height"] - 1
            assert drawn["y"] + drawn["height"] <= box["y"] + box["height"] + 1
            assert picture.evaluate("e => Boolean(e.closest('[aria-hidden=\"true\"]'))")
            # The fraction never breaks nor clips.
            assert button.locator(".card__value").evaluate("e => e.scrollWidth <= e.clientWidth")
            num, den = (int(n) for n in card[:-1].split("/"))
            if kind == "bar":  # the unit cut into `den` parts, `num` of them shaded
                expect(picture.locator(".card__part--on")).to_have_count(num)
                expect(picture.locator(".card__part")).to_have_count(den)
            else:  # 0 to 1, a tick each 1/den, the point at num/den of the way
                expect(picture.locator(".card__axis--part")).to_have_count(den - 1)
                where = picture.evaluate(
                    "e => { const l = e.querySelector('line').getBBox();"
                    " const p = e.querySelector('.card__point');"
                    " return (p.cx.baseVal.value - l.x) / l.width; }"
                )
                assert abs(where - num / den) < 0.02
        # The accessible name is the card's own (its value and colour), never the picture's.
        name = page.locator(card_selector("2/3r")).get_attribute("aria-label") or ""
        assert name.startswith("2/3") and "barre" not in name and "image" not in name
        violations = Axe().run(page).response["violations"]
        assert [v["id"] for v in violations] == []
    finally:
        page.context.close()


def test_a_class_session_table_never_shows_pictures(server: Server, browser: Browser) -> None:
    page = _open(server, browser, settings=PICTURES, session=True)
    try:
        expect(page.locator("#play-hand .card")).to_have_count(len(HAND))
        expect(page.locator(".card__picture")).to_have_count(0)
        assert page.locator("#play").get_attribute("data-pictures") in (None, "")
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("reduced", "transition"),
    [("no-preference", "0.8s"), ("reduce", "0s")],
    ids=["motion", "reduced-motion"],
)
def test_pictures_fade_after_right_plays_in_a_row(
    server: Server, browser: Browser, reduced: str, transition: str
) -> None:
    page = _open(server, browser, settings=PICTURES, right_before=FADE_AFTER - 1, reduced=reduced)
    try:
        page.evaluate(WATCH_ANIMATIONS)
        play = page.locator("#play")
        expect(play).to_have_attribute("data-pictures", "shown")
        picture = page.locator(f"{card_selector('2/3r')} .card__picture")
        expect(picture).to_be_visible()
        page.locator("#act-draw").focus()
        page.click('[data-for="1/3b"][data-card-rule="equal"]')  # the last right play
        expect(play).to_have_attribute("data-pictures", "faded")
        # Kept in place, unseen: nothing of the hand moves.
        expect(picture).to_have_css("opacity", "0")
        expect(picture).to_be_hidden()
        duration = picture.evaluate("e => getComputedStyle(e).transitionDuration.split(',')[0]")
        assert duration == transition
        if reduced == "reduce":
            assert page.evaluate("window.__animations") == []
            assert page.evaluate("document.getAnimations().length") == 0
        # A reload keeps them faded: the server counted the plays.
        page.reload()
        expect(play).to_have_attribute("data-pictures", "faded")
    finally:
        page.context.close()


def test_faded_pictures_come_back_after_a_refused_play(server: Server, browser: Browser) -> None:
    page = _open(server, browser, settings=PICTURES, right_before=FADE_AFTER)
    try:
        play = page.locator("#play")
        expect(play).to_have_attribute("data-pictures", "faded")  # the first state: faded
        page.click(card_selector("5/6j"))  # neither equal to 1/3 nor of denominator 3: refused
        expect(play).to_have_attribute("data-pictures", "shown")
        expect(page.locator(f"{card_selector('2/3r')} .card__picture")).to_be_visible()
        # The server counted the refusal too: a reload shows them.
        page.reload()
        expect(play).to_have_attribute("data-pictures", "shown")
    finally:
        page.context.close()
