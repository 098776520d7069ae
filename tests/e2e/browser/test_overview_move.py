"""In chromium over daphne: the teacher moves pupils from a live-updated overview.

The live part of the overview is replaced by every frame of its socket; the one move form sits
outside it, so its CSRF token stays right (per-row forms sent in the frames had an empty token:
every move after the first update was refused with a 403). Its options follow the frames: a
pupil who joins after the page opened can be moved without a reload. A row's "Move…" button
fills the form, keyboard first: the focus goes to the table choice, Escape brings it back.
"""

from __future__ import annotations

import sqlite3

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser.conftest import Server, signed_in
from tests.e2e.browser.pages import card_selector
from tests.games.helpers import FRACTIONS_SETUP

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def place_of(server: Server, session: int, student: int) -> tuple[bool, int | None]:
    """Read whether a student is in the session, and their table number (None: waiting)."""
    uri = f"file:{server.app.db_path}?mode=ro"
    with sqlite3.connect(uri, uri=True, timeout=10) as db:
        row = db.execute(
            "SELECT t.number FROM lessons_sessionmember m"
            " LEFT JOIN lessons_sessiontable t ON m.table_id = t.id"
            " WHERE m.session_id = ? AND m.student_id = ?",
            (session, student),
        ).fetchone()
    return (row is not None, row[0] if row else None)


def submit_move(page: Page, button: str = "Move", done: str = "The student has moved.") -> None:
    """Send the overview's move form; check the server took it (a redirect, never a 403)."""
    with page.expect_response(lambda r: r.request.method == "POST") as posted:
        page.locator("#move-form").get_by_role("button", name=button, exact=True).click()
    assert posted.value.status == 302, f"the move was refused: {posted.value.status}"
    expect(page.get_by_text(done)).to_be_visible()


def test_moving_pupils_from_a_live_updated_overview(server: Server, browser: Browser) -> None:
    # Alice and Bruno at table 1 (Bruno plays first on 1/3); Chloé has not joined yet.
    world = server.world(
        students=["Alice", "Bruno"], absent=["Chloé"], session=True, seed=7, setup=FRACTIONS_SETUP
    )
    session = world["session"]
    bruno_id, chloe = world["students"][1]["id"], world["absent"][0]
    teacher = signed_in(browser, server, world["teacher_session"], lang="en")
    bruno_context = signed_in(browser, server, world["students"][1]["session"], lang="en")
    chloe_context = signed_in(browser, server, chloe["session"], lang="en")
    try:
        overview = teacher.new_page()
        overview.goto(f"{server.url}/sessions/{session}/")
        expect(overview.locator("#overview-connection")).to_have_text(
            "Live: this page updates by itself."
        )
        rows = overview.locator("#overview-live tbody tr")
        bruno = rows.filter(has_text="Bruno")
        expect(bruno.locator("td").nth(1)).to_have_text("0")
        # Bruno plays a wrong card: the live part is replaced by the socket's frame.
        play = bruno_context.new_page()
        play.goto(f"{server.url}/tables/{world['table']}/")
        expect(play.locator("#play")).to_have_attribute("data-state-id", "0")
        play.click(card_selector("10/12v"))
        expect(bruno.locator("td").nth(1)).to_have_text("1")

        # "Move Bruno": the form has Bruno, the focus is on where to; his own table is no choice.
        bruno.get_by_role("button", name="Move Bruno").click()
        pupil, place = overview.locator("#move-student"), overview.locator("#move-table")
        expect(pupil).to_have_value(str(bruno_id))
        expect(pupil.locator("option:checked")).to_have_text("Bruno, table 1")
        expect(place).to_be_focused()
        expect(place.get_by_role("option", name="Table 1")).to_be_disabled()
        place.select_option(label="the waiting list")
        submit_move(overview)
        # The move is stored (a robot took his seat); he is no longer at table 1 on the page.
        assert place_of(server, session, bruno_id)[1] != 1
        expect(bruno.locator("td").first).not_to_have_text("1")

        # Chloé joins after the page opened: the live part and the form both show her.
        joining = chloe_context.new_page()
        joining.goto(f"{server.url}/sessions/{session}/play/")
        joining.get_by_role("button", name="Join the class game").click()
        chloe_row = rows.filter(has_text="Chloé")
        expect(chloe_row).to_have_count(1)
        expect(pupil.locator(f'option[value="{chloe["id"]}"]')).to_have_count(1)

        # Keyboard: Escape brings the focus back to her row's button, Enter opens the form again.
        chloe_row.get_by_role("button", name="Move Chloé").click()
        expect(place).to_be_focused()
        overview.keyboard.press("Escape")
        expect(chloe_row.get_by_role("button", name="Move Chloé")).to_be_focused()
        overview.keyboard.press("Enter")
        expect(place).to_be_focused()
        expect(pupil).to_have_value(str(chloe["id"]))
        # Bruno's seat at table 1 is a robot's now: Chloé takes it (and its cards).
        place.select_option(label="Table 1")
        submit_move(overview)
        assert place_of(server, session, chloe["id"]) == (True, 1)
        expect(chloe_row.locator("td").first).to_have_text("1")
    finally:
        teacher.close()
        bruno_context.close()
        chloe_context.close()


def test_the_move_form_works_without_javascript(server: Server, browser: Browser) -> None:
    world = server.world(students=["Alice", "Bruno"], session=True, seed=7, setup=FRACTIONS_SETUP)
    session, alice = world["session"], world["students"][0]
    teacher = signed_in(
        browser, server, world["teacher_session"], lang="fr", java_script_enabled=False
    )
    try:
        overview = teacher.new_page()
        overview.goto(f"{server.url}/sessions/{session}/")
        # The rows' buttons need the script: without it, no such column; the form is whole.
        expect(overview.get_by_role("button", name="Déplacer Alice")).to_be_hidden()
        expect(overview.get_by_role("columnheader", name="Déplacer")).to_be_hidden()
        overview.get_by_label("Élève", exact=True).select_option(label="Alice, table 1")
        overview.get_by_label("Déplacer vers").select_option(value="")  # the waiting list
        submit_move(overview, "Déplacer", "L’élève a changé de place.")
        assert place_of(server, session, alice["id"]) == (True, None)
        alice_row = overview.locator("#overview-live tbody tr", has_text="Alice")
        expect(alice_row.locator("td").first).to_have_text("en attente")
    finally:
        teacher.close()
