"""Assigned practice, services and selectors: who it is for, what counts as a game, bad input."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from games.models import Table
from lessons.evidence.loading import SOURCE_PRACTICE, SOURCE_SESSIONS, student_rows
from lessons.models import Attempt, PracticeTable
from lessons.practice import selectors
from lessons.practice.services import (
    assignment_create,
    assignment_delete,
    practice_table_start,
    today,
)
from tests.conftest import ClassWorld
from tests.lessons.practice.helpers import LAST_CARD_SETUP, assign, play_one_game
from tests.support.factories import make_teacher

pytestmark = pytest.mark.django_db


def test_a_whole_class_assignment_is_every_present_student(class_a: ClassWorld) -> None:
    assignment = assign(class_a.teacher, class_a.classroom, games=3)
    progress = selectors.assignment_progress(assignment)
    assert [line.student for line in progress] == [
        class_a.student.student,
        class_a.other_student.student,
    ]
    assert [(line.played, line.games, line.done) for line in progress] == [(0, 3, False)] * 2
    for login in (class_a.student, class_a.other_student):
        assert [p.assignment for p in selectors.assignments_for_student(student=login.student)] == [
            assignment
        ]


def test_chosen_students_only_see_it(class_a: ClassWorld) -> None:
    assignment = assign(class_a.teacher, class_a.classroom, students=[class_a.student.student])
    assert selectors.assignments_for_student(student=class_a.other_student.student) == []
    assert [line.student for line in selectors.assignment_progress(assignment)] == [
        class_a.student.student
    ]
    with pytest.raises(ValidationError):
        practice_table_start(student=class_a.other_student.student, assignment=assignment)


def test_a_co_teacher_may_assign(class_a: ClassWorld) -> None:
    colleague = make_teacher(username="colleague")
    class_a.classroom.co_teachers.add(colleague)
    assert assign(colleague, class_a.classroom).created_by == colleague


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"games": 0}, "games"),
        ({"games": 21}, "games"),
        ({"games": True}, "games"),
        ({"deck": "huge"}, "deck"),
        ({"due_on": "past"}, "past"),
    ],
)
def test_bad_values_are_refused_and_nothing_is_stored(
    class_a: ClassWorld, change: dict[str, object], code: str
) -> None:
    values: dict[str, object] = {
        "games": 3,
        "deck": "full",
        "due_on": today() + timedelta(days=2),
    }
    values.update(change)
    if values["due_on"] == "past":
        values["due_on"] = today() - timedelta(days=1)
    with pytest.raises(ValidationError) as refused:
        assignment_create(teacher=class_a.teacher, classroom=class_a.classroom, **values)  # type: ignore[arg-type]
    assert refused.value.code == code
    assert not class_a.classroom.practice_assignments.exists()


def test_today_is_still_a_valid_due_date(class_a: ClassWorld) -> None:
    assert assign(class_a.teacher, class_a.classroom, days=0).due_on == today()


def test_another_teachers_class_and_another_class_students_are_refused(
    class_a: ClassWorld, class_b: ClassWorld
) -> None:
    with pytest.raises(ValidationError) as refused:
        assign(class_b.teacher, class_a.classroom)
    assert refused.value.code == "not_teacher"
    with pytest.raises(ValidationError) as refused:
        assign(class_a.teacher, class_a.classroom, students=[class_b.student.student])
    assert refused.value.code == "other_class"
    assert not class_a.classroom.practice_assignments.exists()
    assignment = assign(class_a.teacher, class_a.classroom)
    with pytest.raises(ValidationError):
        assignment_delete(teacher=class_b.teacher, assignment=assignment)
    with pytest.raises(ValidationError):  # class B's student: not their class's practice
        practice_table_start(student=class_b.student.student, assignment=assignment)


def test_an_archived_class_gets_no_new_practice(class_a: ClassWorld) -> None:
    class_a.classroom.archived_at = class_a.classroom.created_at
    class_a.classroom.save()
    with pytest.raises(ValidationError) as refused:
        assign(class_a.teacher, class_a.classroom)
    assert refused.value.code == "archived"


def test_a_game_counts_once_it_is_over_and_its_plays_are_practice(class_a: ClassWorld) -> None:
    student = class_a.student.student
    assignment = assign(class_a.teacher, class_a.classroom, games=2)
    table = practice_table_start(student=student, assignment=assignment, setup=LAST_CARD_SETUP)
    assert table.options["deck"] == "sixths"
    assert [s.user_id for s in table.seats.all()] == [student.user_id, None, None, None]
    # Started but not over: it does not count, and asking again carries on the same game.
    (line,) = selectors.assignments_for_student(student=student)
    assert line.played == 0
    assert practice_table_start(student=student, assignment=assignment).pk == table.pk
    play_one_game(student, assignment)
    (line,) = selectors.assignments_for_student(student=student)
    assert (line.played, line.done) == (1, False)
    # A finished game is not resumed: the next one is a new table.
    play_one_game(student, assignment)
    (line,) = selectors.assignments_for_student(student=student)
    assert (line.shown_played, line.done) == (2, True)
    assert PracticeTable.objects.filter(assignment=assignment, student=student).count() == 2
    # The other student has played nothing.
    other = selectors.assignment_progress(assignment)[1]
    assert (other.student, other.played) == (class_a.other_student.student, 0)
    # Their plays are in the attempt log, session-less: the practice source.
    attempts = Attempt.objects.filter(student=student)
    assert attempts.count() == 2 and all(a.session_id is None for a in attempts)
    assert len(student_rows(student.pk, source=SOURCE_PRACTICE)) == 2
    assert student_rows(student.pk, source=SOURCE_SESSIONS) == []


def test_more_games_than_asked_show_as_all_of_them(class_a: ClassWorld) -> None:
    student = class_a.student.student
    assignment = assign(class_a.teacher, class_a.classroom, games=1)
    play_one_game(student, assignment)
    play_one_game(student, assignment)
    (line,) = selectors.assignments_for_student(student=student)
    assert (line.played, line.shown_played, line.done) == (2, 1, True)


def test_a_past_assignment_leaves_the_home_and_starts_no_game(class_a: ClassWorld) -> None:
    student = class_a.student.student
    assignment = assign(class_a.teacher, class_a.classroom)
    type(assignment).objects.filter(pk=assignment.pk).update(due_on=today() - timedelta(days=1))
    assignment.refresh_from_db()
    assert selectors.assignments_for_student(student=student) == []
    with pytest.raises(ValidationError) as refused:
        practice_table_start(student=student, assignment=assignment)
    assert refused.value.code == "past"
    assert not Table.objects.exists()


def test_the_class_column_counts_open_assignments_done(class_a: ClassWorld) -> None:
    student, other = class_a.student.student, class_a.other_student.student
    everyone = assign(class_a.teacher, class_a.classroom, games=1)
    assign(class_a.teacher, class_a.classroom, games=1, students=[other])
    play_one_game(student, everyone)
    column = selectors.class_practice(classroom=class_a.classroom, students=[student, other])
    assert column[student.pk] == selectors.ClassPractice(done=1, assigned=1)
    assert column[other.pk] == selectors.ClassPractice(done=0, assigned=2)


def test_withdrawing_keeps_the_plays(class_a: ClassWorld) -> None:
    student = class_a.student.student
    assignment = assign(class_a.teacher, class_a.classroom, games=1)
    play_one_game(student, assignment)
    assignment_delete(teacher=class_a.teacher, assignment=assignment)
    assert Attempt.objects.filter(student=student).count() == 1
    assert selectors.assignments_for_student(student=student) == []


def test_practice_due_today_is_still_offered_and_starts_on_its_due_day(
    class_a: ClassWorld,
) -> None:
    student = class_a.student.student
    assignment = assign(class_a.teacher, class_a.classroom, days=0)
    assert assignment.due_on == today()
    offered = selectors.assignments_for_student(student=student)
    assert [line.assignment.pk for line in offered] == [assignment.pk]
    table = practice_table_start(student=student, assignment=assignment)
    assert table.status != Table.Status.FINISHED
    assert PracticeTable.objects.filter(assignment=assignment, student=student).count() == 1
