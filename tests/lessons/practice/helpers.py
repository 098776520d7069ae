"""Assigned practice in tests: an assignment, and a practice game played to its end at once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from games.models import Table
from games.services import table_act
from lessons.models import Classroom, PracticeAssignment, Student, User
from lessons.practice.services import assignment_create, practice_table_start, today

# Seat 0 (the student) plays first on 1/3 and holds one card, 2/6: playing it (equal, right)
# ends the game. Every card is in the "sixths" deck as in the full one.
LAST_CARD_SETUP: dict[str, Any] = {
    "dealer": 3,
    "hands": [["2/6r"], ["5/6v", "1/2b"], ["1/6j", "2/3b"], ["4/6r", "3/6v"]],
    "start": "1/3v",
}


def assign(
    teacher: User,
    classroom: Classroom,
    *,
    games: int = 2,
    deck: str = "sixths",
    days: int = 3,
    students: list[Student] | None = None,
) -> PracticeAssignment:
    """Assign practice through the service."""
    return assignment_create(
        teacher=teacher,
        classroom=classroom,
        games=games,
        deck=deck,
        due_on=today() + timedelta(days=days),
        students=students or [],
    )


def play_one_game(student: Student, assignment: PracticeAssignment) -> Table:
    """Start the student's game of the assignment and play its last card: game over."""
    table = practice_table_start(student=student, assignment=assignment, setup=LAST_CARD_SETUP)
    table_act(
        table_id=table.pk,
        user=student.user,
        action={"type": "play", "card": "2/6r"},
        state_id=table.state_id,
    )
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table
