"""Pictures of fractions: only at a practice table that asked, fading after right plays, and
the plays made with them stored as such and never diagnosis evidence."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone, translation

from games.errors import TableError
from games.models import Table
from games.players import table_info
from games.protocol import state_frame
from games.refusals import table_game
from games.services import SeatSpec, table_act, table_create
from lessons.attempts.pictures import FADE_AFTER, picture_seats
from lessons.diagnosis import diagnose, turns_from_csv
from lessons.models import Attempt, PracticeAssignment
from lessons.practice.services import assignment_create, practice_table_start, today
from lessons.reporting.class_report import class_dashboard
from lessons.reporting.exports import pseudonym
from tests.conftest import ClassWorld
from tests.lessons.practice.helpers import LAST_CARD_SETUP
from tests.lessons.reporting.helpers import M1_PLAYS, log_attempt
from tests.support.factories import student_client, teacher_client
from tests.support.responses import body_of

pytestmark = pytest.mark.django_db

# Seat 0 plays first on 1/3v: 5/6r is refused (not equal, another denominator), 2/6r is right.
TWO_CARDS_SETUP: dict[str, Any] = {
    **LAST_CARD_SETUP,
    "hands": [["5/6r", "2/6r", "1/6b"], *LAST_CARD_SETUP["hands"][1:]],
}


def _play(table: Table, user: Any, card: str) -> None:
    """Play a card; a refused one is stored in the attempt log all the same."""
    try:
        table_act(
            table_id=table.pk,
            user=user,
            action={"type": "play", "card": card},
            state_id=table.state_id,
        )
    except TableError as refused:
        assert refused.code == "no_match"


def _assign(world: ClassWorld, pictures: str = "bar") -> PracticeAssignment:
    return assignment_create(
        teacher=world.teacher,
        classroom=world.classroom,
        games=2,
        deck="sixths",
        due_on=today() + timedelta(days=3),
        pictures=pictures,
    )


def _frame(table: Table, seat: int | None = 0) -> dict[str, Any]:
    table.refresh_from_db()
    return state_frame(table_game(table), seat, table.state_id, table_info(table=table))


def test_a_practice_table_with_pictures_says_so_to_its_seat_only(class_a: ClassWorld) -> None:
    student = class_a.student.student
    table = practice_table_start(student=student, assignment=_assign(class_a, "line"))
    assert table.kind == Table.Kind.PRACTICE and table.play_settings["pictures"] == "line"
    frame = _frame(table)
    assert frame["pictures"] == {"kind": "line", "shown": True}
    assert "pictures" not in frame["table"]  # the table's public facts carry no seat's count
    assert "pictures" not in _frame(table, seat=None)  # a watching teacher's frame


def test_practice_without_the_option_has_no_pictures(class_a: ClassWorld) -> None:
    table = practice_table_start(student=class_a.student.student, assignment=_assign(class_a, ""))
    assert table.play_settings["pictures"] == "" and "pictures" not in _frame(table)


def test_a_class_session_table_never_gets_pictures_even_if_asked(class_a: ClassWorld) -> None:
    seats = [SeatSpec(name="Anaïs", user_id=class_a.student.user.pk)]
    seats += [SeatSpec(name=f"Robot {n}", bot="heuristic") for n in (1, 2)]
    table = table_create(
        ruleset="fractions",
        seats=seats,
        kind=Table.Kind.LESSON,
        table_settings={"pictures": "bar"},
        setup=None,
    )
    assert table.play_settings["pictures"] == ""
    assert "pictures" not in _frame(table)
    # Settings written by any other way still show nothing at a scored table.
    Table.objects.filter(pk=table.pk).update(
        play_settings={**table.play_settings, "pictures": "bar"}
    )
    assert "pictures" not in _frame(table)


def test_pictures_fade_after_right_plays_in_a_row_and_come_back_after_a_refusal(
    class_a: ClassWorld,
) -> None:
    student = class_a.student.student
    table = practice_table_start(
        student=student, assignment=_assign(class_a), setup=TWO_CARDS_SETUP
    )
    table_act(
        table_id=table.pk, user=student.user, action={"type": "draw"}, state_id=table.state_id
    )  # the seat's student is known to the attempt log from its first action
    right = ((1, 2), (3, 6), "equal")
    wrong = M1_PLAYS[0]
    log_attempt(student, *wrong, table=table)
    for count in range(FADE_AFTER):
        assert picture_seats(table) == {0}, count
        log_attempt(student, *right, table=table)
    assert picture_seats(table) == frozenset()
    assert _frame(table)["pictures"] == {"kind": "bar", "shown": False}  # a reload: still faded
    log_attempt(student, *wrong, table=table)
    assert _frame(table)["pictures"]["shown"] is True


def test_plays_made_with_pictures_are_stored_as_such(class_a: ClassWorld) -> None:
    student = class_a.student.student
    aided = practice_table_start(
        student=student, assignment=_assign(class_a), setup=TWO_CARDS_SETUP
    )
    for card in ("5/6r", "2/6r"):  # refused, then right
        aided.refresh_from_db()
        _play(aided, student.user, card)
    rows = list(Attempt.objects.filter(table=aided).values_list("card", "outcome", "pictures"))
    assert rows == [("5/6r", "wrong", True), ("2/6r", "equal", True)]
    other = class_a.other_student.student
    plain = practice_table_start(
        student=other, assignment=_assign(class_a, ""), setup=TWO_CARDS_SETUP
    )
    _play(plain, other.user, "5/6r")
    assert list(Attempt.objects.filter(table=plain).values_list("pictures", flat=True)) == [False]


def _trap_attempts(world: ClassWorld, *, pictures: bool) -> None:
    """Anaïs falls into the M1 trap four times over, with or without pictures shown."""
    student = world.student.student
    start = timezone.now() - timedelta(hours=1)
    for index, play in enumerate(M1_PLAYS * 2):
        log_attempt(student, *play, at=start + timedelta(minutes=index))
    Attempt.objects.filter(student=student).update(pictures=pictures)


def _m1(world: ClassWorld) -> tuple[str, int]:
    (line,) = [
        line
        for line in class_dashboard(world.classroom).lines
        if line.student == world.student.student
    ]
    status = line.evidence.get("M1")
    return (status.status, status.n) if status is not None else ("none", 0)


def test_a_pupil_whose_trap_plays_had_pictures_has_no_evidence(class_a: ClassWorld) -> None:
    _trap_attempts(class_a, pictures=True)
    assert _m1(class_a)[1] == 0 and _m1(class_a)[0] != "likely"


def test_the_same_trap_plays_without_pictures_are_evidence(class_a: ClassWorld) -> None:
    _trap_attempts(class_a, pictures=False)
    status, n = _m1(class_a)
    assert status == "likely" and n > 0


def test_the_attempts_csv_says_pictures_last_and_offline_leaves_them_out(
    class_a: ClassWorld,
) -> None:
    _trap_attempts(class_a, pictures=True)
    log_attempt(class_a.student.student, (1, 2), (3, 6), "equal")  # one unaided right play
    response = teacher_client(class_a.teacher).get(
        reverse("export_attempts", args=[class_a.classroom.pk])
    )
    rows = list(csv.DictReader(io.StringIO(body_of(response).decode())))
    assert list(rows[0])[-1] == "pictures"
    assert sorted(row["pictures"] for row in rows) == ["0"] + ["1"] * len(M1_PLAYS) * 2
    anais = pseudonym("student", class_a.student.student.pk)
    offline = {student: diagnose(turns) for student, turns in turns_from_csv(rows).items()}
    assert offline[anais]["M1"]["n"] == 0  # as the dashboard: no evidence from aided plays


def test_a_bad_pictures_choice_is_refused_and_nothing_is_assigned(class_a: ClassWorld) -> None:
    with translation.override("fr"), pytest.raises(ValidationError) as refused:
        _assign(class_a, "stars")
    assert refused.value.code == "pictures"
    assert "droite graduée" in refused.value.messages[0]
    response = teacher_client(class_a.teacher).post(
        reverse("practice_assignment_new", args=[class_a.classroom.pk]),
        {"games": 2, "deck": "sixths", "due_on": today().isoformat(), "pictures": "stars"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert response.status_code == 200
    assert "Sélectionnez un choix valide" in body_of(response).decode()
    assert not PracticeAssignment.objects.exists()


def test_the_form_assigns_pictures(class_a: ClassWorld) -> None:
    response = teacher_client(class_a.teacher).post(
        reverse("practice_assignment_new", args=[class_a.classroom.pk]),
        {"games": 2, "deck": "sixths", "due_on": today().isoformat(), "pictures": "line"},
    )
    assert response.status_code == 302
    assert PracticeAssignment.objects.get().pictures == "line"


def test_the_pupils_own_practice_form_asks_for_pictures(class_a: ClassWorld) -> None:
    client = student_client(class_a.student.student)
    practice = {"ruleset": "fractions", "bots": 1, "bot": "heuristic", "deck": "sixths"}
    refused = client.post(reverse("games:practice"), {**practice, "pictures": "stars"})
    assert refused.status_code == 200
    assert "Sélectionnez un choix valide" in body_of(refused).decode()
    assert not Table.objects.exists()
    started = client.post(reverse("games:practice"), {**practice, "pictures": "bar"})
    assert started.status_code == 302
    table = Table.objects.get()
    assert table.play_settings["pictures"] == "bar"
    assert _frame(table)["pictures"] == {"kind": "bar", "shown": True}
