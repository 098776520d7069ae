"""Assigned practice in the browser: the teacher assigns, a student plays the game to its end
with the keyboard, the teacher sees it done and the plays on the dashboard marked as practice.

The student's game is dealt near its end through the service (as if the student had played
most of it): one card left, which ends the game. The student reaches it from their home,
whose button carries on the started game rather than dealing a new one.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, expect

from games.engine import Game
from tests.e2e.browser.conftest import Server, serious_violations, signed_in
from tests.e2e.browser.pages import PlayPage, card_selector

pytestmark = pytest.mark.browser

# Seat 0 (the student) plays first on 1/3 with 2/6, their last card: equal, right, game over.
LAST_CARD_SETUP = {
    "dealer": 3,
    "hands": [["2/6r"], ["5/6v", "1/2b"], ["1/6j", "2/3b"], ["4/6r", "3/6v"]],
    "start": "1/3v",
}


def _deal_near_the_end(server: Server, classroom: int, student: int) -> int:
    """Start the student's game of the class's assignment, dealt one card from its end."""
    code = (
        "import json\n"
        "from lessons.models import PracticeAssignment, Student\n"
        "from lessons.practice.services import practice_table_start\n"
        f"assignment = PracticeAssignment.objects.get(classroom_id={classroom})\n"
        f"student = Student.objects.get(pk={student})\n"
        "table = practice_table_start(student=student, assignment=assignment, "
        f"setup=json.loads({json.dumps(json.dumps(LAST_CARD_SETUP))}))\n"
        "print(json.dumps({'table': table.pk}))\n"
    )
    return int(server.app.script(code)["table"])


def test_the_teacher_assigns_the_student_plays_the_teacher_sees_it_done(
    server: Server, browser: Browser
) -> None:
    world = server.world(students=["Alice"], table=False)
    classroom, alice = world["classroom"], world["students"][0]
    teacher = signed_in(browser, server, world["teacher_session"], lang="en")
    student = signed_in(browser, server, alice["session"], lang="en")
    try:
        # The teacher assigns one game on the easiest deck to the whole class.
        page = teacher.new_page()
        page.goto(f"{server.url}/classrooms/{classroom}/")
        page.get_by_role("link", name="Assign practice").click()
        expect(page.get_by_role("heading", name="Assign practice")).to_be_visible()
        assert serious_violations(page) == []
        page.get_by_label("Games against robots").fill("1")
        page.get_by_label("Deck", exact=True).select_option("sixths")
        page.get_by_role("button", name="Assign", exact=True).click()
        expect(page.locator("h1")).to_contain_text("Practice: 1 game by")
        row = page.locator("#practice-progress tbody tr")
        expect(row).to_have_count(1)
        expect(row).to_contain_text("Alice")
        expect(row).to_contain_text("Not yet")
        assignment_url = page.url

        # The student sees it on their home, with their progress.
        table = _deal_near_the_end(server, classroom, alice["id"])
        home = student.new_page()
        home.goto(f"{server.url}/")
        assigned = home.locator("#practice-assigned")
        expect(assigned).to_contain_text("Practice from your teacher")
        expect(assigned).to_contain_text("0 of 1 game played")
        assert serious_violations(home) == []
        home.get_by_role("button", name="Play a game").click()
        home.wait_for_url(f"**/tables/{table}/")

        # The last card, with the keyboard: the game is over and counts.
        player = PlayPage(home, keyboard_only=True)
        player.wait_state(0)
        player.press(card_selector("2/6r"))
        expect(home.locator("#play-banner")).to_contain_text("Alice")
        state, _state_id = server.table_state(table)
        assert Game.from_dict(state).view(None)["winner"] == 0
        home.goto(f"{server.url}/")
        expect(assigned).to_contain_text("1 of 1 game played")
        expect(assigned).to_contain_text("Done!")

        # The teacher sees it done, then the play on the dashboard, marked as practice.
        page.goto(assignment_url)
        expect(row).to_contain_text("Done")
        expect(page.locator(".lead")).to_contain_text("1 student of 1 has finished")
        row.get_by_role("link", name="Alice").click()
        expect(page.locator("#source-toggle [aria-current=page]")).to_have_text("practice only")
        expect(page.locator("#sessions-title")).to_be_visible()
        expect(page.get_by_role("row").filter(has_text="(practice)")).to_have_count(1)
        page.goto(f"{server.url}/classrooms/{classroom}/dashboard/?source=sessions")
        expect(page.locator("#source-toggle [aria-current=page]")).to_have_text(
            "class sessions only"
        )
        assert serious_violations(page) == []
    finally:
        teacher.close()
        student.close()
