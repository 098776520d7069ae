"""Motion and the sound of "your turn" at the play table (issue 30 §2), chromium at 390×844.

- Motion: a played card flies to the pile when motion is on; with the teacher's "animations
  off" or under prefers-reduced-motion the table says data-motion="off" and no animation starts
  (animationstart events, document.getAnimations()); the focus stays where it was.
- Sound: off on a new device; the child's toggle is remembered (localStorage) across a
  reload; one sound per own turn, none for a refused card nor for the robots' turns; a muted
  session hides the toggle and never sounds, whatever the device remembers.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser.conftest import PHONE, Server, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector
from tests.e2e.browser.test_play_table import FOUR_SEATS

pytestmark = pytest.mark.browser

# Every animation the page starts, by name (an init script: nothing is missed between polls).
WATCH_ANIMATIONS = """
window.__animations = [];
document.addEventListener("animationstart", (e) => window.__animations.push(e.animationName), true);
"""


def _open(server: Server, browser: Browser, settings: dict[str, bool], **options: str) -> Page:
    world = server.world(students=["Alice"], bots=3, setup=FOUR_SEATS, settings=settings)
    lang = options.pop("lang", "fr")
    context = signed_in(
        browser, server, world["students"][0]["session"], lang=lang, viewport=PHONE,
        is_mobile=True, has_touch=True, **options,
    )  # fmt: skip
    page = context.new_page()
    page.add_init_script(WATCH_ANIMATIONS)
    page.goto(f"{server.url}/tables/{world['table']}/")
    PlayPage(page).wait_state(0)
    return page


@pytest.mark.parametrize(
    ("table_settings", "reduced", "lang", "motion"),
    [
        ({}, "no-preference", "fr", "on"),
        ({"animations": False}, "no-preference", "en", "off"),
        ({}, "reduce", "fr", "off"),
    ],
    ids=["motion", "teacher-off", "reduced-motion"],
)
def test_a_played_card_flies_only_when_motion_is_allowed(
    server: Server, browser: Browser, table_settings: dict[str, bool], reduced: str, lang: str,
    motion: str,
) -> None:  # fmt: skip
    page = _open(server, browser, table_settings, reduced_motion=reduced, lang=lang)
    try:
        expect(page.locator("#play")).to_have_attribute("data-motion", motion)
        page.locator("#act-draw").focus()
        page.click('[data-for="1/3b"][data-card-rule="equal"]')
        # The robots play on after Alice (0.05 s a move): their cards fly too.
        page.wait_for_function("() => Number(document.getElementById('play').dataset.stateId) >= 2")
        started = page.evaluate("window.__animations")
        if motion == "on":
            page.wait_for_function("() => window.__animations.includes('play-fly-in')")
        else:
            assert started == []
            assert page.evaluate("document.getAnimations().length") == 0
        # Nothing took the focus away (the tap itself focuses the card it touched).
        focused = page.evaluate("document.activeElement && document.activeElement.id")
        assert focused != "play-top"
    finally:
        page.context.close()


def _sounds(page: Page) -> int:
    return int(page.locator("#play").get_attribute("data-sounds") or 0)


def test_the_sound_of_my_turn_is_off_until_chosen_and_remembered(
    server: Server, browser: Browser
) -> None:
    page = _open(server, browser, {}, lang="en")
    try:
        root, toggle = page.locator("#play"), page.locator("#play-sound")
        expect(root).to_have_attribute("data-sound", "off")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(toggle).to_have_text("Sound of my turn off")
        assert _sounds(page) == 0  # my turn, but the sound was never chosen
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        page.reload()
        PlayPage(page).wait_state(0)
        # Remembered on this device; Alice's turn sounds once when the page shows it.
        expect(root).to_have_attribute("data-sound", "on")
        expect(root).to_have_attribute("data-sounds", "1")
        # A refused card never sounds.
        page.click('[data-for="2/3r"][data-card-rule="equal"]')
        expect(page.locator("#play-error")).to_have_attribute("data-code", "not_equivalent")
        assert _sounds(page) == 1
        # The robots' three turns make no sound; Alice's next turn one.
        page.click(card_selector("2/3r"))
        page.wait_for_function(
            "() => { const r = document.getElementById('play');"
            " return Number(r.dataset.stateId) >= 4 && r.dataset.acting === '0'; }"
        )
        expect(root).to_have_attribute("data-sounds", "2")
    finally:
        page.context.close()


def test_a_muted_session_never_sounds(server: Server, browser: Browser) -> None:
    page = _open(server, browser, {"sound": False})
    try:
        page.evaluate("localStorage.setItem('unoclass.sound', 'on')")
        page.reload()
        PlayPage(page).wait_state(0)
        expect(page.locator("#play-sound")).to_be_hidden()
        expect(page.locator("#play")).to_have_attribute("data-sound", "off")
        assert _sounds(page) == 0
    finally:
        page.context.close()
